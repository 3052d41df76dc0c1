// The Census BPS adapter reads the four regional annual place files as published: multi-line header, padded codes, MCD rows, New York City's boroughs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FixtureError } from '../src/errors.ts';
import { MARKETS, findMarket, type MarketDefinition } from '../src/markets.ts';
import { censusBps } from '../src/sources/census-bps.ts';
import type { ReadFixture, SourceLoad } from '../src/sources/types.ts';
import { fixtureReader } from './support/data.ts';

const value = (load: SourceLoad, marketId: string): number | undefined =>
  load.observations.find((o) => o.marketId === marketId && o.metricId === 'permits')?.value;

const HEADER = [
  'Survey,State,6-Digit,County,Census Place,FIPS Place,FIPS MCD,Pop,CSA,CBSA,Footnote,Central,Zip,Region,Division,Number of,Place,,1-unit,,,2-units,,,3-4 units,,,5+ units,,,1-unit rep,,,2-units rep,,,3-4 units rep,,,5+ units rep',
  'Date,Code,ID,Code,Code,Code,Code,  ,Code,Code,Code,City,Code,Code,Code,Months Rep,Name,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value',
  ' ',
];

/**
 * A row in the published layout: identifiers padded as the Census Bureau writes them (`07000 ,07000 ,691531 ,`), then
 * Bldgs, Units, Value of the four structure-size groups with imputation, then the same for reported months only.
 */
function row(o: { state: string; county?: string; place: string; mcd?: string; name: string; months?: number; units: number[]; reported?: number[] }): string {
  const block = (units: number[]): string[] => units.flatMap((u) => [String(Math.ceil(u / 10)), String(u), String(u * 250_000)]);
  return [
    '2025',
    o.state,
    '123000',
    o.county ?? '001',
    '    ',
    `${o.place} `,
    `${o.mcd ?? '00000'} `,
    '12345 ',
    '148',
    '14460',
    ' ',
    '1',
    '02118      ',
    '1',
    '1',
    String(o.months ?? 12),
    o.name,
    ...block(o.units),
    ...block(o.reported ?? o.units),
  ].join(',');
}

const REGIONS = ['ne', 'mw', 'so', 'we'] as const;
/** The four files, each with the header and the given rows; line ends CRLF unless `lf`. */
function reader(rows: Partial<Record<(typeof REGIONS)[number], string[]>>, options: { lf?: boolean; raw?: Partial<Record<string, string>> } = {}): ReadFixture {
  const eol = options.lf === true ? '\n' : '\r\n';
  return (path) => {
    if (path === 'census-bps/retrieval.json') return '{"vintage":"2025","latestReleaseDate":"2026-05-01","latestRetrievedAt":"2026-05-20"}';
    const region = REGIONS.find((r) => path === `census-bps/${r}2025a.txt`);
    if (region === undefined) throw new Error(`no file ${path}`);
    const raw = options.raw?.[region];
    if (raw !== undefined) return raw;
    const lines = [...HEADER, ...(rows[region] ?? [row({ state: '34', place: '00000', mcd: '00070', name: 'Aberdeen township', units: [31, 0, 0, 0] })])];
    return lines.join(eol) + eol;
  };
}

const market = (id: string): MarketDefinition => findMarket(id) ?? assert.fail(`no market ${id}`);
const BOSTON = market('us-ma-boston');
const NEW_YORK = market('us-ny-new-york');
const PHOENIX = market('us-az-phoenix');

describe('census-bps: the committed fixture (four regional files, 2025)', () => {
  const load = censusBps.load(fixtureReader(), MARKETS);
  test('every market has permits; New York City is the sum of its five borough rows: 6315 + 11756 + 4627 + 4424 + 549', () => {
    assert.equal(load.observations.length, 16);
    assert.equal(value(load, 'us-ny-new-york'), 27671);
    assert.deepEqual(load.missing, []);
  });
  test("New York City's permits carry a note for the pages naming the five borough rows they add up; no other market has one", () => {
    assert.deepEqual(load.notes, [
      {
        marketId: 'us-ny-new-york',
        metricId: 'permits',
        note: 'The sum of the five rows the Building Permits Survey publishes for New York city, New York, one per county: Bronx borough, Brooklyn borough, Manhattan borough, Queens borough and Staten Island borough.',
      },
    ]);
  });
  test('units are summed over the four structure-size groups of the imputed block: Austin 4851 + 186 + 94 + 9112', () => {
    assert.equal(value(load, 'us-tx-austin'), 14243);
    assert.equal(load.observations.find((o) => o.marketId === 'us-tx-austin')?.asOf, '2025');
  });
  test('Miami reported 11 of 12 months: the imputed block counts (5268), not the reported-only one (5120)', () => {
    assert.equal(value(load, 'us-fl-miami'), 211 + 24 + 15 + 5018);
  });
  test('cities in MCD states are found by place code, whatever their MCD code: Boston 07000/07000, Chicago 14000/14000, Washington 50000/99001', () => {
    assert.equal(value(load, 'us-ma-boston'), 64 + 30 + 97 + 1873);
    assert.equal(value(load, 'us-il-chicago'), 482 + 86 + 238 + 3409);
    assert.equal(value(load, 'us-dc-washington'), 131 + 36 + 6 + 1977);
  });
  test('matched by state and place codes, never by name: Phoenix, OR and Miami, OK are other places', () => {
    assert.equal(value(load, 'us-az-phoenix'), 4213 + 12 + 31 + 6047);
    assert.equal(load.observations.find((o) => o.marketId === 'us-az-phoenix')?.origin.file, 'census-bps/we2025a.txt');
  });
  test('rows of the 204 other permit offices (places, townships, unincorporated areas) are skipped and counted', () => {
    assert.equal(load.skipped, 204);
  });
});

describe('census-bps: samples in the published layout', () => {
  test('padded codes, CRLF or LF, the header over three lines (the third a lone space)', () => {
    for (const lf of [false, true]) {
      const load = censusBps.load(reader({ ne: [row({ state: '25', place: '07000', mcd: '07000', name: 'Boston', units: [64, 30, 97, 1873] })] }, { lf }), [
        BOSTON,
      ]);
      assert.equal(value(load, BOSTON.id), 2064);
      assert.equal(load.observations[0]?.origin.line, 4);
    }
  });
  test('a township row with place code 00000 and an MCD code is skipped, not read as a market', () => {
    const load = censusBps.load(
      reader({
        ne: [
          row({ state: '25', place: '00000', mcd: '07000', name: 'Boston township', units: [5, 0, 0, 0] }),
          row({ state: '25', place: '07000', mcd: '07000', name: 'Boston', units: [1, 0, 0, 0] }),
        ],
      }),
      [BOSTON],
    );
    assert.equal(value(load, BOSTON.id), 1);
    assert.equal(load.skipped, 1 + 3); // the township, and the placeholder row of the three other files
  });
  test('the same name in another state is another place: Phoenix, OR does not stand in for Phoenix, AZ', () => {
    const load = censusBps.load(reader({ we: [row({ state: '41', place: '57900', name: 'Phoenix', units: [19, 0, 0, 0] })] }), [PHOENIX]);
    assert.equal(value(load, PHOENIX.id), undefined);
    assert.match(load.missing[0]?.reason ?? '', /none of the four BPS place files has a row for state 04 place 55000/);
  });
  test('New York City: five borough rows with the city place code, one per county, added up', () => {
    const boroughs = ['005', '047', '061', '081', '085'].map((county, i) =>
      row({ state: '36', county, place: '51000', name: `Borough ${i}`, units: [i, 0, 0, 100] }),
    );
    const load = censusBps.load(reader({ ne: boroughs }), [NEW_YORK]);
    assert.equal(value(load, NEW_YORK.id), 0 + 1 + 2 + 3 + 4 + 500);
  });
  test('New York City with a borough row missing: permits missing, and the reason names the borough', () => {
    const four = ['005', '047', '061', '081'].map((county) => row({ state: '36', county, place: '51000', name: 'Borough', units: [1, 0, 0, 0] }));
    const load = censusBps.load(reader({ ne: four }), [NEW_YORK]);
    assert.equal(value(load, NEW_YORK.id), undefined);
    assert.equal(load.missing.length, 1);
    assert.match(load.missing[0]?.reason ?? '', /lack Staten Island borough \(county 085\)/);
  });
  test('two rows of one borough: a duplicate row error naming both lines', () => {
    const rows = ['005', '005'].map((county) => row({ state: '36', county, place: '51000', name: 'Bronx borough', units: [1, 0, 0, 0] }));
    assert.throws(
      () => censusBps.load(reader({ ne: rows }), [NEW_YORK]),
      (e: unknown) =>
        e instanceof FixtureError && e.code === 'duplicate_row' && /ne2025a\.txt:5/.test(e.message) && /first is on census-bps\/ne2025a\.txt:4/.test(e.message),
    );
  });
  test("a data row with a survey year other than the file name's is refused", () => {
    const bad = row({ state: '25', place: '07000', mcd: '07000', name: 'Boston', units: [1, 0, 0, 0] }).replace(/^2025,/, '2024,');
    assert.throws(
      () => censusBps.load(reader({ ne: [bad] }), [BOSTON]),
      (e: unknown) => e instanceof FixtureError && e.code === 'bad_shape' && /survey date 2024 in the 2025 file/.test(e.message),
    );
  });
  test('units that are not counts are refused, naming the column', () => {
    const bad = row({ state: '25', place: '07000', mcd: '07000', name: 'Boston', units: [1, 0, 0, 0] }).replace(/,Boston,1,1,/, ',Boston,1,1.5,');
    assert.throws(
      () => censusBps.load(reader({ ne: [bad] }), [BOSTON]),
      (e: unknown) => e instanceof FixtureError && e.code === 'not_numeric' && /1-unit Units/.test(e.message),
    );
  });
  for (const [name, raw, pattern] of [
    ['an HTML error page', '<!DOCTYPE html>\n<html><body>Service Unavailable</body></html>\n', /ne2025a\.txt:1: expected the BPS place file's header/],
    ['an empty file', '', /the file is empty/],
    ['a file cut off after its header', `${HEADER.join('\r\n')}\r\n`, /no data rows after the header/],
    ['a data row before the header', `${row({ state: '25', place: '07000', name: 'Boston', units: [1, 0, 0, 0] })}\r\n`, /a data row before the header/],
  ] as const) {
    test(`${name} is refused with the file and line`, () => {
      assert.throws(
        () => censusBps.load(reader({}, { raw: { ne: raw } }), [BOSTON]),
        (e: unknown) => e instanceof FixtureError && e.code === 'bad_shape' && pattern.test(e.message) && e.place.file === 'census-bps/ne2025a.txt',
      );
    });
  }
  test('the vintage is the survey year the rows carry', () => {
    assert.equal(censusBps.vintageOf?.(fixtureReader()), '2025');
  });
  test("fetch downloads the four files from the Census Bureau's place folders", () => {
    assert.deepEqual(
      censusBps.remote.map((r) => r.url),
      ['Northeast', 'Midwest', 'South', 'West'].map((region, i) => `https://www2.census.gov/econ/bps/Place/${region}%20Region/${REGIONS[i]}2025a.txt`),
    );
  });
});
