// The one-file download: a deterministic zip of every JSON and CSV document, byte for byte, that other tools unpack.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PATHS } from '../../src/contract/paths.ts';
import { unzip } from '../../src/commands/verify/unzip.ts';
import { zipName } from '../../src/render/site-files.ts';
import { crc32, zipArchive } from '../../src/render/zip.ts';
import { BASE_URL, buildTable } from '../support/data.ts';

const table = buildTable();
const zip = table.routes.get(PATHS.download)?.identity.body ?? assert.fail('no /api/download');

describe('the download', () => {
  test('CRC-32 is the standard one', () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
    assert.equal(crc32(Buffer.alloc(0)), 0);
  });

  test('every JSON and CSV route but the liveness probe is in it, under a name that mirrors its path, with its exact bytes', () => {
    const entries = unzip(zip);
    const documents = [...table.routes.values()].filter((r) => (r.kind === 'json' || r.kind === 'csv') && r.path !== PATHS.health);
    assert.equal(entries.size, documents.length + 1, 'the documents and README.txt');
    for (const r of documents) assert.deepEqual(entries.get(zipName(r.path, r.kind as 'json' | 'csv')), r.identity.body, r.path);
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
    const readme = entries.get('README.txt')?.toString('utf8') ?? '';
    assert.match(readme, /Caveats \(show them with the data\):/);
    assert.match(readme, /U\.S\. Census Bureau/);
    assert.match(readme, new RegExp(`- markets/us-tx-austin\\.csv  ${BASE_URL}/api/markets/us-tx-austin/csv`));
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
});
