// The CSVs read back with an independent RFC 4180 parser (csv-parse) and tie to the JSON (docs/contract.md 2.6).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { csvField, plainDecimal } from '../../src/contract/csv-format.ts';
import { PATHS } from '../../src/contract/paths.ts';
import { body, buildTable, servedProfiles } from '../support/data.ts';
import { WORLD_MARKET_IDS } from '../world/world.ts';

const HEADER = [
  'market_id',
  'market_name',
  'metric_id',
  'metric_label',
  'value',
  'unit',
  'source_id',
  'updated_date',
  'methodology_version',
  'production_mode',
  'live_data',
];
const table = buildTable();
const profiles = servedProfiles(table);

const read = (text: string): string[][] => parse(text, { record_delimiter: '\r\n', relax_quotes: false, relax_column_count: false }) as string[][];

describe('per-market CSV', () => {
  for (const p of profiles) {
    test(`${p.market.id}: header, 11 columns, CRLF, UTF-8 without BOM, every value equal to the JSON's`, () => {
      const route = table.routes.get(PATHS.marketCsv(p.market.id));
      assert.ok(route, 'route');
      const bytes = route.identity.body;
      assert.notDeepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'no BOM');
      const text = bytes.toString('utf8');
      assert.ok(text.endsWith('\r\n'), "text.endsWith('\\r\\n')");
      assert.equal(text.replaceAll('\r\n', '').includes('\n'), false, 'every line ends with CRLF');
      assert.equal(text.replaceAll('\r\n', '').includes('\r'), false);
      const [header, ...rows] = read(text);
      assert.deepEqual(header, HEADER);
      const metrics = Object.values(p.profile.metrics);
      assert.equal(rows.length, metrics.length, 'one row per metric');
      assert.deepEqual(
        rows.map((r) => r[2]),
        metrics.map((m) => m.id).sort(),
        'rows sorted by metric_id',
      );
      for (const row of rows) {
        assert.equal(row.length, 11);
        const m = p.profile.metrics[row[2] ?? ''];
        assert.ok(m, `metric ${row[2]}`);
        assert.deepEqual(row, [
          p.market.id,
          `${p.market.name}, ${p.market.stateCode}`,
          m.id,
          m.label,
          row[4],
          m.unit,
          m.sourceId,
          p.profile.updatedDate,
          p.methodologyVersion,
          'static-fixture',
          'false',
        ]);
        assert.match(row[4] ?? '', /^-?\d+(\.\d+)?$/, 'plain decimal');
        assert.equal(Number(row[4]), m.value);
      }
    });
  }
});

describe('quoting', () => {
  const text = body(table, PATHS.marketCsv('us-tx-austin'));
  test('market_name is quoted since it contains a comma', () => {
    assert.ok(text.includes(',"Austin, TX",'), 'text.includes(\',"Austin, TX",\')');
  });
  test('a label with a comma is quoted, and no label carries literal quotes (the v1 index label came out doubled)', () => {
    assert.ok(text.includes(',"Housing units, total",'), 'text.includes(\',"Housing units, total",\')');
    assert.ok(
      text.includes(',"House price index, all transactions, 1995 Q1 = 100",'),
      'text.includes(\',"House price index, all transactions, 1995 Q1 = 100",\')',
    );
    assert.ok(!text.includes('""'), '!text.includes(\'""\')');
  });
  test('a plain label is left unquoted', () => {
    assert.ok(text.includes(',Median gross rent,'), "text.includes(',Median gross rent,')");
  });
  test('csvField quotes exactly when RFC 4180 requires it', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\r\nlines'), '"two\r\nlines"');
  });
});

test('plainDecimal never writes an exponent or a thousands separator', () => {
  assert.equal(plainDecimal(1234567), '1234567');
  assert.equal(plainDecimal(1e21), '1000000000000000000000');
  assert.equal(plainDecimal(1.5e-7), '0.00000015');
  assert.equal(plainDecimal(-2.5e-7), '-0.00000025');
  assert.equal(plainDecimal(1.23e25), '12300000000000000000000000');
  assert.equal(plainDecimal(-0), '0');
  assert.equal(plainDecimal(52.1), '52.1');
  assert.throws(() => plainDecimal(Number.NaN), /cannot write NaN as a CSV decimal/);
});

describe('bulk CSV', () => {
  const bulk = body(table, PATHS.bulkCsv);
  test('equals the union of the per-market CSVs, sorted by market_id then metric_id, with one header', () => {
    const [header, ...rows] = read(bulk);
    assert.deepEqual(header, HEADER);
    const union = WORLD_MARKET_IDS.flatMap((id) => read(body(table, PATHS.marketCsv(id))).slice(1));
    const sorted = [...union].sort((a, b) => ((a[0] ?? '') + '\u0000' + (a[2] ?? '') < (b[0] ?? '') + '\u0000' + (b[2] ?? '') ? -1 : 1));
    assert.deepEqual(rows, sorted);
  });
  test('byte for byte, it is the header line followed by the per-market bodies in market_id order', () => {
    const perMarket = [...WORLD_MARKET_IDS].sort().map((id) => body(table, PATHS.marketCsv(id)).split('\r\n').slice(1).join('\r\n'));
    assert.equal(bulk, `${HEADER.join(',')}\r\n${perMarket.join('')}`);
  });
});

describe('response headers of the CSV routes (docs/contract.md 4)', () => {
  test('per-market: text/csv; charset=utf-8 and attachment filename <market-id>-housing.csv', () => {
    for (const id of WORLD_MARKET_IDS) {
      const headers = new Map(table.routes.get(PATHS.marketCsv(id))?.headers);
      assert.equal(headers.get('Content-Type'), 'text/csv; charset=utf-8');
      assert.equal(headers.get('Content-Disposition'), `attachment; filename="${id}-housing.csv"`);
    }
  });
  test('bulk: same content type, filename housing-markets.csv', () => {
    const headers = new Map(table.routes.get(PATHS.bulkCsv)?.headers);
    assert.equal(headers.get('Content-Type'), 'text/csv; charset=utf-8');
    assert.equal(headers.get('Content-Disposition'), 'attachment; filename="housing-markets.csv"');
  });
  test('JSON routes are exactly application/json', () => {
    for (const path of [PATHS.index, PATHS.profile('us-tx-austin'), PATHS.profileSchema, PATHS.csvDescriptor]) {
      assert.equal(new Map(table.routes.get(path)?.headers).get('Content-Type'), 'application/json', path);
    }
  });
});
