// The Census BPS adapter reads the four regional annual place files as published: multi-line header, padded codes, MCD rows, New York City's boroughs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findMarket, type MarketDefinition } from '../../src/contract/markets.ts';
import type { ReadFixture, SourceLoad } from '../../src/sources/source.ts';
import { fixtureReader } from '../support/data.ts';
import { assertFixtureError } from '../support/refused.ts';
import { WORLD_BPS, WORLD_MARKETS } from '../world/world.ts';

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
    '2024',
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
    if (path === 'census-bps/retrieval.json') return '{"vintage":"2024","latestReleaseDate":"2025-05-01","latestRetrievedAt":"2026-11-24"}';
    const region = REGIONS.find((r) => path === `census-bps/${r}2024a.txt`);
    if (region === undefined) throw new Error(`no file ${path}`);
    const raw = options.raw?.[region];
    if (raw !== undefined) return raw;
    const lines = [...HEADER, ...(rows[region] ?? [row({ state: '34', place: '00000', mcd: '00070', name: 'Aberdeen township', units: [31, 0, 0, 0] })])];
    return lines.join(eol) + eol;
  };
}

const market = (id: string): MarketDefinition => findMarket(id) ?? assert.fail(`no market ${id}`);

const BOSTON = market('us-ma-boston');
const BOSTON_ROW = row({ state: '25', place: '07000', mcd: '07000', name: 'Boston', units: [64, 30, 97, 1873] });
const NEW_YORK = market('us-ny-new-york');
const PHOENIX = market('us-az-phoenix');

describe('census-bps: the committed fixture (the four regional files of 2024, as published)', () => {
  const load = WORLD_BPS.load(fixtureReader(), WORLD_MARKETS);
  test('every market has permits; New York City is the sum of its five borough rows: 6929 + 10063 + 4467 + 5302 + 480', () => {
    assert.equal(load.observations.length, 16);
    assert.equal(value(load, 'us-ny-new-york'), 27241);
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
  test('units are summed over the four structure-size groups of the imputed block: Austin 1946 + 144 + 8 + 7346', () => {
    assert.equal(value(load, 'us-tx-austin'), 9444);
    assert.equal(load.observations.find((o) => o.marketId === 'us-tx-austin')?.asOf, '2024');
  });
  test('Atlanta reported 11 of 12 months: the imputed block counts (8109), not the reported-only one (7608)', () => {
    assert.equal(value(load, 'us-ga-atlanta'), 791 + 102 + 369 + 6847);
  });
  test('cities in MCD states are found by place code, whatever their MCD code: Boston 07000/07000, Chicago 14000/14000, Washington 50000/99001', () => {
    assert.equal(value(load, 'us-ma-boston'), 72 + 26 + 109 + 1582);
    assert.equal(value(load, 'us-il-chicago'), 325 + 132 + 336 + 3578);
    assert.equal(value(load, 'us-dc-washington'), 146 + 82 + 3 + 1506);
  });
  test('matched by state and place codes, never by name: Phoenix, OR and Miami, OK are other places', () => {
    assert.equal(value(load, 'us-az-phoenix'), 4062 + 940 + 14 + 3981);
    assert.equal(load.observations.find((o) => o.marketId === 'us-az-phoenix')?.origin.file, 'census-bps/we2024a.txt');
  });
  test('rows of the 263 other permit offices (places, townships, unincorporated areas) are skipped and counted', () => {
    assert.equal(load.skipped, 263);
  });
  test('an observation names the place, its FIPS codes and state, the survey year, the source and its row', () => {
    assert.deepEqual(
      load.observations.find((o) => o.marketId === 'us-tx-austin'),
      {
        marketId: 'us-tx-austin',
        metricId: 'permits',
        value: 9444,
        asOf: '2024',
        sourceId: 'census-bps',
        boundary: { level: 'place', name: 'Austin city, Texas', codes: { stateFips: '48', placeFips: '05000' }, states: ['TX'] },
        origin: { file: 'census-bps/so2024a.txt', line: 59 },
      },
    );
  });
  test("New York City's permits name the first of its borough rows (the Bronx, line 25) as their origin", () => {
    assert.deepEqual(load.observations.find((o) => o.marketId === 'us-ny-new-york')?.origin, { file: 'census-bps/ne2024a.txt', line: 25 });
  });
  test("attributes the counts to the Census Bureau's Building Permits Survey, with retrieval.json's vintage and dates", () => {
    assert.deepEqual(load.source, {
      sourceId: 'census-bps',
      sourceName: 'Building Permits Survey',
      agency: 'U.S. Census Bureau',
      datasetName: 'Building Permits Survey, annual place files, new privately-owned housing units authorized (2024)',
      sourceUrl: 'https://www.census.gov/construction/bps/',
      confidence: 'high',
      updateFrequency: 'annually',
      provenance: 'fixture',
      latestReleaseDate: '2025-05-01',
      latestRetrievedAt: '2026-11-24',
    });
  });
  test('every value is the published one: no notice, and no value marked illustrative', () => {
    assert.equal('illustrative' in load, false);
    assert.ok(
      load.observations.every((o) => o.illustrative === undefined),
      'load.observations.every((o) => o.illustrative === undefined)',
    );
  });
  test('reads the four regional files and retrieval.json, and nothing else', () => {
    assert.equal(WORLD_BPS.sourceId, 'census-bps');
    assert.deepEqual(WORLD_BPS.files, [
      'census-bps/ne2024a.txt',
      'census-bps/mw2024a.txt',
      'census-bps/so2024a.txt',
      'census-bps/we2024a.txt',
      'census-bps/retrieval.json',
    ]);
  });
});

describe('census-bps: samples in the published layout', () => {
  test('padded codes, CRLF or LF, the header over three lines (the third a lone space)', () => {
    for (const lf of [false, true]) {
      const load = WORLD_BPS.load(reader({ ne: [row({ state: '25', place: '07000', mcd: '07000', name: 'Boston', units: [64, 30, 97, 1873] })] }, { lf }), [
        BOSTON,
      ]);
      assert.equal(value(load, BOSTON.id), 2064);
      assert.equal(load.observations[0]?.origin.line, 4);
    }
  });
  test('a township row with place code 00000 and an MCD code is skipped, not read as a market', () => {
    const load = WORLD_BPS.load(
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
    const load = WORLD_BPS.load(reader({ we: [row({ state: '41', place: '57900', name: 'Phoenix', units: [19, 0, 0, 0] })] }), [PHOENIX]);
    assert.equal(value(load, PHOENIX.id), undefined);
    assert.deepEqual(load.missing, [
      {
        marketId: PHOENIX.id,
        metricId: 'permits',
        reason: 'none of the four BPS place files has a row for state 04 place 55000 (Phoenix city, Arizona)',
        origin: { file: 'census-bps/ne2024a.txt, census-bps/mw2024a.txt, census-bps/so2024a.txt, census-bps/we2024a.txt' },
      },
    ]);
  });
  test('New York City: five borough rows with the city place code, one per county, added up', () => {
    const boroughs = ['005', '047', '061', '081', '085'].map((county, i) =>
      row({ state: '36', county, place: '51000', name: `Borough ${i}`, units: [i, 0, 0, 100] }),
    );
    const load = WORLD_BPS.load(reader({ ne: boroughs }), [NEW_YORK]);
    assert.equal(value(load, NEW_YORK.id), 0 + 1 + 2 + 3 + 4 + 500);
  });
  test("New York City's permits name the first borough row as their origin, and carry the note naming the five rows", () => {
    const boroughs = ['005', '047', '061', '081', '085'].map((county) => row({ state: '36', county, place: '51000', name: 'Borough', units: [1, 0, 0, 0] }));
    const load = WORLD_BPS.load(reader({ ne: boroughs }), [NEW_YORK]);
    assert.deepEqual(load.observations[0]?.origin, { file: 'census-bps/ne2024a.txt', line: 4 });
    assert.deepEqual(load.notes, [
      {
        marketId: NEW_YORK.id,
        metricId: 'permits',
        note: 'The sum of the five rows the Building Permits Survey publishes for New York city, New York, one per county: Bronx borough, Brooklyn borough, Manhattan borough, Queens borough and Staten Island borough.',
      },
    ]);
  });
  test('boroughs spread over several files: the origin is the first row of the file whose name sorts first (mw before ne, so, we)', () => {
    const borough = (county: string): string => row({ state: '36', county, place: '51000', name: 'Borough', units: [1, 0, 0, 0] });
    const other = row({ state: '34', place: '00000', mcd: '00070', name: 'Aberdeen township', units: [31, 0, 0, 0] });
    const load = WORLD_BPS.load(
      reader({ ne: [borough('005'), borough('047')], mw: [other, other, borough('061')], so: [borough('081')], we: [other, borough('085')] }),
      [NEW_YORK],
    );
    assert.equal(value(load, NEW_YORK.id), 5);
    assert.deepEqual(load.observations[0]?.origin, { file: 'census-bps/mw2024a.txt', line: 6 });
  });
  test('a market of other counts of county rows: the note counts them in words up to ten, in figures beyond', () => {
    const words = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', '11'];
    words.forEach((word, i) => {
      const counties = Array.from({ length: i + 2 }, (_, c) => String(c + 1).padStart(3, '0'));
      const city: MarketDefinition = { ...NEW_YORK, counties: counties.map((countyFips) => ({ countyFips, name: `County ${countyFips}` })) };
      const load = WORLD_BPS.load(reader({ ne: counties.map((county) => row({ state: '36', county, place: '51000', name: 'Part', units: [1, 0, 0, 0] })) }), [
        city,
      ]);
      assert.equal(value(load, NEW_YORK.id), i + 2);
      assert.match(
        load.notes?.[0]?.note ?? '',
        new RegExp(`^The sum of the ${word} rows the Building Permits Survey publishes for New York city, New York, one per county: County 001(, | and )`),
      );
    });
  });
  test('New York City with a borough row missing: permits missing, and the reason names the borough', () => {
    const four = ['005', '047', '061', '081'].map((county) => row({ state: '36', county, place: '51000', name: 'Borough', units: [1, 0, 0, 0] }));
    const load = WORLD_BPS.load(reader({ ne: four }), [NEW_YORK]);
    assert.equal(value(load, NEW_YORK.id), undefined);
    assert.deepEqual(load.missing, [
      {
        marketId: NEW_YORK.id,
        metricId: 'permits',
        reason:
          'the permits of New York city, New York are the sum of 5 rows (Bronx borough, Brooklyn borough, Manhattan borough, Queens borough, Staten Island borough); the BPS place files lack Staten Island borough (county 085)',
        origin: { file: 'census-bps/ne2024a.txt, census-bps/mw2024a.txt, census-bps/so2024a.txt, census-bps/we2024a.txt' },
      },
    ]);
    assert.deepEqual(load.notes, []);
  });
  test('New York City with two borough rows missing: the reason names both', () => {
    const three = ['005', '061', '081'].map((county) => row({ state: '36', county, place: '51000', name: 'Borough', units: [1, 0, 0, 0] }));
    const load = WORLD_BPS.load(reader({ ne: three }), [NEW_YORK]);
    assert.equal(
      load.missing[0]?.reason,
      'the permits of New York city, New York are the sum of 5 rows (Bronx borough, Brooklyn borough, Manhattan borough, Queens borough, Staten Island borough); the BPS place files lack Brooklyn borough (county 047), Staten Island borough (county 085)',
    );
  });
  test("a row of New York City's place code in a county that is not a borough is an error naming the counties the market adds up", () => {
    const rows = ['005', '047', '059'].map((county) => row({ state: '36', county, place: '51000', name: `Place in ${county}`, units: [1, 0, 0, 0] }));
    assertFixtureError(
      () => WORLD_BPS.load(reader({ ne: rows }), [NEW_YORK]),
      'bad_shape',
      'census-bps/ne2024a.txt:6, column County Code: a row for state 36 place 51000 in county 059 (Place in 059), which is not one of the 5 the market adds up (005, 047, 061, 081, 085)',
    );
  });
  test('two rows of one borough: a duplicate row error naming both lines', () => {
    const rows = ['005', '005'].map((county) => row({ state: '36', county, place: '51000', name: 'Bronx borough', units: [1, 0, 0, 0] }));
    assertFixtureError(
      () => WORLD_BPS.load(reader({ ne: rows }), [NEW_YORK]),
      'duplicate_row',
      'census-bps/ne2024a.txt:5: second row for state 36 place 51000 county 005 (Bronx borough); the first is on census-bps/ne2024a.txt:4',
    );
  });
  test("two rows of a one-row market, even in different files: a duplicate row error naming the second and the first, and the place's name without its padding", () => {
    const boston = (name: string): string => row({ state: '25', place: '07000', mcd: '07000', name, units: [1, 0, 0, 0] });
    assertFixtureError(
      () => WORLD_BPS.load(reader({ ne: [boston('Boston ')], so: [boston('  Boston  ')] }), [BOSTON]),
      'duplicate_row',
      'census-bps/so2024a.txt:4: second row for state 25 place 07000 (Boston); the first is on census-bps/ne2024a.txt:4',
    );
  });
  test("a market's data row with a survey year other than the file name's is refused", () => {
    assertFixtureError(
      () => WORLD_BPS.load(reader({ ne: [BOSTON_ROW.replace(/^2024,/, '2023,')] }), [BOSTON]),
      'bad_shape',
      'census-bps/ne2024a.txt:4, column Survey Date: survey date 2023 in the 2024 file',
    );
  });
  test('a survey date of a year and a month (202412) is a data row of that year, and the vintage it names', () => {
    const monthly = (r: string): string => r.replace(/^2024,/, '202412,');
    const other = monthly(row({ state: '34', place: '00000', mcd: '00070', name: 'Aberdeen township', units: [31, 0, 0, 0] }));
    const read = reader({ ne: [monthly(BOSTON_ROW)], mw: [other], so: [other], we: [other] });
    const load = WORLD_BPS.load(read, [BOSTON]);
    assert.equal(value(load, BOSTON.id), 2064);
    assert.equal(load.observations[0]?.asOf, '202412');
    assert.equal(WORLD_BPS.vintageOf?.(read), '202412');
  });
  test('a survey date padded with spaces, like the code fields, is still a data row', () => {
    const load = WORLD_BPS.load(reader({ ne: [BOSTON_ROW.replace(/^2024,/, ' 2024 ,')] }), [BOSTON]);
    assert.equal(value(load, BOSTON.id), 2064);
    assert.equal(load.observations[0]?.asOf, '2024');
  });
  test('a state code padded with a space, like the other code fields, still finds the market', () => {
    const load = WORLD_BPS.load(reader({ ne: [BOSTON_ROW.replace(/^2024,25,/, '2024,25 ,')] }), [BOSTON]);
    assert.equal(value(load, BOSTON.id), 2064);
  });
  test('a row of another place whose survey date differs from the rows above is refused, naming both', () => {
    const other = row({ state: '34', place: '00000', mcd: '00070', name: 'Aberdeen township', units: [31, 0, 0, 0] }).replace(/^2024,/, '2023,');
    assertFixtureError(
      () => WORLD_BPS.load(reader({ ne: [BOSTON_ROW, other] }), [BOSTON]),
      'bad_shape',
      'census-bps/ne2024a.txt:5, column Survey Date: survey date 2023, but the rows above say 2024',
    );
  });
  test('a line whose first field is five digits (12024) is no survey date: after the data rows began, it is refused', () => {
    assertFixtureError(
      () => WORLD_BPS.load(reader({ ne: [BOSTON_ROW, BOSTON_ROW.replace(/^2024,25,/, '12024,34,')] }), [BOSTON]),
      'bad_shape',
      'census-bps/ne2024a.txt:5: a line that is not a data row (no survey date) after the data rows began',
    );
  });
  test('a row of another place is counted without being parsed, even one cut short after its survey date', () => {
    const load = WORLD_BPS.load(reader({ ne: [BOSTON_ROW, '2024'] }), [BOSTON]);
    assert.equal(value(load, BOSTON.id), 2064);
    assert.equal(load.skipped, 1 + 3);
  });
  test("a market's row of 42 fields is refused, naming its line", () => {
    assertFixtureError(
      () => WORLD_BPS.load(reader({ ne: [`${BOSTON_ROW},0`] }), [BOSTON]),
      'bad_shape',
      'census-bps/ne2024a.txt:4: expected 41 fields, got 42',
    );
  });
  for (const [label, edit, message] of [
    ['a county code of two digits', (r: string) => r.replace(',123000,001,', ',123000,01,'), '"County Code" must be a code of 3 digits, got "01"'],
    ['an MCD code of four digits', (r: string) => r.replace(',07000 ,12345 ,', ',0700 ,12345 ,'), '"FIPS MCD Code" must be a code of 5 digits, got "0700 "'],
  ] as const) {
    test(`${label} in a market's row is refused, naming the column`, () => {
      const column = label.startsWith('a county') ? 'County Code' : 'FIPS MCD Code';
      assertFixtureError(
        () => WORLD_BPS.load(reader({ ne: [edit(BOSTON_ROW)] }), [BOSTON]),
        'bad_shape',
        `census-bps/ne2024a.txt:4, column ${column}: ${message}`,
      );
    });
  }
  test('a quoted field holding a comma ahead of the place code: the row is read by its CSV fields, whose FIPS place code is then no code, and refused', () => {
    const shifted = BOSTON_ROW.replace(',123000,001,    ,07000 ,', ',"123,000",001,07000 ,    ,');
    assertFixtureError(
      () => WORLD_BPS.load(reader({ ne: [shifted] }), [BOSTON]),
      'bad_shape',
      'census-bps/ne2024a.txt:4, column FIPS Place Code: "FIPS Place Code" must be a code of 5 digits, got "    "',
    );
  });
  test("a market's row without a place name is refused, naming the column", () => {
    assertFixtureError(
      () => WORLD_BPS.load(reader({ ne: [BOSTON_ROW.replace(',Boston,', ',   ,')] }), [BOSTON]),
      'missing_field',
      'census-bps/ne2024a.txt:4, column Place Name: required field "Place Name" is missing or empty',
    );
  });
  for (const [label, edit, code, message] of [
    ['a fraction', (r: string) => r.replace(/,Boston,7,64,/, ',Boston,7,1.5,'), 'not_numeric', 'column 1-unit Units: units must be a count, got "1.5"'],
    [
      'a text',
      (r: string) => r.replace(/,16000000,3,30,/, ',16000000,3,n/a,'),
      'not_numeric',
      'column 2-units Units: field "2-units Units" must be a decimal number, got "n/a"',
    ],
    [
      'a negative number',
      (r: string) => r.replace(/,7500000,10,97,/, ',7500000,10,-97,'),
      'not_numeric',
      'column 3-4 units Units: units must be a count, got "-97"',
    ],
    [
      'empty',
      (r: string) => r.replace(/,24250000,188,1873,/, ',24250000,188,,'),
      'missing_field',
      'column 5+ units Units: required field "5+ units Units" is missing or empty',
    ],
  ] as const) {
    test(`units that are ${label} are refused, naming the structure-size group`, () => {
      const bad = edit(BOSTON_ROW);
      assert.notEqual(bad, BOSTON_ROW);
      assertFixtureError(() => WORLD_BPS.load(reader({ ne: [bad] }), [BOSTON]), code, `census-bps/ne2024a.txt:4, ${message}`);
    });
  }
  for (const [name, raw, message] of [
    [
      'an HTML error page',
      '<!DOCTYPE html>\n<html><body>Service Unavailable</body></html>\n',
      'census-bps/ne2024a.txt:1: expected the BPS place file\'s header ("Survey,State,6-Digit,..."), got "<!DOCTYPE html>"',
    ],
    [
      'a page whose first line is long',
      '<html><head><title>Service Unavailable</title></head><body></body></html>\n',
      'census-bps/ne2024a.txt:1: expected the BPS place file\'s header ("Survey,State,6-Digit,..."), got "<html><head><title>Service Unavailable</"',
    ],
    ['an empty file', '', 'census-bps/ne2024a.txt:1: the file is empty: no header and no data rows'],
    ['a file cut off after its header', `${HEADER.join('\r\n')}\r\n`, 'census-bps/ne2024a.txt:2: no data rows after the header (a truncated file?)'],
    ['a data row before the header', `${BOSTON_ROW}\r\n`, 'census-bps/ne2024a.txt:1: a data row before the header lines ("Survey,State,6-Digit,...")'],
  ] as const) {
    test(`${name} is refused with the file and line`, () => {
      assertFixtureError(() => WORLD_BPS.load(reader({}, { raw: { ne: raw } }), [BOSTON]), 'bad_shape', message);
    });
  }
  test('the vintage is the survey year the rows carry', () => {
    assert.equal(WORLD_BPS.vintageOf?.(fixtureReader()), '2024');
  });
  test("the vintage is read from the Northeast file's rows, not assumed: a file of 2023 rows says 2023", () => {
    const rows2023 = [row({ state: '34', place: '00000', mcd: '00070', name: 'Aberdeen township', units: [31, 0, 0, 0] }).replace(/^2024,/, '2023,')];
    assert.equal(WORLD_BPS.vintageOf?.(reader({ ne: rows2023 })), '2023');
  });
  test('retrieval.json without a notice: the load carries none', () => {
    const load = WORLD_BPS.load(reader({ ne: [BOSTON_ROW] }), [BOSTON]);
    assert.equal('illustrative' in load, false);
    assert.equal(load.source.latestReleaseDate, '2025-05-01');
  });
  test("fetch downloads the four files from the Census Bureau's place folders, each to its file", () => {
    assert.deepEqual(
      WORLD_BPS.remote,
      ['Northeast', 'Midwest', 'South', 'West'].map((region, i) => ({
        file: `census-bps/${REGIONS[i]}2024a.txt`,
        url: `https://www2.census.gov/econ/bps/Place/${region}%20Region/${REGIONS[i]}2024a.txt`,
      })),
    );
  });
});
