// The FHFA HPI adapter reads hpi_at_metro.csv as FHFA serves it: both delineation editions, divisions, gaps, the standard-error form.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { withOtherFhfaSeries } from '../bench/upstream/fhfa-hpi.ts';
import { FixtureError } from '../src/errors.ts';
import { MARKETS } from '../src/markets.ts';
import { fhfaHpi } from '../src/sources/fhfa-hpi.ts';
import type { ReadFixture, SourceLoad } from '../src/sources/types.ts';
import { FIXTURE_FILES, fixtureReader } from './support/data.ts';

const FILE = 'fhfa-hpi/hpi_at_metro.csv';
const RETRIEVAL = '{ "vintage": "2025 Q4", "latestReleaseDate": "2026-02-24", "latestRetrievedAt": "2026-09-28" }';

const readerOf = (csv: string): ReadFixture => {
  const files = new Map([
    [FILE, csv],
    ['fhfa-hpi/retrieval.json', RETRIEVAL],
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

describe('fhfa-hpi: the published layout', () => {
  test('a file without a header line is read from its first line', () => {
    const load = fhfaHpi.load(readerOf(sample(EDITION_2023)), MARKETS);
    assert.equal(load.observations.length, 32);
    assert.deepEqual(observation(load, 'us-ga-atlanta')?.origin, { file: FILE, line: 4 });
  });

  test('one header line is tolerated and not counted as a skipped row', () => {
    const plain = fhfaHpi.load(readerOf(sample(EDITION_2023)), MARKETS);
    const headed = fhfaHpi.load(readerOf(`name,cbsa,yr,qtr,index_nsa,index_sa\n${sample(EDITION_2023)}`), MARKETS);
    assert.equal(observation(headed, 'us-ga-atlanta')?.value, 310);
    assert.deepEqual(observation(headed, 'us-ga-atlanta')?.origin, { file: FILE, line: 5 });
    assert.equal(headed.skipped, plain.skipped);
  });

  test('CRLF line endings read like LF', () => {
    const load = fhfaHpi.load(readerOf(sample(EDITION_2023).replace(/\n/g, '\r\n')), MARKETS);
    assert.equal(observation(load, 'us-ny-new-york')?.value, 319);
    assert.equal(observation(load, 'us-ny-new-york')?.boundary.name, 'New York-Jersey City-White Plains, NY-NJ');
  });

  test('standard errors in parentheses, padded "( 2.51)" or full "(10.55)", are accepted', () => {
    const csv = sample(EDITION_2023).replace(
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00,( 1.20)',
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00,(10.55)',
    );
    assert.equal(observation(fhfaHpi.load(readerOf(csv), MARKETS), 'us-tx-austin')?.value, 311);
    assert.equal(observation(fhfaHpi.load(readerOf(sample(EDITION_2023)), MARKETS), 'us-tx-austin')?.value, 311);
  });

  test('a standard error not in parentheses in a market row is an error naming file, line and column', () => {
    const csv = sample(EDITION_2023).replace(
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00,( 1.20)',
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00,1.20',
    );
    const error = thrown(() => fhfaHpi.load(readerOf(csv), MARKETS));
    assert.equal(error.code, 'not_numeric');
    assert.deepEqual(error.place, { file: FILE, line: 6, column: 'standard error' });
  });

  test('a market row with a wrong column count is an error naming file and line', () => {
    const csv = sample(EDITION_2023).replace(
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00,( 1.20)',
      '"Austin-Round Rock-San Marcos, TX",12420,2025,4,311.00',
    );
    const error = thrown(() => fhfaHpi.load(readerOf(csv), MARKETS));
    assert.equal(error.code, 'bad_shape');
    assert.deepEqual(error.place, { file: FILE, line: 6 });
    assert.match(error.message, /expected 6 fields/);
  });

  test('rows of other series are skipped and counted without being validated ("n/a" and "???" in a non-market row)', () => {
    const load = fhfaHpi.load(readerOf(sample(EDITION_2023)), MARKETS);
    assert.equal(load.skipped, 5);
    assert.deepEqual(load.missing, []);
  });

  test('an empty file is an error', () => {
    assert.equal(thrown(() => fhfaHpi.load(readerOf('\n'), MARKETS)).reason, 'no data rows');
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
    const load = fhfaHpi.load(readerOf(`${rows.join('\n')}\n`), MARKETS);
    const index = observation(load, 'us-tx-austin');
    assert.equal(index?.value, 506.86);
    assert.equal(index?.asOf, '2025 Q3');
    const change = observation(load, 'us-tx-austin', 'homePriceChange');
    assert.equal(change?.asOf, '2024 Q3 to 2025 Q3');
    assert.equal(change?.value, -0.5);
  });

  test('"-" in the quarter a year earlier leaves the change missing, with the reason and that row', () => {
    const csv = gap(sample(EDITION_2023), '"Denver-Aurora-Centennial, CO",19740,2024,4,305.00,( 1.10)', '"Denver-Aurora-Centennial, CO",19740,2024,4,-,-');
    const load = fhfaHpi.load(readerOf(csv), MARKETS);
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

  test('a series with "-" in every quarter leaves both metrics missing, with the reason', () => {
    const csv = `${['"Tampa, FL (MSAD)",45294,2024,4,-,-', '"Tampa, FL (MSAD)",45294,2025,4,-,-'].join('\n')}\n`;
    const load = fhfaHpi.load(readerOf(csv), MARKETS);
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
      MARKETS.map((m) => {
        const found = edition.find(([, code]) => code === m.cbsaCode || m.fhfaDivisions.some((d) => d.code === code));
        return [m.id, found?.[1] ?? ''];
      }),
    );

  test("2023-delineation edition: eleven markets resolve to their principal city's metropolitan division, five to the whole metro", () => {
    const load = fhfaHpi.load(readerOf(sample(EDITION_2023)), MARKETS);
    const used = Object.fromEntries(
      load.observations
        .filter((o) => o.metricId === 'homePriceIndex')
        .map((o) => [o.marketId, `${o.boundary.level} ${o.boundary.codes['division'] ?? o.boundary.codes['cbsa']}`]),
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
    const load = fhfaHpi.load(readerOf(sample(EDITION_2020)), MARKETS);
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
    const load = fhfaHpi.load(readerOf(csv), MARKETS);
    assert.equal(observation(load, 'us-fl-tampa')?.value, 420);
    assert.equal(observation(load, 'us-fl-tampa')?.boundary.level, 'cbsa');
    assert.equal(load.skipped, 2);
  });

  test('an MSAD row gives the division level, the name without " (MSAD)" and the states from that name', () => {
    const ny = observation(fhfaHpi.load(readerOf(sample(EDITION_2023)), MARKETS), 'us-ny-new-york');
    assert.deepEqual(ny?.boundary, {
      level: 'division',
      name: 'New York-Jersey City-White Plains, NY-NJ',
      codes: { cbsa: '35620', division: '35614' },
      states: ['NY', 'NJ'],
    });
  });

  test('a market whose series the file lacks is missing both metrics, with a reason naming the codes tried', () => {
    const csv = sample(EDITION_2023.filter(([, code]) => code !== '47764'));
    const load = fhfaHpi.load(readerOf(csv), MARKETS);
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
    const error = thrown(() => fhfaHpi.load(readerOf(csv), MARKETS));
    assert.equal(error.code, 'duplicate_row');
    assert.deepEqual(error.place, { file: FILE, line: 38 });
    assert.match(error.message, /35614 \(New York-Jersey City-White Plains, NY-NJ \(MSAD\)\) 2025 Q4; the first is on line 22/);
  });
});

describe('fhfa-hpi: the committed fixture (2023 delineations, through 2025 Q4)', () => {
  const load = fhfaHpi.load(fixtureReader(), MARKETS);

  test('Austin: the published 2025 Q4 all-transactions index and its change from 2024 Q4', () => {
    const index = observation(load, 'us-tx-austin');
    assert.equal(index?.value, 505.7);
    assert.equal(index?.asOf, '2025 Q4');
    assert.deepEqual(index?.boundary, { level: 'cbsa', name: 'Austin-Round Rock-San Marcos, TX', codes: { cbsa: '12420' }, states: ['TX'] });
    const change = observation(load, 'us-tx-austin', 'homePriceChange');
    assert.equal(change?.value, 0.4);
    assert.equal(change?.asOf, '2024 Q4 to 2025 Q4');
  });

  test('New York: the division the published file holds, 437.42 in 2025 Q4, up 6.0% on 2024 Q4', () => {
    const index = observation(load, 'us-ny-new-york');
    assert.equal(index?.value, 437.42);
    assert.equal(index?.boundary.level, 'division');
    assert.equal(index?.boundary.name, 'New York-Jersey City-White Plains, NY-NJ');
    assert.equal(observation(load, 'us-ny-new-york', 'homePriceChange')?.value, 6);
  });

  test('every market has both metrics; the other series around them are skipped and counted', () => {
    assert.equal(load.observations.length, 32);
    assert.deepEqual(load.missing, []);
    assert.equal(load.skipped, 956);
    assert.equal(
      load.source.datasetName,
      'House Price Index, metro and metropolitan-division all-transactions indexes, quarterly, not seasonally adjusted (through 2025 Q4)',
    );
  });

  test("each market's series for the pages: every quarter from the first with a value to the latest, ending at the published value", () => {
    assert.equal(load.series?.length, 16);
    for (const s of load.series ?? []) {
      assert.equal(s.metricId, 'homePriceIndex');
      assert.equal(s.perYear, 4);
      const last = s.points.at(-1);
      assert.equal(last?.period, '2025 Q4', s.marketId);
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
    assert.deepEqual(dallas?.points[0], { period: '2000 Q1', value: 125.81 });
    assert.equal(dallas?.points.length, 104);
  });

  test('a "-" quarter inside a series stays in it without a value; the series never reaches the JSON', () => {
    const rows = [
      '"Austin-Round Rock-San Marcos, TX",12420,2024,2,-,-',
      '"Austin-Round Rock-San Marcos, TX",12420,2024,3,509.23,( 3.49)',
      '"Austin-Round Rock-San Marcos, TX",12420,2024,4,-,-',
      '"Austin-Round Rock-San Marcos, TX",12420,2025,1,506.86,( 3.78)',
    ];
    const gappy = fhfaHpi.load(readerOf(`${rows.join('\n')}\n`), MARKETS);
    assert.deepEqual(gappy.series, [
      {
        marketId: 'us-tx-austin',
        metricId: 'homePriceIndex',
        perYear: 4,
        points: [
          { period: '2024 Q3', value: 509.23 },
          { period: '2024 Q4', value: undefined },
          { period: '2025 Q1', value: 506.86 },
        ],
      },
    ]);
  });

  test("the vintage is the latest quarter of the file, and fetch downloads FHFA's own address", () => {
    assert.equal(fhfaHpi.vintageOf?.(fixtureReader()), '2025 Q4');
    assert.deepEqual(fhfaHpi.remote, [{ file: FILE, url: 'https://www.fhfa.gov/hpi/download/quarterly_datasets/hpi_at_metro.csv' }]);
  });

  test('thousands of other series around the markets change no value and are all counted', () => {
    const big = withOtherFhfaSeries(FIXTURE_FILES, 5000);
    const wide = fhfaHpi.load((path) => big.get(path) ?? '', MARKETS);
    const values = (l: SourceLoad) => l.observations.map(({ origin: _origin, ...rest }) => rest);
    assert.deepEqual(values(wide), values(load));
    assert.equal(wide.skipped, 956 + 5000);
  });
});
