// The Census ACS adapter reads the API's JSON answers for every place and every state: other rows skipped and counted, annotations and nulls as missing values with their reason, each market beside its state, bad layouts as errors.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { synthetic } from '../support/upstream/index.ts';
import { acsFiles } from '../support/upstream/census-acs-5yr.ts';
import { openEndedNote, openEndedQualifier, proportionMargin } from '../../src/sources/census-acs-5yr/adapter.ts';
import type { ReadFixture, SourceLoad } from '../../src/sources/source.ts';
import { FIXTURE_FILES, fixtureReader } from '../support/data.ts';
import { assertFixtureError } from '../support/refused.ts';
import { WORLD_ACS, WORLD_MARKETS } from '../world/world.ts';

const PLACES = 'census-acs-5yr/acs5-2024-detailed-place.json';
const STATES = 'census-acs-5yr/acs5-2024-detailed-state.json';
const NATION = 'census-acs-5yr/acs5-2024-detailed-us.json';
const PLACES_2019 = 'census-acs-5yr/acs5-2019-detailed-place.json';
const STATES_2019 = 'census-acs-5yr/acs5-2019-detailed-state.json';
const RETRIEVAL = 'census-acs-5yr/retrieval.json';

/** The estimates the queries ask for, each followed by its margin of error (…M) in the answer. */
const ESTIMATES = ['B25064_001E', 'B19013_001E', 'B25077_001E', 'B25088_002E', 'B25001_001E', 'B25002_002E', 'B25002_003E', 'B25003_002E'];
const marginOf = (estimate: string): string => `${estimate.slice(0, -1)}M`;
const FIELDS = ESTIMATES.flatMap((e) => [e, marginOf(e)]);
const PLACE_HEADER = ['NAME', ...FIELDS, 'state', 'place'];
const STATE_HEADER = ['NAME', ...FIELDS, 'state'];
/** A row of an answer from its name, its estimates in ESTIMATES order with the margin after each, and its geography. */
const answerRow = (name: unknown, cells: readonly (readonly [unknown, unknown])[], ...geography: unknown[]): unknown[] => [name, ...cells.flat(), ...geography];
// The Census Bureau's published 2020-2024 estimates and margins (fixtures/census-acs-5yr/README.md).
// prettier-ignore
const AUSTIN = answerRow('Austin city, Texas', [['1729', '14'], ['93658', '1670'], ['555300', '8017'], ['2679', '39'], ['483071', '2022'], ['456113', '2401'], ['26958', '1621'], ['198180', '3375']], '48', '05000');
// prettier-ignore
const DALLAS = answerRow('Dallas city, Texas', [['1472', '9'], ['70518', '817'], ['320700', '5461'], ['2316', '33'], ['590237', '2921'], ['533915', '3299'], ['56322', '2140'], ['226615', '3293']], '48', '19000');
// prettier-ignore
const TEXAS = answerRow('Texas', [['1403', '4'], ['78476', '263'], ['283800', '738'], ['2106', '6'], ['12128515', '1574'], ['10992816', '15813'], ['1135699', '15068'], ['6879255', '32101']], '48');
// prettier-ignore
const OTHER = answerRow('Abbeville city, Alabama', [['-666666666', '-222222222'], [null, null], ['-666666666', '-222222222'], ['-666666666', '-222222222'], ['1214', '73'], ['1100', '66'], ['114', '7'], ['700', '42']], '01', '00124');
// prettier-ignore
const ALABAMA = answerRow('Alabama', [['1011', '5'], ['62027', '275'], ['195100', '721'], ['1461', '5'], ['2329473', '714'], ['2016448', '5950'], ['313025', '5921'], ['1416264', '6990']], '01');
const STATE = PLACE_HEADER.indexOf('state');
const PLACE = PLACE_HEADER.indexOf('place');

type Cells = readonly unknown[];
const response = (rows: readonly unknown[]): string => `[${rows.map((r) => JSON.stringify(r)).join(',\n')}]`;
const texasMarkets = WORLD_MARKETS.filter((m) => m.id === 'us-tx-austin' || m.id === 'us-tx-dallas');

/** The nation's answer (its 2020-2024 median household income) and the 2015-2019 answers of the median home value, as published. */
const NATION_ANSWER = [
  ['NAME', 'B19013_001E', 'B19013_001M', 'us'],
  ['United States', '80734', '166', '1'],
];
const EARLIER_PLACES = [
  ['NAME', 'B25077_001E', 'B25077_001M', 'state', 'place'],
  ['Austin city, Texas', '337400', '3146', '48', '05000'],
  ['Dallas city, Texas', '188100', '3723', '48', '19000'],
];
const EARLIER_STATES = [
  ['NAME', 'B25077_001E', 'B25077_001M', 'state'],
  ['Texas', '172500', '355', '48'],
];

/** A reader over a small in-memory set of answers (states default to Texas alone; retrieval.json to the fixture's). */
function reader(
  places: readonly unknown[],
  states?: readonly unknown[],
  retrieval = FIXTURE_FILES.get(RETRIEVAL) ?? '',
  others: Readonly<Record<string, readonly unknown[]>> = {},
): ReadFixture {
  const files = new Map([
    [PLACES, response(places)],
    [STATES, response(states ?? [STATE_HEADER, TEXAS])],
    [NATION, response(others[NATION] ?? NATION_ANSWER)],
    [PLACES_2019, response(others[PLACES_2019] ?? EARLIER_PLACES)],
    [STATES_2019, response(others[STATES_2019] ?? EARLIER_STATES)],
    [RETRIEVAL, retrieval],
  ]);
  return (path) => {
    const text = files.get(path);
    if (text === undefined) throw new Error(`no fixture ${path}`);
    return text;
  };
}

const observation = (load: SourceLoad, marketId: string, metricId: string) => load.observations.find((o) => o.marketId === marketId && o.metricId === metricId);
const value = (load: SourceLoad, marketId: string, metricId: string): number | undefined => observation(load, marketId, metricId)?.value;
const margin = (load: SourceLoad, marketId: string, metricId: string): number | undefined => observation(load, marketId, metricId)?.marginOfError;
const reasonOf = (load: SourceLoad, marketId: string, metricId: string): string | undefined =>
  load.missing.find((m) => m.marketId === marketId && m.metricId === metricId)?.reason;

/** A row with one cell replaced. */
const withCell = (row: Cells, header: readonly string[], field: string, cell: unknown): Cells => row.map((c, i) => (header[i] === field ? cell : c));
const austinWith = (field: string, cell: unknown): Cells => withCell(AUSTIN, PLACE_HEADER, field, cell);
const texasWith = (field: string, cell: unknown): Cells => withCell(TEXAS, STATE_HEADER, field, cell);

describe('census-acs-5yr: the real fixture', () => {
  const load = WORLD_ACS.load(fixtureReader(), WORLD_MARKETS);
  test('reads the sixteen markets among 320 other places and their twelve states, with the vintage as asOf and the release date of January 2026', () => {
    assert.equal(value(load, 'us-tx-austin', 'medianGrossRent'), 1729);
    assert.equal(value(load, 'us-tx-austin', 'medianHouseholdIncome'), 93658);
    assert.equal(value(load, 'us-tx-austin', 'medianOwnerCostsWithMortgage'), 2679);
    assert.equal(value(load, 'us-tx-austin', 'housingUnits'), 483071);
    assert.equal(value(load, 'us-tx-austin', 'medianHomeValue'), 555300);
    assert.equal(value(load, 'us-ny-new-york', 'housingUnits'), 3678486);
    assert.equal(observation(load, 'us-tx-austin', 'medianGrossRent')?.asOf, '2020-2024');
    assert.equal(load.source.latestReleaseDate, '2026-01-29');
    assert.equal(load.source.latestRetrievedAt, '2026-11-29');
    for (const m of WORLD_MARKETS) assert.equal(load.observations.filter((o) => o.marketId === m.id).length, 7, m.id);
    // Other places skipped; the states answer holds only the markets' twelve states, so it skips none.
    assert.equal(load.skipped, 320);
    assert.deepEqual(load.missing, []);
  });
  test('derives the homeownership and vacancy rates from the published counts, to one decimal', () => {
    // 198180 / 456113 × 100 = 43.45…; 26958 / 483071 × 100 = 5.58…
    assert.equal(value(load, 'us-tx-austin', 'homeownershipRate'), 43.4);
    assert.equal(value(load, 'us-tx-austin', 'vacancyRate'), 5.6);
  });
  test("each observation names the line of its market's row", () => {
    const line = (FIXTURE_FILES.get(PLACES) ?? '').split('\n').findIndex((l) => l.startsWith('["Austin city, Texas"')) + 1;
    assert.ok(line > 1, 'line > 1');
    assert.deepEqual(observation(load, 'us-tx-austin', 'medianGrossRent')?.origin, { file: PLACES, line });
  });
  test('asks the API for every place of every state and for every state, the same variables, for the 2024 vintage', () => {
    assert.deepEqual(
      WORLD_ACS.remote.map((r) => r.file),
      [PLACES, STATES, NATION, PLACES_2019, STATES_2019],
    );
    const [places, states] = WORLD_ACS.remote.map((r) => new URL(r.url));
    for (const url of [places, states]) {
      assert.equal(url?.href.split('?')[0], 'https://api.census.gov/data/2024/acs/acs5');
      assert.equal(
        url?.searchParams.get('get'),
        'NAME,B25064_001E,B25064_001M,B19013_001E,B19013_001M,B25077_001E,B25077_001M,B25088_002E,B25088_002M,B25001_001E,B25001_001M,B25002_002E,B25002_002M,B25002_003E,B25002_003M,B25003_002E,B25003_002M',
      );
    }
    assert.equal(places?.searchParams.get('for'), 'place:*');
    assert.equal(places?.searchParams.get('in'), 'state:*');
    assert.equal(states?.searchParams.get('for'), 'state:*');
    assert.equal(states?.searchParams.has('in'), false);
    assert.equal(WORLD_ACS.vintageOf?.(fixtureReader()), '2020-2024');
  });
  test("asks for the nation's median household income, and the 2015-2019 median home value of every place and state", () => {
    const [, , nation, places2019, states2019] = WORLD_ACS.remote.map((r) => new URL(r.url));
    assert.equal(nation?.href.split('?')[0], 'https://api.census.gov/data/2024/acs/acs5');
    assert.equal(nation?.searchParams.get('get'), 'NAME,B19013_001E,B19013_001M');
    assert.equal(nation?.searchParams.get('for'), 'us:1');
    for (const url of [places2019, states2019]) {
      assert.equal(url?.href.split('?')[0], 'https://api.census.gov/data/2019/acs/acs5');
      assert.equal(url?.searchParams.get('get'), 'NAME,B25077_001E,B25077_001M');
    }
    assert.equal(places2019?.searchParams.get('for'), 'place:*');
    assert.equal(states2019?.searchParams.get('for'), 'state:*');
  });
  test('reads the five answers and retrieval.json, and nothing else', () => {
    assert.deepEqual(WORLD_ACS.files, [PLACES, STATES, NATION, PLACES_2019, STATES_2019, RETRIEVAL]);
    assert.equal(WORLD_ACS.sourceId, 'census-acs-5yr');
  });
  test("attributes the values to the Census Bureau's ACS 5-year estimates, naming the tables, with retrieval.json's dates and high confidence", () => {
    assert.deepEqual(load.source, {
      sourceId: 'census-acs-5yr',
      sourceName: 'American Community Survey 5-year estimates',
      agency: 'U.S. Census Bureau',
      datasetName:
        "ACS 5-year estimates 2020-2024, places and states: tables B25064, B19013, B25077, B25088, B25001, B25002 and B25003; the nation's B19013; 2015-2019 B25077 of the places and states",
      sourceUrl: 'https://www.census.gov/programs-surveys/acs',
      confidence: 'high',
      updateFrequency: 'annually',
      provenance: 'fixture',
      latestReleaseDate: '2026-01-29',
      latestRetrievedAt: '2026-11-29',
    });
  });
  test('no value is illustrative; every value carries its state beside it and its margin of error, but the one median in an open-ended interval', () => {
    assert.equal(load.illustrative, undefined);
    for (const o of load.observations) {
      const openEnded = o.marketId === 'us-ca-san-francisco' && o.metricId === 'medianOwnerCostsWithMortgage';
      assert.equal(o.illustrative, undefined, `${o.marketId} ${o.metricId}`);
      assert.equal(o.marginOfError === undefined, openEnded, `${o.marketId} ${o.metricId}`);
      assert.equal(o.qualifier !== undefined, openEnded, `${o.marketId} ${o.metricId}`);
      // The state's, and the nation's where the nation's answer holds the estimate (median household income alone).
      assert.deepEqual(
        o.comparisons?.map((c) => c.level),
        o.metricId === 'medianHouseholdIncome' ? ['state', 'nation'] : ['state'],
        `${o.marketId} ${o.metricId}`,
      );
    }
  });
  test("San Francisco's owner costs are the API's 4001, the Census Bureau's \"4,000+\", served qualified and with a note that says so", () => {
    assert.equal(value(load, 'us-ca-san-francisco', 'medianOwnerCostsWithMortgage'), 4001);
    assert.deepEqual(observation(load, 'us-ca-san-francisco', 'medianOwnerCostsWithMortgage')?.qualifier, {
      kind: 'open-ended',
      publishedAs: '4,000+',
      edge: 4000,
      bound: 'lower',
    });
    assert.deepEqual(load.notes, [
      {
        marketId: 'us-ca-san-francisco',
        metricId: 'medianOwnerCostsWithMortgage',
        note: 'Published as "4,000+": the median lies in the open-ended top interval, so the Census API writes 4001 and gives no margin of error; the true median is 4,000 or more.',
      },
    ]);
  });
  test('an observation names the place as the API does, its FIPS codes and state, the vintage, the source, its state and its line', () => {
    assert.deepEqual(observation(load, 'us-tx-austin', 'medianGrossRent'), {
      marketId: 'us-tx-austin',
      metricId: 'medianGrossRent',
      value: 1729,
      marginOfError: 14,
      asOf: '2020-2024',
      sourceId: 'census-acs-5yr',
      boundary: { level: 'place', name: 'Austin city, Texas', codes: { stateFips: '48', placeFips: '05000' }, states: ['TX'] },
      comparisons: [{ level: 'state', code: '48', name: 'Texas', value: 1403, marginOfError: 4, asOf: '2020-2024' }],
      origin: { file: PLACES, line: 287 },
    });
  });
});

describe('census-acs-5yr: each market beside its state', () => {
  test("every metric carries its state's figure from the states answer, a share computed the same way", () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS]), texasMarkets);
    // 6879255 / 10992816 × 100 = 62.58…, with the derived-proportion margin 0.3.
    assert.deepEqual(observation(load, 'us-tx-dallas', 'homeownershipRate')?.comparisons, [
      { level: 'state', code: '48', name: 'Texas', value: 62.6, marginOfError: 0.3, asOf: '2020-2024' },
    ]);
    assert.deepEqual(observation(load, 'us-tx-austin', 'medianHouseholdIncome')?.comparisons, [
      { level: 'state', code: '48', name: 'Texas', value: 78476, marginOfError: 263, asOf: '2020-2024' },
      // The nation's answer holds median household income alone: the only metric with the nation beside it.
      { level: 'nation', code: '1', name: 'United States', value: 80734, marginOfError: 166, asOf: '2020-2024' },
    ]);
  });
  test("the 2015-2019 median home value, the market's and its state's, with their margins, beside 2020-2024 in the series", () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS]), texasMarkets);
    const series = load.series.find((s) => s.marketId === 'us-tx-austin' && s.metricId === 'medianHomeValue');
    assert.deepEqual(series?.points, [
      { period: '2015-2019', value: 337400, marginOfError: 3146 },
      { period: '2020-2024', value: 555300, marginOfError: 8017 },
    ]);
    assert.deepEqual(series?.comparisons, [
      {
        area: { level: 'state', name: 'Texas', codes: { stateFips: '48' }, states: ['TX'] },
        points: [
          { period: '2015-2019', value: 172500, marginOfError: 355 },
          { period: '2020-2024', value: 283800, marginOfError: 738 },
        ],
      },
    ]);
    // A metric of no earlier answer has this period's points alone; the nation beside it where its answer holds it.
    const income = load.series.find((s) => s.marketId === 'us-tx-austin' && s.metricId === 'medianHouseholdIncome');
    assert.deepEqual(income?.points, [{ period: '2020-2024', value: 93658, marginOfError: 1670 }]);
    assert.deepEqual(
      income?.comparisons?.map((c) => [c.area.level, c.points]),
      [
        ['state', [{ period: '2020-2024', value: 78476, marginOfError: 263 }]],
        ['nation', [{ period: '2020-2024', value: 80734, marginOfError: 166 }]],
      ],
    );
  });
  test('a market or state missing from an earlier answer is refused, naming the file and the market', () => {
    assertFixtureError(
      () => WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS], undefined, undefined, { [PLACES_2019]: EARLIER_PLACES.slice(0, 2) }), texasMarkets),
      'missing_row',
      /^census-acs-5yr\/acs5-2019-detailed-place\.json, market us-tx-dallas: no row for Dallas city, Texas/,
    );
  });
  test("the nation's answer must be the query's: its header, and a row for the United States", () => {
    assertFixtureError(
      () => WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS], undefined, undefined, { [NATION]: [NATION_ANSWER[0] ?? []] }), texasMarkets),
      'missing_row',
      'census-acs-5yr/acs5-2024-detailed-us.json: no row for the United States (us 1)',
    );
    assertFixtureError(
      () =>
        WORLD_ACS.load(
          reader([PLACE_HEADER, AUSTIN, DALLAS], undefined, undefined, {
            [NATION]: [
              ['NAME', 'B19013_001M', 'B19013_001E', 'us'],
              ['United States', '166', '80734', '1'],
            ],
          }),
          texasMarkets,
        ),
      'bad_shape',
      /acs5-2024-detailed-us\.json:1, column B19013_001M, at \/0\/1: header has "B19013_001M" as column 2, where the query asked for "B19013_001E"/,
    );
  });
  test("a state's annotation leaves that metric without a comparison, and keeps the market's value", () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS], [STATE_HEADER, texasWith('B25088_002E', '-666666666')]), texasMarkets);
    assert.equal(value(load, 'us-tx-austin', 'medianOwnerCostsWithMortgage'), 2679);
    assert.equal(observation(load, 'us-tx-austin', 'medianOwnerCostsWithMortgage')?.comparisons, undefined);
    assert.equal(observation(load, 'us-tx-austin', 'medianGrossRent')?.comparisons?.[0]?.value, 1403);
    assert.deepEqual(load.missing, []);
  });
  test("a state's margin that is an annotation leaves the comparison without a margin", () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS], [STATE_HEADER, texasWith('B25001_001M', '-555555555')]), texasMarkets);
    assert.deepEqual(observation(load, 'us-tx-austin', 'housingUnits')?.comparisons, [
      { level: 'state', code: '48', name: 'Texas', value: 12128515, asOf: '2020-2024' },
    ]);
  });
  test("states that hold no market are skipped and counted; a market's state missing from the answer is an error naming the state and the market", () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS], [STATE_HEADER, ALABAMA, TEXAS]), texasMarkets);
    assert.equal(load.skipped, 1);
    assertFixtureError(
      () => WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS], [STATE_HEADER, ALABAMA]), texasMarkets),
      'missing_row',
      "census-acs-5yr/acs5-2024-detailed-state.json, market us-tx-austin: no row for state 48 (Texas), the state of us-tx-austin: every market's figures are shown beside its state's, and over time where published",
    );
  });
  test('a second row for a state is an error naming both lines', () => {
    assertFixtureError(
      () => WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS], [STATE_HEADER, TEXAS, ALABAMA, TEXAS]), texasMarkets),
      'duplicate_row',
      'census-acs-5yr/acs5-2024-detailed-state.json:4, at /3: second row for state 48 (Texas); the first is on line 2',
    );
  });
  test('a states answer without a variable is an error naming its file and the column', () => {
    const header = STATE_HEADER.filter((c) => c !== 'B25088_002M');
    assertFixtureError(
      () => WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS], [header, TEXAS.filter((_, i) => STATE_HEADER[i] !== 'B25088_002M')]), texasMarkets),
      'missing_field',
      'census-acs-5yr/acs5-2024-detailed-state.json:1, column B25088_002M, at /0: header has no "B25088_002M" column',
    );
  });
});

describe('census-acs-5yr: the illustrative notice', () => {
  test('is absent when retrieval.json has none, as after a real fetch', () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS], undefined, '{"vintage":"2020-2024","latestReleaseDate":"2026-01-29"}'), texasMarkets);
    assert.equal('illustrative' in load, false);
    assert.deepEqual(load.source.latestReleaseDate, '2026-01-29');
    assert.equal('latestRetrievedAt' in load.source, false);
    assert.equal(value(load, 'us-tx-austin', 'medianGrossRent'), 1729);
  });
  test('marks the listed metrics illustrative, without a margin, and lowers the confidence a source claims', () => {
    const notice =
      '{"vintage":"2020-2024","latestReleaseDate":"2026-01-29","illustrative":"The vacancy rates are illustrative.","illustrativeMetrics":["vacancyRate"]}';
    const load = WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS], undefined, notice), texasMarkets);
    for (const o of load.observations) {
      assert.equal(o.illustrative, o.metricId === 'vacancyRate' ? true : undefined, `${o.marketId} ${o.metricId}`);
      assert.equal(o.marginOfError === undefined, o.metricId === 'vacancyRate', `${o.marketId} ${o.metricId}`);
    }
    assert.equal(load.source.confidence, 'medium');
    const all = '{"vintage":"2020-2024","latestReleaseDate":"2026-01-29","illustrative":"Every value is illustrative."}';
    assert.equal(WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS], undefined, all), texasMarkets).source.confidence, 'low');
  });
});

describe('census-acs-5yr: places that are not markets', () => {
  test('are skipped and counted, whatever their cells hold', () => {
    const load = WORLD_ACS.load(
      reader([PLACE_HEADER, OTHER, AUSTIN, ['Odd place', 'n/a', '', ...Array<null>(PLACE_HEADER.length - 5).fill(null), '48', '99990'], DALLAS]),
      texasMarkets,
    );
    assert.equal(load.skipped, 2);
    assert.equal(value(load, 'us-tx-austin', 'medianGrossRent'), 1729);
    assert.equal(value(load, 'us-tx-dallas', 'medianGrossRent'), 1472);
    assert.deepEqual(load.missing, []);
  });
  test("a row whose state or place cell is not a string is not a market's row, even if it would print as the market's codes", () => {
    const codes = (state: unknown, place: unknown): Cells => AUSTIN.map((c, i) => (i === STATE ? state : i === PLACE ? place : c));
    const load = WORLD_ACS.load(reader([PLACE_HEADER, codes(48, '05000'), codes('48', ['05000']), DALLAS]), texasMarkets);
    assert.equal(load.skipped, 2);
    assert.deepEqual(
      load.observations.filter((o) => o.marketId === 'us-tx-austin'),
      [],
    );
    assert.equal(value(load, 'us-tx-dallas', 'medianGrossRent'), 1472);
  });
  test('thousands of other places around the sixteen markets change none of their values', () => {
    const plain = WORLD_ACS.load(fixtureReader(), WORLD_MARKETS);
    const files = acsFiles.withOthers(FIXTURE_FILES, 5000);
    const national = WORLD_ACS.load((path) => files.get(path) ?? '', WORLD_MARKETS);
    assert.equal(national.skipped, plain.skipped + 5000);
    const values = (load: SourceLoad): string[] => load.observations.map((o) => `${o.marketId} ${o.metricId} ${o.value}`).sort();
    assert.deepEqual(values(national), values(plain));
  });
  test('synthetic markets read the same with other places interleaved in the API order', () => {
    const { markets } = synthetic(40);
    const files = acsFiles.files(
      markets.map((market, i) => ({ i, market })),
      WORLD_ACS,
    );
    const alone = WORLD_ACS.load((p) => files.get(p) ?? '', markets);
    const crowded = acsFiles.withOthers(files, 300);
    const around = WORLD_ACS.load((p) => crowded.get(p) ?? '', markets);
    assert.equal(around.observations.length, 280);
    assert.equal(around.skipped, alone.skipped + 300);
    assert.deepEqual(
      around.observations.map((o) => o.value),
      alone.observations.map((o) => o.value),
    );
  });
});

describe('census-acs-5yr: values a market row leaves out', () => {
  const cases: [string, string | null, string][] = [
    ['null', null, 'B25064_001E is null: the Census API has no data for this geography'],
    [
      '-666666666',
      '-666666666',
      "B25064_001E is -666666666: the Census API's annotation that the estimate could not be computed (too few sample observations, or a median in an open-ended interval)",
    ],
    [
      '-999999999',
      '-999999999',
      "B25064_001E is -999999999: the Census API's annotation that the estimate cannot be displayed (too few sample cases in this area)",
    ],
    ['-888888888', '-888888888', "B25064_001E is -888888888: the Census API's annotation that the estimate is not applicable or not available"],
    ['-222222222', '-222222222', "B25064_001E is -222222222: the Census API's annotation that too few sample observations (a margin-of-error code)"],
    [
      '-333333333',
      '-333333333',
      "B25064_001E is -333333333: the Census API's annotation that the median falls in an open-ended interval (a margin-of-error code)",
    ],
    [
      '-555555555',
      '-555555555',
      "B25064_001E is -555555555: the Census API's annotation that the estimate is controlled (a margin-of-error code, not an estimate)",
    ],
  ];
  for (const [label, cell, reason] of cases) {
    test(`${label} in a market's rent leaves that metric missing with its reason and keeps the rest of the row`, () => {
      const load = WORLD_ACS.load(reader([PLACE_HEADER, austinWith('B25064_001E', cell), DALLAS]), texasMarkets);
      assert.equal(value(load, 'us-tx-austin', 'medianGrossRent'), undefined);
      assert.deepEqual(load.missing, [{ marketId: 'us-tx-austin', metricId: 'medianGrossRent', reason, origin: { file: PLACES, line: 2 } }]);
      assert.equal(value(load, 'us-tx-austin', 'medianHouseholdIncome'), 93658);
      assert.equal(value(load, 'us-tx-austin', 'housingUnits'), 483071);
      assert.equal(value(load, 'us-tx-austin', 'vacancyRate'), 5.6);
    });
  }
  test('an annotation value padded with spaces is still that annotation, and the reason names it without the padding', () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, austinWith('B25064_001E', ' -666666666 '), DALLAS]), texasMarkets);
    assert.equal(
      reasonOf(load, 'us-tx-austin', 'medianGrossRent'),
      "B25064_001E is -666666666: the Census API's annotation that the estimate could not be computed (too few sample observations, or a median in an open-ended interval)",
    );
  });
  test('another negative value, padded or not, is refused: only the annotation values stand for an absent figure', () => {
    for (const [field, cell] of [
      ['B25064_001E', '-1'],
      ['B25077_001E', ' -1 '],
      ['B25064_001M', '-14'],
    ] as const) {
      assertFixtureError(
        () => WORLD_ACS.load(reader([PLACE_HEADER, austinWith(field, cell), DALLAS]), texasMarkets),
        'out_of_range',
        `census-acs-5yr/acs5-2024-detailed-place.json:2, column ${field}, at /1: ${field} is ${cell.trim()}: negative, and not one of the Census API's annotation values (-666666666, -999999999, -888888888, -222222222, -333333333, -555555555)`,
      );
    }
  });
  test('a market without a row in the places answer is missing every metric, with no line: the load refuses it (src/sources/checks.ts)', () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, DALLAS]), texasMarkets);
    const austin = load.missing.filter((m) => m.marketId === 'us-tx-austin');
    assert.equal(austin.length, 7);
    assert.deepEqual(austin[0], {
      marketId: 'us-tx-austin',
      metricId: 'medianGrossRent',
      reason: 'the places answer has no row for state 48 place 05000 (Austin city, Texas)',
      origin: { file: PLACES },
    });
  });
  test('zero is a value, not an annotation: a place with no vacant home has a vacancy rate of 0', () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, austinWith('B25002_003E', '0'), DALLAS]), texasMarkets);
    assert.equal(value(load, 'us-tx-austin', 'vacancyRate'), 0);
    assert.deepEqual(load.missing, []);
  });
  test('a gap in either count of a share leaves the share missing, naming both counts and what each cell said', () => {
    const row = austinWith('B25003_002E', null);
    const load = WORLD_ACS.load(reader([PLACE_HEADER, row, DALLAS]), texasMarkets);
    assert.equal(
      reasonOf(load, 'us-tx-austin', 'homeownershipRate'),
      'the share needs B25003_002E and B25002_002E; B25003_002E is null: the Census API has no data for this geography',
    );
    assert.equal(value(load, 'us-tx-austin', 'vacancyRate'), 5.6);
    const both = withCell(austinWith('B25002_003E', '-999999999'), PLACE_HEADER, 'B25001_001E', null);
    const gaps = WORLD_ACS.load(reader([PLACE_HEADER, both, DALLAS]), texasMarkets);
    assert.equal(
      reasonOf(gaps, 'us-tx-austin', 'vacancyRate'),
      "the share needs B25002_003E and B25001_001E; B25002_003E is -999999999: the Census API's annotation that the estimate cannot be displayed (too few sample cases in this area); B25001_001E is null: the Census API has no data for this geography",
    );
    assert.equal(reasonOf(gaps, 'us-tx-austin', 'housingUnits'), 'B25001_001E is null: the Census API has no data for this geography');
  });
  test('a place with no occupied home has no homeownership rate, and says why', () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, withCell(austinWith('B25002_002E', '0'), PLACE_HEADER, 'B25003_002E', '0'), DALLAS]), texasMarkets);
    assert.equal(reasonOf(load, 'us-tx-austin', 'homeownershipRate'), 'B25002_002E is 0: no occupied housing units to take a share of');
  });
  test("a share's part larger than its whole is refused with the file, line and cell: the answer cannot be right", () => {
    assertFixtureError(
      () => WORLD_ACS.load(reader([PLACE_HEADER, austinWith('B25003_002E', '456114'), DALLAS]), texasMarkets),
      'out_of_range',
      'census-acs-5yr/acs5-2024-detailed-place.json:2, column B25003_002E, at /1: B25003_002E (456114) is more than B25002_002E (456113), which holds it',
    );
  });
  test('a null median home value leaves it missing and the other metrics whole', () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, austinWith('B25077_001E', null), DALLAS]), texasMarkets);
    assert.equal(reasonOf(load, 'us-tx-austin', 'medianHomeValue'), 'B25077_001E is null: the Census API has no data for this geography');
    assert.equal(value(load, 'us-tx-austin', 'medianOwnerCostsWithMortgage'), 2679);
    assert.equal(load.missing.length, 1);
  });
});

describe('census-acs-5yr: layout', () => {
  test("columns in another order than the query's are refused: two swapped would serve each value under the other's name", () => {
    // Rent and owner costs are both dollars a month, and occupied and owner-occupied units both counts: no range tells them apart.
    for (const [a, b] of [
      ['B25064_001E', 'B25088_002E'],
      ['B25002_002E', 'B25003_002E'],
      ['state', 'NAME'],
    ] as const) {
      const i = PLACE_HEADER.indexOf(a);
      const j = PLACE_HEADER.indexOf(b);
      const swap = (row: Cells): Cells => row.map((c, k) => (k === i ? row[j] : k === j ? row[i] : c));
      const first = Math.min(i, j);
      assertFixtureError(
        () => WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS].map(swap)), texasMarkets),
        'bad_shape',
        `census-acs-5yr/acs5-2024-detailed-place.json:1, column ${PLACE_HEADER[first === i ? j : i] ?? ''}, at /0/${first}: header has "${PLACE_HEADER[first === i ? j : i] ?? ''}" as column ${first + 1}, where the query asked for "${PLACE_HEADER[first] ?? ''}": the columns must be those of the query, in its order, or a value would be read under another's name`,
      );
    }
  });
  test('a column the query did not ask for is refused', () => {
    const wider = (row: Cells, cell: unknown): Cells => [...row, cell];
    assertFixtureError(
      () => WORLD_ACS.load(reader([wider(PLACE_HEADER, 'B25003_003E'), wider(AUSTIN, '1'), wider(DALLAS, '1')]), texasMarkets),
      'bad_shape',
      'census-acs-5yr/acs5-2024-detailed-place.json:1, column B25003_003E, at /0/19: header has a column "B25003_003E" the query did not ask for',
    );
  });
  test('a second row for a market is an error naming the file, its line and the first one', () => {
    assertFixtureError(
      () => WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, OTHER, DALLAS, AUSTIN]), texasMarkets),
      'duplicate_row',
      /^census-acs-5yr\/acs5-2024-detailed-place\.json:5, at \/4: second row for state 48 place 05000 \(Austin city, Texas\); the first is on line 2$/,
    );
  });
  test('a header without a required column is an error naming the file and the column', () => {
    const header = PLACE_HEADER.filter((c) => c !== 'B25002_003E');
    assertFixtureError(
      () => WORLD_ACS.load(reader([header, AUSTIN.filter((_, i) => PLACE_HEADER[i] !== 'B25002_003E')]), texasMarkets),
      'missing_field',
      /^census-acs-5yr\/acs5-2024-detailed-place\.json:1, column B25002_003E, at \/0: header has no "B25002_003E" column$/,
    );
  });
  test('a short row is an error naming the file and the row, even for a place that is not a market', () => {
    assertFixtureError(
      () => WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, OTHER.slice(0, 18), DALLAS]), texasMarkets),
      'bad_shape',
      /^census-acs-5yr\/acs5-2024-detailed-place\.json:3, at \/2: row 2 has 18 cells; the header names 19 columns$/,
    );
  });
  test('a text that is not a number in a market row is an error naming the cell', () => {
    assertFixtureError(
      () => WORLD_ACS.load(reader([PLACE_HEADER, austinWith('B19013_001E', '91,461'), DALLAS]), texasMarkets),
      'not_numeric',
      /^census-acs-5yr\/acs5-2024-detailed-place\.json:2, column B19013_001E, at \/1: field "B19013_001E" must be a decimal number, got "91,461"$/,
    );
  });
  test('a cell that is neither a string nor null in a market row is an error naming the cell', () => {
    assertFixtureError(
      () => WORLD_ACS.load(reader([PLACE_HEADER, austinWith('B25064_001E', 1712), DALLAS]), texasMarkets),
      'bad_shape',
      'census-acs-5yr/acs5-2024-detailed-place.json:2, column B25064_001E, at /1: cell "B25064_001E" must be a string or null, got 1712',
    );
  });
  test("a market row without a name is an error naming the row's NAME cell", () => {
    assertFixtureError(
      () => WORLD_ACS.load(reader([PLACE_HEADER, austinWith('NAME', null), DALLAS]), texasMarkets),
      'missing_field',
      'census-acs-5yr/acs5-2024-detailed-place.json:2, column NAME, at /1: required field "NAME" is missing or empty',
    );
  });
  test('an empty array is an error naming the file', () => {
    assertFixtureError(
      () => WORLD_ACS.load(reader([]), texasMarkets),
      'bad_shape',
      'census-acs-5yr/acs5-2024-detailed-place.json:1: expected a Census API response: an array whose first row names the variables',
    );
  });
  const withPlaces =
    (text: string): ReadFixture =>
    (path) =>
      path === PLACES ? text : reader([PLACE_HEADER])(path);
  for (const [label, text] of [
    ['an object', `[{"NAME":"Austin city, Texas"},\n${JSON.stringify(AUSTIN)}]`],
    ['a row of names with a number among them', `[${JSON.stringify(PLACE_HEADER.map((c) => (c === 'state' ? 48 : c)))},\n${JSON.stringify(AUSTIN)}]`],
  ] as const) {
    test(`a first row that is ${label} is not a header: an error naming the file, line 1 and /0`, () => {
      assertFixtureError(
        () => WORLD_ACS.load(withPlaces(text), texasMarkets),
        'bad_shape',
        'census-acs-5yr/acs5-2024-detailed-place.json:1, at /0: the first row must be the header: an array of variable names',
      );
    });
  }
  test('a header that names a column twice is an error naming the column and its place in the header', () => {
    assertFixtureError(
      () =>
        WORLD_ACS.load(
          reader([
            [...PLACE_HEADER, 'NAME'],
            [...AUSTIN, 'Austin'],
          ]),
          texasMarkets,
        ),
      'bad_shape',
      'census-acs-5yr/acs5-2024-detailed-place.json:1, column NAME, at /0/19: header names "NAME" twice',
    );
  });
  for (const [label, bad] of [
    ['a null', null],
    ['a number', 7],
  ] as const) {
    test(`a row that is ${label} instead of an array is an error naming it, even between rows of other places`, () => {
      assertFixtureError(
        () => WORLD_ACS.load(reader([PLACE_HEADER, OTHER, bad, DALLAS]), texasMarkets),
        'bad_shape',
        `census-acs-5yr/acs5-2024-detailed-place.json:3, at /2: row 2 has ${label}; the header names 19 columns`,
      );
    });
  }
  test('a response that is not an array of rows is an error', () => {
    const read: ReadFixture = (path) => (path === PLACES ? '{"error":"unknown variable"}' : reader([PLACE_HEADER])(path));
    assertFixtureError(() => WORLD_ACS.load(read, texasMarkets), 'bad_shape', /acs5-2024-detailed-place\.json:1: expected a Census API response/);
  });
});

describe('census-acs-5yr: margins of error', () => {
  test("a published estimate carries the answer's margin of error (the …M cell), in the value's unit", () => {
    const load = WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS]), texasMarkets);
    assert.equal(margin(load, 'us-tx-austin', 'medianGrossRent'), 14);
    assert.equal(margin(load, 'us-tx-austin', 'medianHouseholdIncome'), 1670);
    assert.equal(margin(load, 'us-tx-austin', 'medianOwnerCostsWithMortgage'), 39);
    assert.equal(margin(load, 'us-tx-dallas', 'housingUnits'), 2921);
  });
  test('an annotation or a null in the margin cell leaves the estimate without a margin, and keeps the estimate', () => {
    for (const cell of ['-555555555', null]) {
      const load = WORLD_ACS.load(reader([PLACE_HEADER, austinWith('B25001_001M', cell), DALLAS]), texasMarkets);
      assert.equal(value(load, 'us-tx-austin', 'housingUnits'), 483071);
      assert.equal(margin(load, 'us-tx-austin', 'housingUnits'), undefined, String(cell));
      // The vacancy rate reads that margin too: its share is kept, without a margin.
      assert.equal(value(load, 'us-tx-austin', 'vacancyRate'), 5.6);
      assert.equal(margin(load, 'us-tx-austin', 'vacancyRate'), undefined, String(cell));
      assert.deepEqual(load.missing, []);
    }
  });
  test("a share's margin is the Census Bureau's approximation for derived proportions, from the margins of the two counts", () => {
    // Austin's homeownership rate: x = 198180 (mx 3375), y = 456113 (my 2401), p = 0.4345; mx² − p²·my² = 10302289 > 0,
    // so √(10302289) / y = 0.00704: 0.7 points. Vacancy: x = 26958 (1621), y = 483071 (2022), p = 0.0558: 0.3 points.
    const load = WORLD_ACS.load(reader([PLACE_HEADER, AUSTIN, DALLAS]), texasMarkets);
    assert.equal(margin(load, 'us-tx-austin', 'homeownershipRate'), 0.7);
    assert.equal(margin(load, 'us-tx-austin', 'vacancyRate'), 0.3);
    const near = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-12, `${a} is not ${b}`);
    // p = 0.3: √(8² − 0.3²·10²) / 100 = √55 / 100; p = 0.1: 1² − 0.1²·50² < 0, so √(1² + 0.1²·50²) / 100 = √26 / 100.
    near(proportionMargin(30, 8, 100, 10), 0.07416198487095663);
    near(proportionMargin(10, 1, 100, 50), 0.05099019513592785);
    // p = 0.5 and mx = p·my: the term under the root is exactly 0, so the margin is 0 (the subset formula still applies).
    assert.equal(proportionMargin(1, 1, 2, 2), 0);
  });
});

describe('census-acs-5yr: medians in an open-ended interval', () => {
  test('the note reads the edge from the value the API writes: one beyond a top edge, one below a bottom edge', () => {
    assert.equal(
      openEndedNote('B25077_001E', 2000001),
      'Published as "2,000,000+": the median lies in the open-ended top interval, so the Census API writes 2000001 and gives no margin of error; the true median is 2,000,000 or more.',
    );
    assert.equal(
      openEndedNote('B25064_001E', 99),
      'Published as "100-": the median lies in the open-ended bottom interval, so the Census API writes 99 and gives no margin of error; the true median is 100 or less.',
    );
    assert.equal(
      openEndedNote('B25064_001E', 3500),
      'B25064_001E lies in an open-ended interval (margin code -333333333): the Census Bureau publishes no margin of error for it.',
    );
  });
  test('a margin code of -333333333 gives the note; another code leaves the value without a margin and without a note', () => {
    const load = WORLD_ACS.load(
      reader([PLACE_HEADER, withCell(austinWith('B25077_001E', '2000001'), PLACE_HEADER, 'B25077_001M', '-333333333'), DALLAS]),
      texasMarkets,
    );
    assert.equal(value(load, 'us-tx-austin', 'medianHomeValue'), 2000001);
    assert.equal(margin(load, 'us-tx-austin', 'medianHomeValue'), undefined);
    assert.equal(load.notes.length, 1);
    assert.equal(load.notes[0]?.metricId, 'medianHomeValue');
    assert.deepEqual(observation(load, 'us-tx-austin', 'medianHomeValue')?.qualifier, {
      kind: 'open-ended',
      publishedAs: '2,000,000+',
      edge: 2000000,
      bound: 'lower',
    });
    const other = WORLD_ACS.load(reader([PLACE_HEADER, austinWith('B25077_001M', '-222222222'), DALLAS]), texasMarkets);
    assert.deepEqual(other.notes, []);
    assert.equal(observation(other, 'us-tx-austin', 'medianHomeValue')?.qualifier, undefined);
  });
  test('the qualifier says which bound the edge is: "100-" is at most 100, "250,000+" at least 250,000', () => {
    assert.deepEqual(openEndedQualifier(99), { kind: 'open-ended', publishedAs: '100-', edge: 100, bound: 'upper' });
    assert.deepEqual(openEndedQualifier(250001), { kind: 'open-ended', publishedAs: '250,000+', edge: 250000, bound: 'lower' });
  });
});
