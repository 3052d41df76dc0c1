// The one-file download: a deterministic zip of every JSON and CSV document, byte for byte, in one folder with a README that explains them, that other tools unpack.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { PATHS } from '../../src/contract/paths.ts';
import { unzip } from '../../src/commands/verify/unzip.ts';
import { DATA_PACKAGE_ENTRY, README_ENTRY, downloadFolder, localDataPackage, zipName } from '../../src/render/site-files.ts';
import { CSV_COLUMNS } from '../../src/contract/schemas.ts';
import { SERIES_CSV_COLUMNS } from '../../src/contract/series.ts';
import { WORLD_METRICS, WORLD_SNAPSHOT_DATE } from '../world/world.ts';
import { crc32, zipArchive } from '../../src/render/zip.ts';
import { BASE_URL, buildTable } from '../support/data.ts';

const table = buildTable();
const zip = table.routes.get(PATHS.download)?.identity.body ?? assert.fail('no /api/download');

describe('the download', () => {
  test('CRC-32 is the standard one', () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
    assert.equal(crc32(Buffer.alloc(0)), 0);
  });

  test('one folder named for the snapshot holds every JSON and CSV route but the liveness probe, under a name that mirrors its path, with its exact bytes (the Data Package pointing at the files beside it), and README.md', () => {
    const entries = unzip(zip);
    const folder = `housing-markets-${WORLD_SNAPSHOT_DATE}`;
    assert.equal(downloadFolder(WORLD_SNAPSHOT_DATE), folder);
    assert.deepEqual([...new Set([...entries.keys()].map((name) => name.split('/')[0]))], [folder], 'one top-level entry');
    const inFolder = new Map([...entries].map(([name, body]) => [name.slice(folder.length + 1), body]));
    const documents = [...table.routes.values()].filter((r) => (r.kind === 'json' || r.kind === 'csv') && r.path !== PATHS.health);
    assert.equal(entries.size, documents.length + 1, 'the documents and README.md');
    for (const r of documents) {
      const expected = r.path === PATHS.dataPackage ? localDataPackage(r.identity.body, BASE_URL) : r.identity.body;
      assert.deepEqual(inFolder.get(zipName(r.path, r.kind as 'json' | 'csv')), expected, r.path);
    }
    const local = JSON.parse(inFolder.get(DATA_PACKAGE_ENTRY)?.toString('utf8') ?? '{}') as { id: string; resources: { path: string }[] };
    assert.deepEqual(
      local.resources.map((r) => r.path).sort(),
      [...inFolder.keys()].filter((name) => name.endsWith('.csv')).sort(),
      'the Data Package lists every CSV in the zip, the vintages too, each by its name beside it',
    );
    assert.equal(local.id, `${BASE_URL}${PATHS.dataPackage}`, 'its id stays the address of the served document');
    assert.deepEqual(
      [
        '/api/markets',
        '/api/markets/csv',
        '/api/markets/us-tx-austin',
        '/api/markets/us-tx-austin/csv',
        '/api/markets/series/csv',
        '/api/markets/us-tx-austin/series',
      ].map((p) => zipName(p, p.endsWith('/csv') ? 'csv' : 'json')),
      ['markets.json', 'markets.csv', 'markets/us-tx-austin.json', 'markets/us-tx-austin.csv', 'markets/series.csv', 'markets/us-tx-austin/series.json'],
    );
  });

  test("its README.md says what the data are, where each value's period, margin and area are, every column, the sources, the licence and the citation", () => {
    const readme =
      unzip(zip)
        .get(`${downloadFolder(WORLD_SNAPSHOT_DATE)}/${README_ENTRY}`)
        ?.toString('utf8') ?? '';
    assert.match(readme, new RegExp(`^# Housing market profiles, snapshot of ${WORLD_SNAPSHOT_DATE}\n`));
    assert.match(readme, /Caveats \(show them with the data\):/);
    // The main CSVs point to the series CSVs for what their fixed columns cannot hold.
    assert.match(
      readme,
      /## The period and the area of each value\n\n`markets\.csv` and the market CSVs have the 11 columns .* `updated_date` is the snapshot's date, not the period/,
    );
    for (const column of [...CSV_COLUMNS, ...SERIES_CSV_COLUMNS])
      assert.match(readme, new RegExp(`^\\| \`${column.name}\` \\| ${column.type}`, 'm'), column.name);
    assert.match(readme, /^\| `margin_of_error` \| number \| the row's unit \| The agency's 90 % margin of error/m);
    assert.match(readme, /^\| `geography_code` \| string \| {2}\| The area's code/m);
    for (const metric of WORLD_METRICS) assert.match(readme, new RegExp(`^\\| \`${metric.id}\` \\| `, 'm'), metric.id);
    assert.match(readme, /^\| `medianGrossRent` \| Median gross rent \| USD\/mo \| 2020-2024 \| city \(Census place\) \| `census-acs-5yr` \| /m);
    assert.match(readme, /## Margins of error\n\nThe American Community Survey's figures are estimates/);
    assert.match(readme, new RegExp(`Methodology v[0-9.]+, .*: ${BASE_URL}/methodology`));
    assert.match(readme, /- U\.S\. Census Bureau, Building Permits Survey: Census Bureau data are in the public domain/);
    assert.match(readme, /## Suggested citation\n\nMarket profiles contributors \(2026\)\. Housing market profiles, snapshot of 2026-11-29 \[Data set\]\. /);
    assert.doesNotMatch(readme, /^- markets\/us-tx-austin\.csv /m, 'no list of every file');
  });

  test('deterministic: the same documents give the same bytes (one ETag), whatever order they come in', () => {
    assert.deepEqual(buildTable().routes.get(PATHS.download)?.identity.body, zip);
    const a = zipArchive(
      [
        { name: 'b.csv', body: Buffer.from('x\r\n') },
        { name: 'a.json', body: Buffer.from('{}\n') },
      ],
      '2026-11-24',
    );
    const b = zipArchive(
      [
        { name: 'a.json', body: Buffer.from('{}\n') },
        { name: 'b.csv', body: Buffer.from('x\r\n') },
      ],
      '2026-11-24',
    );
    assert.deepEqual(a, b);
  });

  test('entries are in order of name, compared by UTF-16 code unit, whatever order they come in', () => {
    const names = ['c.csv', 'a.json', 'B.json', 'a/b.json', 'b.csv'];
    const archive = (order: readonly string[]): Buffer =>
      zipArchive(
        order.map((name) => ({ name, body: Buffer.from(name) })),
        '2026-11-24',
      );
    const sorted = archive(names);
    assert.deepEqual([...unzip(sorted).keys()], ['B.json', 'a.json', 'a/b.json', 'b.csv', 'c.csv']);
    for (let shift = 1; shift < names.length; shift += 1) {
      const rotated = [...names.slice(shift), ...names.slice(0, shift)];
      assert.deepEqual(archive(rotated), sorted, rotated.join(' '));
      assert.deepEqual(archive([...rotated].reverse()), sorted, [...rotated].reverse().join(' '));
    }
  });

  test('more than 65,535 entries (zip64 territory) are refused', () => {
    const empty = Buffer.alloc(0);
    assert.throws(
      () =>
        zipArchive(
          Array.from({ length: 65_536 }, (_, i) => ({ name: `f${i}`, body: empty })),
          '2026-11-24',
        ),
      {
        name: 'RangeError',
        message: 'a zip without zip64 holds at most 65,535 entries, not 65536',
      },
    );
  });

  test('a date zip cannot hold (before 1980, after 2107) is a bug here, named, not a RangeError: the load refuses such a retrieval date', () => {
    for (const date of ['1979-12-31', '2108-01-01']) {
      assert.throws(() => zipArchive([{ name: 'a', body: Buffer.from('a') }], date), {
        name: 'InvariantError',
        message: `a zip dates its entries 1980-01-01 to 2107-12-31 only, not ${date}: the load should have refused that date`,
      });
    }
    assert.ok(zipArchive([], '1980-01-01').length > 0 && zipArchive([], '2107-12-31').length > 0, 'the first and last days are held');
  });

  test('a gzip file made already is reused: its deflate stream and CRC-32 go in as they are, when node:zlib wrote it for this body', () => {
    const body = table.routes.get(PATHS.index)?.identity.body ?? assert.fail('no /api/markets');
    const gzip = gzipSync(body, { level: 1 });
    const level9 = deflateRawSync(body, { level: 9 });
    assert.notDeepEqual(gzip.subarray(10, gzip.length - 8), level9, 'premise: level 1 and level 9 streams differ');
    assert.notDeepEqual(deflateRawSync(body), level9, "premise: zlib's default level and level 9 differ");
    /** The one entry's method, CRC-32 and data, read by hand from its local header (APPNOTE 4.3.7). */
    const entry = (gz?: Buffer): { method: number; crc: number; data: Buffer } => {
      const zip = zipArchive([{ name: 'a.json', body, ...(gz === undefined ? {} : { gzip: gz }) }], '2026-11-24');
      const start = 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28);
      return { method: zip.readUInt16LE(8), crc: zip.readUInt32LE(14), data: zip.subarray(start, start + zip.readUInt32LE(18)) };
    };
    const crc = crc32(body);
    assert.deepEqual(entry(gzip), { method: 8, crc: gzip.readUInt32LE(gzip.length - 8), data: gzip.subarray(10, gzip.length - 8) }, 'the gzip stream');
    assert.equal(gzip.readUInt32LE(gzip.length - 8), crc, "premise: the gzip's CRC-32 is the body's");
    assert.deepEqual(entry(), { method: 8, crc, data: level9 }, 'without one: deflated at level 9');
    const sizeOnly = Buffer.alloc(8);
    gzip.copy(sizeOnly, 0, 0, 4);
    sizeOnly.writeUInt32LE(body.length, 4);
    for (const [why, gz] of [
      ['not gzip (ID1)', Buffer.from(gzip).fill(0, 0, 1)],
      ['not gzip (ID2)', Buffer.from(gzip).fill(0, 1, 2)],
      ['not deflate (CM)', Buffer.from(gzip).fill(7, 2, 3)],
      ['optional header fields (FLG)', Buffer.from(gzip).fill(8, 3, 4)],
      ['the gzip of another body', gzipSync(Buffer.concat([body, Buffer.from(' ')]), { level: 1 })],
      ['too short for a header and a trailer', sizeOnly],
    ] as const) {
      assert.deepEqual(entry(gz), { method: 8, crc, data: level9 }, why);
    }
  });
});
