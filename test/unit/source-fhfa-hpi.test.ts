// The FHFA HPI adapter reads hpi_at_metro.csv as FHFA serves it: both delineation editions, divisions, gaps, the standard-error form.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FixtureError } from '../../src/contract/errors.ts';
import { areaCode } from '../../src/contract/geography.ts';
import { latestQuarterOf, parseSeriesName } from '../../src/sources/fhfa-hpi/adapter.ts';
import { MASTER, codeOf } from '../../src/sources/fhfa-hpi/format.ts';
import type { ReadFixture, SourceLoad } from '../../src/sources/source.ts';
import { FIXTURE_FILES, fixtureReader } from '../support/data.ts';
import { assertFixtureError } from '../support/refused.ts';
import { fhfaFiles, masterFor } from '../support/upstream/fhfa-hpi.ts';
import { WORLD_FHFA, WORLD_MARKETS } from '../world/world.ts';

const FILE = 'fhfa-hpi/hpi_at_metro.csv';
const RETRIEVAL = '{ "vintage": "2025 Q4", "latestReleaseDate": "2026-02-24", "latestRetrievedAt": "2026-09-28" }';

/** The metro file with the master file of the same release beside it (the markets' states and the nation through its latest quarter). */
const readerOf = (csv: string, retrieval = RETRIEVAL): ReadFixture => {
  const files = new Map([
    [FILE, csv],
    [MASTER, masterFor(WORLD_MARKETS, csv)],
    ['fhfa-hpi/retrieval.json', retrieval],
  ]);
  return (path) => {
    const text = files.get(path);
    if (text === undefined) throw new Error(`no ${path}`);
    return text;
  };
};

/** Two quarters a year apart of one series, in the published layout. */
const pair = (name: string, code: string, before: string, latest: string, year = 2025): string[] => [
  `"${name}",${code},${year - 1},4,${before},( 1.10)`,
  `"${name}",${code},${year},4,${latest},( 1.20)`,
];

/** Each market's series as the 2023-delineation edition names and codes it (FHFA's files from the 2025 Q1 release on). */
const EDITION_2023: [string, string][] = [
  ['Atlanta-Sandy Springs-Roswell, GA (MSAD)', '12054'],
  ['Austin-Round Rock-San Marcos, TX', '12420'],
  ['Boston, MA (MSAD)', '14454'],
  ['Chicago-Naperville-Schaumburg, IL (MSAD)', '16984'],
  ['Dallas-Plano-Irving, TX (MSAD)', '19124'],
  ['Denver-Aurora-Centennial, CO', '19740'],
  ['Los Angeles-Long Beach-Glendale, CA (MSAD)', '31084'],
  ['Miami-Miami Beach-Kendall, FL (MSAD)', '33124'],
  ['Nashville-Davidson--Murfreesboro--Franklin, TN', '34980'],
  ['New York-Jersey City-White Plains, NY-NJ (MSAD)', '35614'],
  ['Phoenix-Mesa-Chandler, AZ', '38060'],
  ['San Diego-Chula Vista-Carlsbad, CA', '41740'],
  ['San Francisco-San Mateo-Redwood City, CA (MSAD)', '41884'],
  ['Seattle-Bellevue-Kent, WA (MSAD)', '42644'],
  ['Tampa, FL (MSAD)', '45294'],
  ['Washington, DC-MD (MSAD)', '47764'],
];

/** The same markets in the 2020-delineation edition (FHFA's files up to the 2024 Q4 release). */
const EDITION_2020: [string, string][] = [
  ['Atlanta-Sandy Springs-Alpharetta, GA', '12060'],
  ['Austin-Round Rock-Georgetown, TX', '12420'],
  ['Boston, MA (MSAD)', '14454'],
  ['Chicago-Naperville-Evanston, IL (MSAD)', '16984'],
  ['Dallas-Plano-Irving, TX (MSAD)', '19124'],
  ['Denver-Aurora-Lakewood, CO', '19740'],
  ['Los Angeles-Long Beach-Glendale, CA (MSAD)', '31084'],
  ['Miami-Miami Beach-Kendall, FL (MSAD)', '33124'],
  ['Nashville-Davidson--Murfreesboro--Franklin, TN', '34980'],
  ['New York-Jersey City-White Plains, NY-NJ (MSAD)', '35614'],
  ['Phoenix-Mesa-Chandler, AZ', '38060'],
  ['San Diego-Chula Vista-Carlsbad, CA', '41740'],
  ['San Francisco-San Mateo-Redwood City, CA (MSAD)', '41884'],
  ['Seattle-Bellevue-Kent, WA (MSAD)', '42644'],
  ['Tampa-St. Petersburg-Clearwater, FL', '45300'],
  ['Washington-Arlington-Alexandria, DC-VA-MD-WV (MSAD)', '47894'],
];

/** Rows of series that are not markets' (a metro, and divisions of markets' metros the rule does not choose). */
const OTHERS = [
  '"Abilene, TX",10180,2024,4,-,-',
  '"Abilene, TX",10180,2025,4,369.82,( 9.23)',
  '"Arlington-Alexandria-Reston, VA-WV (MSAD)",11694,2024,4,398.68,( 2.07)',
  '"Arlington-Alexandria-Reston, VA-WV (MSAD)",11694,2025,4,410.00,( 2.20)',
  '"Nassau County-Suffolk County, NY (MSAD)",35004,2025,4,n/a,???',
];

const sample = (edition: [string, string][], extra: string[] = OTHERS): string =>
  `${[...extra.slice(0, 2), ...edition.flatMap(([name, code], i) => pair(name, code, (300 + i).toFixed(2), (310 + i).toFixed(2))), ...extra.slice(2)].join('\n')}\n`;

const observation = (load: SourceLoad, marketId: string, metricId = 'homePriceIndex') =>
  load.observations.find((o) => o.marketId === marketId && o.metricId === metricId);

const thrown = (fn: () => unknown): FixtureError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof FixtureError) return error;
    throw error;
  }
  throw new Error('expected a FixtureError');
};

const AUSTIN_NAME = '"Austin-Round Rock-San Marcos, TX"';
/** Austin's 2024 Q4 and 2025 Q4 rows, the latter with its index and standard error columns as given. */
const austin = (latest = '505.70,( 3.49)'): string => `${AUSTIN_NAME},12420,2024,4,503.80,( 3.63)\n${AUSTIN_NAME},12420,2025,4,${latest}\n`;

describe('fhfa-hpi: the published layout', () => {
  test('a file without a header line is read from its first line', () => {
    const load = WORLD_FHFA.load(readerOf(sample(EDITION_2023)), WORLD_MARKETS);
    assert.equal(load.observations.length, 32);
    assert.deepEqual(observation(load, 'us-ga-atlanta')?.origin, { file: FILE, line: 4 });
  });

  test('one header line is tolerated and not counted as a skipped row', () => {
    const plain = WORLD_FHFA.load(readerOf(sample(EDITION_2023)), WORLD_MARKETS);
    const headed = WORLD_FHFA.load(readerOf(`name,cbsa,yr,qtr,index_nsa,index_sa\n${sample(EDITION_2023)}`), WORLD_MARKETS);
    assert.equal(observation(headed, 'us-ga-atlanta')?.value, 310);
    assert.deepEqual(observation(headed, 'us-ga-atlanta')?.origin, { file: FILE, line: 5 });
    assert.equal(headed.skipped, plain.skipped);
  });

  test('CRLF line endings read like LF', () => {
    const load = WORLD_FHFA.load(readerOf(sample(EDITION_2023).replace(/\n/g, '\r\n')), WORLD_MARKETS);
    assert.equal(observation(load, 'us-ny-new-york')?.value, 319);
    assert.equal(observation(load, 'us-ny-new-york')?.boundary.name, 'New York-Jersey City-White Plains, NY-NJ');
  });

  test('standard errors in parentheses, padded "( 2.51)" or full "(10.55)", are accepted', () => {
    const csv = sample(EDITION_2023).replace(
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00,( 1.20)',
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00,(10.55)',
    );
    assert.equal(observation(WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS), 'us-tx-austin')?.value, 311);
    assert.equal(observation(WORLD_FHFA.load(readerOf(sample(EDITION_2023)), WORLD_MARKETS), 'us-tx-austin')?.value, 311);
  });

  test('a standard error not in parentheses in a market row is an error naming file, line and column', () => {
    const csv = sample(EDITION_2023).replace(
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00,( 1.20)',
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00,1.20',
    );
    const error = thrown(() => WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS));
    assert.equal(error.code, 'not_numeric');
    assert.deepEqual(error.place, { file: FILE, line: 6, column: 'standard error' });
  });

  test('a market row with a wrong column count is an error naming file and line', () => {
    const csv = sample(EDITION_2023).replace(
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00,( 1.20)',
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00',
    );
    const error = thrown(() => WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS));
    assert.equal(error.code, 'bad_shape');
    assert.deepEqual(error.place, { file: FILE, line: 6 });
    assert.match(error.message, /expected 6 fields/);
  });

  test('rows of other series are skipped and counted without being validated ("n/a" and "???" in a non-market row)', () => {
    const load = WORLD_FHFA.load(readerOf(sample(EDITION_2023)), WORLD_MARKETS);
    assert.equal(load.skipped, 5);
    assert.deepEqual(load.missing, []);
  });

  test('an empty file is an error', () => {
    assertFixtureError(() => WORLD_FHFA.load(readerOf('\n'), WORLD_MARKETS), 'bad_shape', 'fhfa-hpi/hpi_at_metro.csv:1: no data rows');
  });

  test('a file of a header line alone is an error too', () => {
    assertFixtureError(
      () => WORLD_FHFA.load(readerOf('name,cbsa,yr,qtr,index_nsa,index_sa\n'), WORLD_MARKETS),
      'bad_shape',
      'fhfa-hpi/hpi_at_metro.csv:1: no data rows',
    );
  });

  for (const code of ['cbsa_2023', '2023 code', 'code']) {
    test(`a first line whose code column is not all digits ("${code}") is a header, not counted`, () => {
      const load = WORLD_FHFA.load(readerOf(`name,${code},yr,qtr,index_nsa,index_sa\n${austin()}`), WORLD_MARKETS);
      assert.equal(load.skipped, 0);
      assert.equal(observation(load, 'us-tx-austin')?.value, 505.7);
    });
  }

  test('a first line without any comma is a header too', () => {
    const load = WORLD_FHFA.load(readerOf(`hpi_at_metro\n${austin()}`), WORLD_MARKETS);
    assert.equal(load.skipped, 0);
    assert.deepEqual(observation(load, 'us-tx-austin')?.origin, { file: FILE, line: 3 });
  });

  test('only the first line may be a header: a header-like line or a line without commas further down is a skipped row', () => {
    const load = WORLD_FHFA.load(readerOf(`${austin()}name,cbsa,yr,qtr,index_nsa,index_sa\nhpi_at_metro\n`), WORLD_MARKETS);
    assert.equal(load.skipped, 2);
    assert.equal(observation(load, 'us-tx-austin')?.value, 505.7);
  });

  test("a code padded with spaces is the market's code, on the first line too", () => {
    const csv = `${AUSTIN_NAME}, 12420 ,2024,4,503.80,( 3.63)\n${AUSTIN_NAME},12420 ,2025,4,505.70,( 3.49)\n`;
    const load = WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS);
    assert.equal(load.skipped, 0);
    assert.equal(observation(load, 'us-tx-austin', 'homePriceChange')?.value, 0.4);
    assert.deepEqual(observation(load, 'us-tx-austin')?.boundary.codes, { cbsa: '12420' });
  });

  test('index and standard error padded with spaces read as without: " - " is no index, " 505.70 " and " ( 3.49) " a value', () => {
    const csv = `${AUSTIN_NAME},12420,2024,3, - , - \n${austin(' 505.70 , ( 3.49) ')}`;
    const load = WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS);
    assert.equal(observation(load, 'us-tx-austin')?.value, 505.7);
    assert.deepEqual(load.series?.[0]?.points, [
      { period: '2024 Q4', value: 503.8 },
      { period: '2025 Q1', value: undefined, noRow: true },
      { period: '2025 Q2', value: undefined, noRow: true },
      { period: '2025 Q3', value: undefined, noRow: true },
      { period: '2025 Q4', value: 505.7 },
    ]);
  });

  test('rows in any order: the latest quarter with a value is the index, and its year-earlier quarter the base of the change', () => {
    const rows = [
      `${AUSTIN_NAME},12420,2025,4,505.70,( 3.49)`,
      `${AUSTIN_NAME},12420,2025,3,506.86,( 3.78)`,
      `${AUSTIN_NAME},12420,2024,4,503.80,( 3.63)`,
      `${AUSTIN_NAME},12420,2025,2,510.00,( 3.50)`,
    ];
    const load = WORLD_FHFA.load(readerOf(`${rows.join('\n')}\n`), WORLD_MARKETS);
    assert.deepEqual(observation(load, 'us-tx-austin'), {
      marketId: 'us-tx-austin',
      metricId: 'homePriceIndex',
      value: 505.7,
      asOf: '2025 Q4',
      sourceId: 'fhfa-hpi',
      boundary: { level: 'cbsa', name: 'Austin-Round Rock-San Marcos, TX', codes: { cbsa: '12420' }, states: ['TX'] },
      origin: { file: FILE, line: 1 },
    });
    assert.equal(observation(load, 'us-tx-austin', 'homePriceChange')?.asOf, '2024 Q4 to 2025 Q4');
  });
});

describe('fhfa-hpi: a market row that cannot be read is an error naming file, line, column and reason', () => {
  const cases: [string, string, string, string][] = [
    ['an empty name', '"",12420,2025,4,505.70,( 3.49)', 'missing_field', 'fhfa-hpi/hpi_at_metro.csv:1, column name: required field "name" is missing or empty'],
    [
      'five fields',
      `${AUSTIN_NAME},12420,2025,4,505.70`,
      'bad_shape',
      'fhfa-hpi/hpi_at_metro.csv:1: expected 6 fields (name, code, year, quarter, index, standard error), got 5',
    ],
    [
      'a year that is not a number',
      `${AUSTIN_NAME},12420,2025a,4,505.70,( 3.49)`,
      'not_numeric',
      'fhfa-hpi/hpi_at_metro.csv:1, column year: field "year" must be a decimal number, got "2025a"',
    ],
    [
      'a quarter that is not a number',
      `${AUSTIN_NAME},12420,2025,IV,505.70,( 3.49)`,
      'not_numeric',
      'fhfa-hpi/hpi_at_metro.csv:1, column quarter: field "quarter" must be a decimal number, got "IV"',
    ],
    [
      'a year with a fraction',
      `${AUSTIN_NAME},12420,2025.5,4,505.70,( 3.49)`,
      'out_of_range',
      'fhfa-hpi/hpi_at_metro.csv:1, column year: year "2025.5" is not a year from 1975 to 2026: FHFA\'s indexes begin in 1975, and these files were retrieved on 2026-09-28',
    ],
    ...['2205', '99999', '-2019', '0999', '1974', '2027'].map((year): [string, string, string, string] => [
      `the year ${year}`,
      `${AUSTIN_NAME},12420,${year},4,505.70,( 3.49)`,
      'out_of_range',
      `fhfa-hpi/hpi_at_metro.csv:1, column year: year "${year}" is not a year from 1975 to 2026: FHFA's indexes begin in 1975, and these files were retrieved on 2026-09-28`,
    ]),
    [
      'a year of 1e30 written out, refused before anything is sized by it',
      `${AUSTIN_NAME},12420,1${'0'.repeat(30)},4,505.70,( 3.49)`,
      'out_of_range',
      `fhfa-hpi/hpi_at_metro.csv:1, column year: field "year" is 1${'0'.repeat(30)}, larger than any count or measure (at most 2^53 − 1)`,
    ],
    [
      'a year of 1e30 in exponent form',
      `${AUSTIN_NAME},12420,1e30,4,505.70,( 3.49)`,
      'not_numeric',
      'fhfa-hpi/hpi_at_metro.csv:1, column year: field "year" must be a decimal number, got "1e30"',
    ],
    [
      'a quarter that had not ended by the retrieval date (2026-09-28: 2026 Q3 ends two days later)',
      `${AUSTIN_NAME},12420,2026,3,505.70,( 3.49)`,
      'out_of_range',
      'fhfa-hpi/hpi_at_metro.csv:1, column quarter: 2026 Q3 had not ended on 2026-09-28, the retrieval date: no index of it can have been published',
    ],
    [
      'a quarter with a fraction',
      `${AUSTIN_NAME},12420,2025,1.5,505.70,( 3.49)`,
      'bad_shape',
      'fhfa-hpi/hpi_at_metro.csv:1: year 2025 and quarter 1.5 do not name a calendar quarter',
    ],
    [
      'quarter 0',
      `${AUSTIN_NAME},12420,2025,0,505.70,( 3.49)`,
      'bad_shape',
      'fhfa-hpi/hpi_at_metro.csv:1: year 2025 and quarter 0 do not name a calendar quarter',
    ],
    [
      'quarter 5',
      `${AUSTIN_NAME},12420,2025,5,505.70,( 3.49)`,
      'bad_shape',
      'fhfa-hpi/hpi_at_metro.csv:1: year 2025 and quarter 5 do not name a calendar quarter',
    ],
    [
      'no index but a standard error',
      `${AUSTIN_NAME},12420,2025,4,-,( 3.49)`,
      'bad_shape',
      'fhfa-hpi/hpi_at_metro.csv:1, column standard error: no index ("-") but a standard error "( 3.49)"',
    ],
    [
      'an index that is not a number',
      `${AUSTIN_NAME},12420,2025,4,n/a,( 3.49)`,
      'not_numeric',
      'fhfa-hpi/hpi_at_metro.csv:1, column index: field "index" must be a decimal number, got "n/a"',
    ],
    [
      'an index of zero',
      `${AUSTIN_NAME},12420,2025,4,0.00,( 3.49)`,
      'not_numeric',
      'fhfa-hpi/hpi_at_metro.csv:1, column index: the index must be positive, got "0.00"',
    ],
    [
      'a negative index',
      `${AUSTIN_NAME},12420,2025,4,-5.00,( 3.49)`,
      'not_numeric',
      'fhfa-hpi/hpi_at_metro.csv:1, column index: the index must be positive, got "-5.00"',
    ],
    [
      // The quick look finds Austin's code after the first `",`; the CSV rules read the quoted name on to the next quote.
      'a code the CSV rules read as six digits, behind a quoted name holding `",`',
      '"A"",12420,x",123456,2025,4,505.70,( 3.49)',
      'bad_shape',
      'fhfa-hpi/hpi_at_metro.csv:1, column code: the code must be five digits, got "123456"',
    ],
  ];
  for (const [label, row, code, message] of cases) {
    test(label, () => {
      assertFixtureError(() => WORLD_FHFA.load(readerOf(`${row}\n`), WORLD_MARKETS), code, message);
    });
  }

  for (const bad of ['1.20', '-2.75', '(1.20', '1.20)', '(( 1.20)', '( 1.20))', '( 1.)', '()', '-']) {
    test(`a standard error written ${JSON.stringify(bad)} is refused`, () => {
      assertFixtureError(
        () => WORLD_FHFA.load(readerOf(austin(`505.70,${bad}`)), WORLD_MARKETS),
        'not_numeric',
        `fhfa-hpi/hpi_at_metro.csv:2, column standard error: the standard error must be written in parentheses like "( 2.51)", got ${JSON.stringify(bad)}`,
      );
    });
  }

  test('standard errors in parentheses, padded or not, with or without a fraction, are accepted', () => {
    for (const good of ['( 2.51)', '(10.55)', '( 0.00)', '(12)', '(  3.5)']) {
      assert.equal(observation(WORLD_FHFA.load(readerOf(austin(`505.70,${good}`)), WORLD_MARKETS), 'us-tx-austin')?.value, 505.7, good);
    }
  });

  test("a market's series whose name does not end with state codes is an error naming the series' last line", () => {
    const csv = `Austin-Round Rock-San Marcos TX,12420,2024,4,503.80,( 3.63)\nAustin-Round Rock-San Marcos TX,12420,2025,4,505.70,( 3.49)\n`;
    assertFixtureError(
      () => WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS),
      'bad_shape',
      'fhfa-hpi/hpi_at_metro.csv:2, column name: the name "Austin-Round Rock-San Marcos TX" does not end with two-letter state codes',
    );
  });
});

describe('fhfa-hpi: codeOf, the quick look at a line', () => {
  const cases: [string, string, string | undefined][] = [
    ['a quoted name', '"Austin-Round Rock-San Marcos, TX",12420,2025,4,505.70,( 3.49)', '12420'],
    ['an empty quoted name', '"",12420,2025,4,505.70,( 3.49)', '12420'],
    ['an unquoted name', 'Austin TX,12420,2025,4,505.70,( 3.49)', '12420'],
    ['a header line', 'name,cbsa,yr,qtr,index_nsa,index_sa', 'cbsa'],
    ['a quoted name never closed', '"Austin, TX,12420,2025,4,505.70,( 3.49)', undefined],
    ['a quoted name with nothing after the code', '"Austin, TX",12420', undefined],
    ['an unquoted name with nothing after the code', 'Austin TX,12420', undefined],
    ['a line without a comma', 'hpi_at_metro', undefined],
  ];
  for (const [label, line, code] of cases) {
    test(`${label}: ${String(code)}`, () => {
      assert.equal(codeOf(line), code);
    });
  }
});

describe('fhfa-hpi: parseSeriesName', () => {
  const place = { file: FILE, line: 7 };
  const cases: [string, { name: string; division: boolean; states: string[] }][] = [
    ['Austin-Round Rock-San Marcos, TX', { name: 'Austin-Round Rock-San Marcos, TX', division: false, states: ['TX'] }],
    ['Austin-Round Rock-San Marcos, TX ', { name: 'Austin-Round Rock-San Marcos, TX', division: false, states: ['TX'] }],
    ['New York-Jersey City-White Plains, NY-NJ (MSAD)', { name: 'New York-Jersey City-White Plains, NY-NJ', division: true, states: ['NY', 'NJ'] }],
    ['Boston, MA(MSAD)', { name: 'Boston, MA', division: true, states: ['MA'] }],
    ['Boston, MA  (MSAD) ', { name: 'Boston, MA', division: true, states: ['MA'] }],
    ['Sandusky (MSAD) Bay, OH', { name: 'Sandusky (MSAD) Bay, OH', division: false, states: ['OH'] }],
  ];
  for (const [name, expected] of cases) {
    test(`${JSON.stringify(name)}: ${expected.division ? 'a division' : 'a metro'} named ${JSON.stringify(expected.name)} in ${expected.states.join(', ')}`, () => {
      assert.deepEqual(parseSeriesName(name, place), expected);
    });
  }
  for (const name of ['Austin', 'Austin TX', 'NYC', 'Austin, TEX', 'Austin, tx', 'New York, NY-nj', 'Austin, ', 'Boston, MA (MSAD) x']) {
    test(`${JSON.stringify(name)} does not end with state codes: an error naming the place and the name`, () => {
      assertFixtureError(
        () => parseSeriesName(name, place),
        'bad_shape',
        `fhfa-hpi/hpi_at_metro.csv:7, column name: the name ${JSON.stringify(name)} does not end with two-letter state codes`,
      );
    });
  }
});

describe('fhfa-hpi: latestQuarterOf, the vintage fetch records', () => {
  test('the latest quarter of any row, not the last row: series are ordered by name', () => {
    const csv = `${austin()}"Sandusky, OH",41780,2025,2,300.00,( 2.00)\n"Sandusky, OH",41780,2025,3,301.00,( 2.00)\n`;
    assert.equal(latestQuarterOf(csv), '2025 Q4');
  });
  test('one row without a header is read', () => {
    assert.equal(latestQuarterOf(`${AUSTIN_NAME},12420,2026,1,510.00,( 3.49)`), '2026 Q1');
  });
  test('a header line first is passed over', () => {
    assert.equal(latestQuarterOf(`name,cbsa,yr,qtr,index_nsa,index_sa\n${austin()}`), '2025 Q4');
  });
  test('only the first line may be a header: a later row counts whatever its code column holds', () => {
    assert.equal(latestQuarterOf(`${austin()}"Odd, TX",cbsa,2026,2,1.00,( 1.00)\n`), '2026 Q2');
  });
  test('a row without a year and a quarter after its code is an error naming its line', () => {
    assertFixtureError(
      () => latestQuarterOf(`${AUSTIN_NAME},12420,2025,4,505.70,( 3.49)\n"Abilene, TX",10180,x,y\n`),
      'bad_shape',
      'fhfa-hpi/hpi_at_metro.csv:2: no year and quarter after the code',
    );
  });
  for (const [label, csv] of [
    ['an empty file', ''],
    ['a header alone', 'name,cbsa,yr,qtr,index_nsa,index_sa\n'],
  ] as const) {
    test(`${label} has no vintage: an error`, () => {
      assertFixtureError(() => latestQuarterOf(csv), 'bad_shape', 'fhfa-hpi/hpi_at_metro.csv: no data rows');
    });
  }
});

describe('fhfa-hpi: the source attribution', () => {
  const dataset = (csv: string): string => WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS).source.datasetName;
  test('metro indexes only: "metro"', () => {
    assert.equal(dataset(austin()), 'House Price Index, metro, state and US all-transactions indexes, quarterly, not seasonally adjusted (through 2025 Q4)');
  });
  test('division indexes only: "metropolitan-division"', () => {
    assert.equal(
      dataset(`${pair('Tampa, FL (MSAD)', '45294', '500.00', '510.00').join('\n')}\n`),
      'House Price Index, metropolitan-division, state and US all-transactions indexes, quarterly, not seasonally adjusted (through 2025 Q4)',
    );
  });
  test("through the latest quarter any market's index has, not retrieval.json's vintage", () => {
    const csv = `${[...pair('Austin-Round Rock-San Marcos, TX', '12420', '500.00', '510.00', 2024), ...pair('Denver-Aurora-Centennial, CO', '19740', '500.00', '510.00', 2023)].join('\n')}\n`;
    assert.equal(dataset(csv), 'House Price Index, metro, state and US all-transactions indexes, quarterly, not seasonally adjusted (through 2024 Q4)');
  });
  test("no market with an index: through retrieval.json's vintage", () => {
    const load = WORLD_FHFA.load(readerOf('"Abilene, TX",10180,2025,4,369.82,( 9.23)\n'), WORLD_MARKETS);
    assert.equal(load.observations.length, 0);
    assert.equal(load.missing.length, 32);
    assert.equal(
      load.source.datasetName,
      'House Price Index, metro, state and US all-transactions indexes, quarterly, not seasonally adjusted (through 2025 Q4)',
    );
  });
  test('a retrieval.json with a notice carries it, and the dates it records', () => {
    const load = WORLD_FHFA.load(
      readerOf(austin(), '{ "vintage": "2025 Q4", "latestRetrievedAt": "2026-09-28", "illustrative": "Austin\'s 2025 Q4 index is made up." }'),
      WORLD_MARKETS,
    );
    assert.equal(load.illustrative, "Austin's 2025 Q4 index is made up.");
    assert.equal('latestReleaseDate' in load.source, false);
    assert.equal(load.source.latestRetrievedAt, '2026-09-28');
  });
});

describe('fhfa-hpi: "-" quarters', () => {
  const gap = (csv: string, row: string, replacement: string): string => {
    assert.ok(csv.includes(row), row);
    return csv.replace(row, replacement);
  };

  test('"-" in the latest quarter leaves the latest quarter with a value as the index, and the change from its year-earlier quarter', () => {
    const rows = [
      '"Austin-Round Rock-San Marcos, TX",12420,2024,3,509.23,( 3.49)',
      '"Austin-Round Rock-San Marcos, TX",12420,2024,4,503.80,( 3.63)',
      '"Austin-Round Rock-San Marcos, TX",12420,2025,3,506.86,( 3.78)',
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,-,-',
    ];
    const load = WORLD_FHFA.load(readerOf(`${rows.join('\n')}\n`), WORLD_MARKETS);
    const index = observation(load, 'us-tx-austin');
    assert.equal(index?.value, 506.86);
    assert.equal(index?.asOf, '2025 Q3');
    const change = observation(load, 'us-tx-austin', 'homePriceChange');
    assert.equal(change?.asOf, '2024 Q3 to 2025 Q3');
    assert.equal(change?.value, -0.5);
  });

  test('"-" in the quarter a year earlier leaves the change missing, with the reason and that row', () => {
    const csv = gap(sample(EDITION_2023), '"Denver-Aurora-Centennial, CO",19740,2024,4,305.00,( 1.10)', '"Denver-Aurora-Centennial, CO",19740,2024,4,-,-');
    const load = WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS);
    assert.equal(observation(load, 'us-co-denver')?.value, 315);
    assert.deepEqual(
      load.missing.filter((m) => m.marketId === 'us-co-denver'),
      [
        {
          marketId: 'us-co-denver',
          metricId: 'homePriceChange',
          reason:
            'FHFA writes "-" for Denver-Aurora-Centennial, CO (19740) in 2024 Q4, the quarter a year before 2025 Q4: too few transactions for an index value',
          origin: { file: FILE, line: 13 },
        },
      ],
    );
  });

  test('no row for the quarter a year earlier leaves the change missing, with the reason and the latest row', () => {
    const csv = `${AUSTIN_NAME},12420,2024,3,509.23,( 3.49)\n${AUSTIN_NAME},12420,2025,4,505.70,( 3.49)\n`;
    const load = WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS);
    assert.equal(observation(load, 'us-tx-austin')?.value, 505.7);
    assert.deepEqual(
      load.missing.filter((m) => m.marketId === 'us-tx-austin'),
      [
        {
          marketId: 'us-tx-austin',
          metricId: 'homePriceChange',
          reason: 'Austin-Round Rock-San Marcos, TX (12420) has no row for 2024 Q4, the quarter a year before 2025 Q4',
          origin: { file: FILE, line: 2 },
        },
      ],
    );
  });

  test('a series with "-" in every quarter leaves both metrics missing, with the reason', () => {
    const csv = `${['"Tampa, FL (MSAD)",45294,2024,4,-,-', '"Tampa, FL (MSAD)",45294,2025,4,-,-'].join('\n')}\n`;
    const load = WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS);
    const tampa = load.missing.filter((m) => m.marketId === 'us-fl-tampa');
    assert.deepEqual(
      tampa.map((m) => m.metricId),
      ['homePriceIndex', 'homePriceChange'],
    );
    assert.equal(tampa[0]?.reason, 'FHFA writes "-" for every quarter of Tampa, FL (MSAD) (45294): too few transactions for an index value');
    assert.deepEqual(tampa[0]?.origin, { file: FILE, line: 2 });
  });
});

describe('fhfa-hpi: which series each market uses', () => {
  const expected = (edition: [string, string][]): Record<string, string> =>
    Object.fromEntries(
      WORLD_MARKETS.map((m) => {
        const found = edition.find(([, code]) => code === m.cbsaCode || m.divisions.some((d) => d.code === code));
        return [m.id, found?.[1] ?? ''];
      }),
    );

  test("2023-delineation edition: eleven markets resolve to their principal city's metropolitan division, five to the whole metro", () => {
    const load = WORLD_FHFA.load(readerOf(sample(EDITION_2023)), WORLD_MARKETS);
    const used = Object.fromEntries(
      load.observations.filter((o) => o.metricId === 'homePriceIndex').map((o) => [o.marketId, `${o.boundary.level} ${areaCode(o.boundary)}`]),
    );
    assert.deepEqual(used, {
      'us-az-phoenix': 'cbsa 38060',
      'us-ca-los-angeles': 'division 31084',
      'us-ca-san-diego': 'cbsa 41740',
      'us-ca-san-francisco': 'division 41884',
      'us-co-denver': 'cbsa 19740',
      'us-dc-washington': 'division 47764',
      'us-fl-miami': 'division 33124',
      'us-fl-tampa': 'division 45294',
      'us-ga-atlanta': 'division 12054',
      'us-il-chicago': 'division 16984',
      'us-ma-boston': 'division 14454',
      'us-ny-new-york': 'division 35614',
      'us-tn-nashville': 'cbsa 34980',
      'us-tx-austin': 'cbsa 12420',
      'us-tx-dallas': 'division 19124',
      'us-wa-seattle': 'division 42644',
    });
    assert.equal(Object.keys(expected(EDITION_2023)).length, 16);
  });

  test('2020-delineation edition: Atlanta and Tampa resolve to the whole metro, Washington to its 2020 division, nine markets to divisions', () => {
    const load = WORLD_FHFA.load(readerOf(sample(EDITION_2020)), WORLD_MARKETS);
    const index = (id: string) => observation(load, id);
    assert.deepEqual(index('us-ga-atlanta')?.boundary, {
      level: 'cbsa',
      name: 'Atlanta-Sandy Springs-Alpharetta, GA',
      codes: { cbsa: '12060' },
      states: ['GA'],
    });
    assert.deepEqual(index('us-fl-tampa')?.boundary, { level: 'cbsa', name: 'Tampa-St. Petersburg-Clearwater, FL', codes: { cbsa: '45300' }, states: ['FL'] });
    assert.deepEqual(index('us-dc-washington')?.boundary, {
      level: 'division',
      name: 'Washington-Arlington-Alexandria, DC-VA-MD-WV',
      codes: { cbsa: '47900', division: '47894' },
      states: ['DC', 'VA', 'MD', 'WV'],
    });
    assert.equal(load.observations.filter((o) => o.metricId === 'homePriceIndex' && o.boundary.level === 'division').length, 9);
    assert.equal(index('us-tx-austin')?.boundary.name, 'Austin-Round Rock-Georgetown, TX');
    assert.deepEqual(load.missing, []);
  });

  test('the whole metro wins over a division when the file holds both (the documented rule)', () => {
    const csv = `${[...pair('Tampa, FL (MSAD)', '45294', '500.00', '510.00'), ...pair('Tampa-St. Petersburg-Clearwater, FL', '45300', '400.00', '420.00')].join('\n')}\n`;
    const load = WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS);
    assert.equal(observation(load, 'us-fl-tampa')?.value, 420);
    assert.equal(observation(load, 'us-fl-tampa')?.boundary.level, 'cbsa');
    assert.equal(load.skipped, 2);
  });

  test('an MSAD row gives the division level, the name without " (MSAD)" and the states from that name', () => {
    const ny = observation(WORLD_FHFA.load(readerOf(sample(EDITION_2023)), WORLD_MARKETS), 'us-ny-new-york');
    assert.deepEqual(ny?.boundary, {
      level: 'division',
      name: 'New York-Jersey City-White Plains, NY-NJ',
      codes: { cbsa: '35620', division: '35614' },
      states: ['NY', 'NJ'],
    });
  });

  test('a market whose series the file lacks is missing both metrics, with a reason naming the codes tried', () => {
    const csv = sample(EDITION_2023.filter(([, code]) => code !== '47764'));
    const load = WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS);
    const washington = load.missing.filter((m) => m.marketId === 'us-dc-washington');
    assert.deepEqual(
      washington.map((m) => m.metricId),
      ['homePriceIndex', 'homePriceChange'],
    );
    assert.equal(
      washington[0]?.reason,
      'hpi_at_metro.csv has no series for the whole metro 47900 or the metropolitan division 47764 (Washington, DC-MD, 2023 delineations) or the metropolitan division 47894 (Washington-Arlington-Alexandria, DC-VA-MD-WV, 2020 delineations)',
    );
    assert.equal(washington[0]?.origin.file, FILE);
    assert.equal(observation(load, 'us-dc-washington'), undefined);
  });

  test('a second row for the same series and quarter is an error naming file and line and the first line', () => {
    const csv = `${sample(EDITION_2023)}"New York-Jersey City-White Plains, NY-NJ (MSAD)",35614,2025,4,320.00,( 1.20)\n`;
    assertFixtureError(
      () => WORLD_FHFA.load(readerOf(csv), WORLD_MARKETS),
      'duplicate_row',
      'fhfa-hpi/hpi_at_metro.csv:38: second row for 35614 (New York-Jersey City-White Plains, NY-NJ (MSAD)) 2025 Q4; the first is on line 22',
    );
  });

  test('a market whose division both delineation editions share is missing with a reason naming both editions', () => {
    const load = WORLD_FHFA.load(readerOf(sample(EDITION_2023.filter(([, code]) => code !== '35614'))), WORLD_MARKETS);
    assert.equal(
      load.missing.find((m) => m.marketId === 'us-ny-new-york')?.reason,
      'hpi_at_metro.csv has no series for the whole metro 35620 or the metropolitan division 35614 (New York-Jersey City-White Plains, NY-NJ, 2020 and 2023 delineations)',
    );
  });
});

describe('fhfa-hpi: the committed fixture (2023 delineations, the 2026 Q2 release)', () => {
  const load = WORLD_FHFA.load(fixtureReader(), WORLD_MARKETS);

  test('Austin: the published 2026 Q2 all-transactions index and its change from 2025 Q2', () => {
    const index = observation(load, 'us-tx-austin');
    assert.equal(index?.value, 506.31);
    assert.equal(index?.asOf, '2026 Q2');
    assert.deepEqual(index?.boundary, { level: 'cbsa', name: 'Austin-Round Rock-San Marcos, TX', codes: { cbsa: '12420' }, states: ['TX'] });
    const change = observation(load, 'us-tx-austin', 'homePriceChange');
    assert.equal(change?.value, 0.3);
    assert.equal(change?.asOf, '2025 Q2 to 2026 Q2');
  });

  test('New York: the division the published file holds, 454.16 in 2026 Q2, up 5.7% on 2025 Q2', () => {
    const index = observation(load, 'us-ny-new-york');
    assert.equal(index?.value, 454.16);
    assert.equal(index?.boundary.level, 'division');
    assert.equal(index?.boundary.name, 'New York-Jersey City-White Plains, NY-NJ');
    assert.equal(observation(load, 'us-ny-new-york', 'homePriceChange')?.value, 5.7);
  });

  test("attributes the indexes to FHFA's House Price Index, with retrieval.json's dates and no illustrative notice: every value is published", () => {
    assert.deepEqual(load.source, {
      sourceId: 'fhfa-hpi',
      sourceName: 'FHFA House Price Index',
      agency: 'Federal Housing Finance Agency',
      datasetName:
        'House Price Index, metro and metropolitan-division, state and US all-transactions indexes, quarterly, not seasonally adjusted (through 2026 Q2)',
      sourceUrl: 'https://www.fhfa.gov/data/hpi',
      confidence: 'high',
      updateFrequency: 'quarterly',
      provenance: 'fixture',
      latestReleaseDate: '2026-08-25',
      latestRetrievedAt: '2026-11-29',
    });
    assert.equal('illustrative' in load, false);
  });

  test("Austin's change: both quarters named, on the latest quarter's line", () => {
    assert.deepEqual(observation(load, 'us-tx-austin', 'homePriceChange'), {
      marketId: 'us-tx-austin',
      metricId: 'homePriceChange',
      value: 0.3,
      asOf: '2025 Q2 to 2026 Q2',
      sourceId: 'fhfa-hpi',
      boundary: { level: 'cbsa', name: 'Austin-Round Rock-San Marcos, TX', codes: { cbsa: '12420' }, states: ['TX'] },
      // Texas: 531.31 / 523.10 - 1 = 1.57 %; the United States: 719.87 / 698.69 - 1 = 3.03 % (HPI_master.csv, the same release).
      comparisons: [
        { level: 'state', code: 'TX', name: 'Texas', value: 1.6, asOf: '2025 Q2 to 2026 Q2' },
        { level: 'nation', code: 'USA', name: 'United States', value: 3, asOf: '2025 Q2 to 2026 Q2' },
      ],
      origin: { file: FILE, line: 824 },
    });
    assert.deepEqual(observation(load, 'us-tx-austin')?.origin, { file: FILE, line: 824 });
  });

  test('reads hpi_at_metro.csv, HPI_master.csv and retrieval.json, and nothing else', () => {
    assert.equal(WORLD_FHFA.sourceId, 'fhfa-hpi');
    assert.deepEqual(WORLD_FHFA.files, [FILE, MASTER, 'fhfa-hpi/retrieval.json']);
  });

  test('every market has both metrics; the other series around them are skipped and counted', () => {
    assert.equal(load.observations.length, 32);
    assert.deepEqual(load.missing, []);
    // 17 other series of 206 quarters each.
    assert.equal(load.skipped, 3502);
    assert.equal(
      load.source.datasetName,
      'House Price Index, metro and metropolitan-division, state and US all-transactions indexes, quarterly, not seasonally adjusted (through 2026 Q2)',
    );
  });

  test("each market's series for the pages: every quarter from the first with a value to the latest, ending at the published value", () => {
    const indexes = (load.series ?? []).filter((s) => s.metricId === 'homePriceIndex');
    assert.equal(indexes.length, 16);
    for (const s of indexes) {
      assert.equal(s.perYear, 4);
      const last = s.points.at(-1);
      assert.equal(last?.period, '2026 Q2', s.marketId);
      assert.equal(last?.value, observation(load, s.marketId)?.value, s.marketId);
      assert.notEqual(s.points[0]?.value, undefined, `${s.marketId} starts at its first quarter with a value`);
      // Consecutive quarters, none skipped.
      const keys = s.points.map((p) => Number(p.period.slice(0, 4)) * 4 + Number(p.period.slice(6)) - 1);
      assert.deepEqual(
        keys,
        keys.map((_, i) => (keys[0] ?? 0) + i),
        s.marketId,
      );
      // The published year-over-year change is the series' own.
      const yearBefore = s.points.at(-5)?.value ?? NaN;
      assert.equal(Math.round(((last?.value ?? NaN) / yearBefore - 1) * 1000) / 10, observation(load, s.marketId, 'homePriceChange')?.value, s.marketId);
    }
    const dallas = load.series?.find((s) => s.marketId === 'us-tx-dallas');
    // The whole published series: from its first quarter with an index, 1975 Q4, to 2026 Q2.
    assert.deepEqual(dallas?.points[0], { period: '1975 Q4', value: 40.83 });
    assert.equal(dallas?.points.length, 203);
  });

  test("each market's change series: one point per quarter a year after the first, labelled as the profile's, ending at its value", () => {
    const changes = (load.series ?? []).filter((s) => s.metricId === 'homePriceChange');
    assert.equal(changes.length, 16);
    for (const c of changes) {
      const index = (load.series ?? []).find((s) => s.metricId === 'homePriceIndex' && s.marketId === c.marketId);
      assert.equal(c.points.length, (index?.points.length ?? 0) - 4, c.marketId);
      const change = observation(load, c.marketId, 'homePriceChange');
      assert.deepEqual(c.points.at(-1), { period: change?.asOf, value: change?.value }, c.marketId);
    }
    const austin = changes.find((s) => s.marketId === 'us-tx-austin');
    // 2026 Q1 over 2025 Q1 in the published file: 501.68 / 506.40 - 1 = -0.93 %, -0.9 to one decimal.
    assert.deepEqual(austin?.points.at(-2), { period: '2025 Q1 to 2026 Q1', value: -0.9 });
  });

  test('a "-" quarter inside a series stays in it without a value, and the change it would make has none either', () => {
    const rows = [
      '"Austin-Round Rock-San Marcos, TX",12420,2024,2,-,-',
      '"Austin-Round Rock-San Marcos, TX",12420,2024,3,509.23,( 3.49)',
      '"Austin-Round Rock-San Marcos, TX",12420,2024,4,-,-',
      '"Austin-Round Rock-San Marcos, TX",12420,2025,1,506.86,( 3.78)',
    ];
    const gappy = WORLD_FHFA.load(readerOf(`${rows.join('\n')}\n`), WORLD_MARKETS);
    assert.deepEqual(
      gappy.series.filter((s) => s.metricId === 'homePriceIndex').map(({ comparisons: _around, ...s }) => s),
      [
        {
          firstRow: '2024 Q2',
          marketId: 'us-tx-austin',
          metricId: 'homePriceIndex',
          perYear: 4,
          points: [
            { period: '2024 Q3', value: 509.23 },
            { period: '2024 Q4', value: undefined },
            { period: '2025 Q1', value: 506.86 },
          ],
        },
      ],
    );
    // Three quarters, less than a year on from the first: no quarter has a year-earlier one, so there is no change series.
    assert.deepEqual(
      gappy.series.filter((s) => s.metricId === 'homePriceChange'),
      [],
    );
    // Seven quarters with two gaps: the change of a gap, and of the quarter a year after one, has no value (not NaN).
    const seven = [
      '2024,1,500.00,( 3.00)',
      '2024,2,-,-',
      '2024,3,509.23,( 3.49)',
      '2024,4,510.00,( 3.50)',
      '2025,1,-,-',
      '2025,2,515.00,( 3.50)',
      '2025,3,520.00,( 3.50)',
    ].map((r) => `"Austin-Round Rock-San Marcos, TX",12420,${r}`);
    const changes = WORLD_FHFA.load(readerOf(`${seven.join('\n')}\n`), WORLD_MARKETS).series.filter((s) => s.metricId === 'homePriceChange');
    assert.deepEqual(
      changes.map((c) => c.points),
      [
        [
          { period: '2024 Q1 to 2025 Q1', value: undefined },
          { period: '2024 Q2 to 2025 Q2', value: undefined },
          // 520.00 / 509.23 − 1 = 2.115 %
          { period: '2024 Q3 to 2025 Q3', value: 2.1 },
        ],
      ],
    );
  });

  test('exactly one year of quarters: the index series, and no change series (none of its quarters has a year-earlier one)', () => {
    const four = ['2024,3,509.23,( 3.49)', '2024,4,510.00,( 3.50)', '2025,1,506.86,( 3.78)', '2025,2,515.00,( 3.50)'];
    const load = WORLD_FHFA.load(readerOf(`${four.map((r) => `"Austin-Round Rock-San Marcos, TX",12420,${r}`).join('\n')}\n`), WORLD_MARKETS);
    assert.deepEqual(
      load.series.map((s) => [s.metricId, s.points.length]),
      [['homePriceIndex', 4]],
    );
  });

  test("the vintage is the latest quarter of the file, and fetch downloads FHFA's own address", () => {
    assert.equal(WORLD_FHFA.vintageOf?.(fixtureReader()), '2026 Q2');
    assert.deepEqual(WORLD_FHFA.remote, [
      { file: FILE, url: 'https://www.fhfa.gov/hpi/download/quarterly_datasets/hpi_at_metro.csv' },
      { file: MASTER, url: 'https://www.fhfa.gov/hpi/download/monthly/hpi_master.csv' },
    ]);
  });

  test('thousands of other series around the markets change no value and are all counted', () => {
    const big = fhfaFiles.withOthers(FIXTURE_FILES, 5000);
    const wide = WORLD_FHFA.load((path) => big.get(path) ?? '', WORLD_MARKETS);
    const values = (l: SourceLoad) => l.observations.map(({ origin: _origin, ...rest }) => rest);
    assert.deepEqual(values(wide), values(load));
    assert.equal(wide.skipped, 3502 + 5000);
  });
});

describe("fhfa-hpi: the states' and the nation's series of the master file", () => {
  const HEADER = 'hpi_type,hpi_flavor,frequency,level,place_name,place_id,yr,period,index_nsa,index_sa,rstderr,note';
  const line = (level: string, name: string, id: string, year: number, quarter: number, index: string): string =>
    `traditional,all-transactions,quarterly,${level},${name},${id},${year},${quarter},${index},,,`;
  /** Austin alone in the metro file (2024 Q4 and 2025 Q4), with a master file of these lines. */
  const load = (master: readonly string[]) => {
    const files = new Map([
      [FILE, austin()],
      [MASTER, `${master.join('\n')}\n`],
      ['fhfa-hpi/retrieval.json', RETRIEVAL],
    ]);
    return WORLD_FHFA.load(
      (path) => files.get(path) ?? '',
      WORLD_MARKETS.filter((m) => m.id === 'us-tx-austin'),
    );
  };
  /** Texas and the nation from 1995 Q1 (each 1995 Q1 value its own base) to 2025 Q4, in the master file's order. */
  const both = (texas = (k: number) => (200 + k).toFixed(2), nation = (k: number) => (400 + 2 * k).toFixed(2)): string[] => {
    const lines = [HEADER];
    for (const [level, name, id, value] of [
      ['State', 'Texas', 'TX', texas],
      ['USA or Census Division', 'United States', 'USA', nation],
    ] as const) {
      for (let k = 0; k <= (2025 - 1995) * 4 + 3; k += 1) lines.push(line(level, name, id, 1995 + Math.floor(k / 4), (k % 4) + 1, value(k)));
    }
    return lines;
  };

  test("the market's change beside its state's and the nation's over the same quarters, from the published indexes", () => {
    const change = observation(load(both()), 'us-tx-austin', 'homePriceChange');
    // Texas: 2024 Q4 is k = 119 (319.00), 2025 Q4 k = 123 (323.00): +1.25 %, 1.3 to one decimal; the nation 638 to 646: +1.25 %.
    assert.deepEqual(change?.comparisons, [
      { level: 'state', code: 'TX', name: 'Texas', value: 1.3, asOf: '2024 Q4 to 2025 Q4' },
      { level: 'nation', code: 'USA', name: 'United States', value: 1.3, asOf: '2024 Q4 to 2025 Q4' },
    ]);
  });

  test("the index series of the state and the nation, rebased to the metro file's 1995 Q1 = 100, and their change series", () => {
    const series = load(both()).series;
    const index = series.find((s) => s.metricId === 'homePriceIndex')?.comparisons ?? [];
    assert.deepEqual(
      index.map((c) => [c.area.level, c.area.name, c.points[0], c.points.at(-1)]),
      [
        // 323 / 200 * 100 and 646 / 400 * 100.
        ['state', 'Texas', { period: '1995 Q1', value: 100 }, { period: '2025 Q4', value: 161.5 }],
        ['nation', 'United States', { period: '1995 Q1', value: 100 }, { period: '2025 Q4', value: 161.5 }],
      ],
    );
    assert.deepEqual(index[0]?.area, { level: 'state', name: 'Texas', codes: { stateFips: '48' }, states: ['TX'] });
    const change = series.find((s) => s.metricId === 'homePriceChange')?.comparisons ?? [];
    assert.deepEqual(change[0]?.points.at(-1), { period: '2024 Q4 to 2025 Q4', value: 1.3 });
  });

  test("a header that is not the master file's is refused, naming the column", () => {
    assertFixtureError(
      () => load([HEADER.replace('place_id', 'place_code'), ...both().slice(1)]),
      'bad_shape',
      /^fhfa-hpi\/hpi_master\.csv:1, column place_code: the header must be FHFA's master-file columns in order .*; column 6 is "place_code"$/,
    );
  });

  test("a market's state missing from the file is refused, naming the market", () => {
    assertFixtureError(
      () => load(both().filter((l) => !l.includes(',TX,'))),
      'missing_row',
      /^fhfa-hpi\/hpi_master\.csv, market us-tx-austin.*no all-transactions quarterly series of Texas \(TX\)/,
    );
  });

  test('a state series ending before the metro file does is another release, refused', () => {
    assertFixtureError(
      () => load(both().filter((l) => !l.endsWith(',TX,2025,4,323.00,,,'))),
      'out_of_range',
      /the series of Texas \(TX\) ends in 2025 Q3, hpi_at_metro\.csv's in 2025 Q4: both files must be of one release/,
    );
  });

  test('a quarter lost inside a series, or given twice, is refused with its line', () => {
    const lines = both();
    assertFixtureError(
      () => load(lines.filter((l) => !l.endsWith(',TX,2000,1,220.00,,,'))),
      'missing_row',
      /Texas\) has no line for 2000 Q1, though its series runs from 1995 Q1 to 2025 Q4: a line was lost/,
    );
    const twice = [...lines.slice(0, 3), lines[2] ?? '', ...lines.slice(3)];
    assertFixtureError(() => load(twice), 'duplicate_row', /^fhfa-hpi\/hpi_master\.csv:4: second line for TX \(Texas\) 1995 Q2; the first is line 3$/);
  });

  test('lines of other indexes, levels and places are skipped and counted, never parsed', () => {
    const others = [
      'purchase-only,monthly,USA or Census Division,United States,USA,2025,1,garbage',
      'traditional,all-transactions,quarterly,MSA,"Abilene, TX",10180,2025,4,369.82,,,',
    ];
    const l = load([...both(), ...others, line('State', 'Ohio', 'OH', 2025, 4, '300.00')]);
    assert.equal(l.skipped, 3);
  });
});

test('a change exactly half a tenth rounds away from zero: 104.55 over 100.00 is 4.55 %, served 4.6', () => {
  const rows = [`${AUSTIN_NAME},12420,2024,4,100.00,( 1.00)`, `${AUSTIN_NAME},12420,2025,4,104.55,( 1.00)`];
  assert.equal(observation(WORLD_FHFA.load(readerOf(`${rows.join('\n')}\n`), WORLD_MARKETS), 'us-tx-austin', 'homePriceChange')?.value, 4.6);
});
