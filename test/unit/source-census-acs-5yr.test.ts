// The Census ACS adapter reads the API's JSON responses for every place: other places skipped and counted, annotations and nulls as missing values with their reason, bad layouts as errors.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { synthetic } from '../../src/sources/synthetic.ts';
import { MARKETS } from '../../src/contract/markets.ts';
import { proportionMargin } from '../../src/sources/census-acs-5yr/adapter.ts';
import { censusAcs5yr } from '../../src/sources/census-acs-5yr/index.ts';
import type { ReadFixture, SourceLoad } from '../../src/sources/source.ts';
import { FIXTURE_FILES, fixtureReader } from '../support/data.ts';
import { assertFixtureError } from '../support/refused.ts';

const DETAILED = 'census-acs-5yr/acs5-2024-detailed-place.json';
const PROFILE = 'census-acs-5yr/acs5-2024-profile-place.json';
const RETRIEVAL = 'census-acs-5yr/retrieval.json';

/** The estimates the query asks for, each followed by its margin of error (…_001M) in the answer. */
const ESTIMATES = [
  'B25064_001E',
  'B19013_001E',
  'B25119_003E',
  'B25077_001E',
  'B25001_001E',
  'B25070_001E',
  'B25070_007E',
  'B25070_008E',
  'B25070_009E',
  'B25070_010E',
  'B25070_011E',
  'B25091_002E',
  'B25091_008E',
  'B25091_009E',
  'B25091_010E',
  'B25091_011E',
  'B25091_012E',
];
const marginOf = (estimate: string): string => `${estimate.slice(0, -1)}M`;
const DETAILED_HEADER = ['NAME', ...ESTIMATES.flatMap((e) => [e, marginOf(e)]), 'state', 'place'];
/** A row of the answer from its name, its estimates in ESTIMATES order with the margin after each, and its state and place. */
const answerRow = (name: unknown, cells: readonly (readonly [unknown, unknown])[], state: unknown, place: unknown): unknown[] => [
  name,
  ...cells.flat(),
  state,
  place,
];
// The Census Bureau's published 2020-2024 estimates and margins of median gross rent, median household income, median home
// value and housing units (fixtures/census-acs-5yr/README.md); the other cells as the fixture has them.
// prettier-ignore
const AUSTIN = answerRow('Austin city, Texas', [['1729', '14'], ['93658', '1670'], ['73800', '4428'], ['555300', '8017'], ['483071', '2022'], ['256431', '15386'], ['27654', '1659'], ['20133', '1208'], ['24467', '1468'], ['58213', '3493'], ['6211', '373'], ['120270', '7216'], ['8381', '503'], ['5277', '317'], ['6208', '372'], ['11175', '670'], ['880', '53']], '48', '05000');
// prettier-ignore
const DALLAS = answerRow('Dallas city, Texas', [['1472', '9'], ['70518', '817'], ['52400', '3144'], ['320700', '5461'], ['590237', '2921'], ['308614', '18517'], ['24317', '1459'], ['18826', '1130'], ['25093', '1506'], ['75912', '4555'], ['9817', '589'], ['150340', '9020'], ['12081', '725'], ['7607', '456'], ['8949', '537'], ['16108', '966'], ['1190', '71']], '48', '19000');
// prettier-ignore
const OTHER = answerRow('Abbeville city, Alabama', [['-666666666', '-222222222'], [null, null], ['-666666666', '-222222222'], ['-666666666', '-222222222'], ['1214', '73'], ['402', '24'], ['0', '1'], ['0', '1'], ['0', '1'], ['0', '1'], ['402', '24'], ['0', '1'], ['0', '1'], ['0', '1'], ['0', '1'], ['0', '1'], ['0', '1']], '01', '00124');
const PROFILE_HEADER = ['NAME', 'DP04_0005E', 'DP04_0005M', 'state', 'place'];
const STATE = DETAILED_HEADER.indexOf('state');
const PLACE = DETAILED_HEADER.indexOf('place');

type Cells = readonly unknown[];
const response = (rows: readonly unknown[]): string => `[${rows.map((r) => JSON.stringify(r)).join(',\n')}]`;
const austinMarkets = MARKETS.filter((m) => m.id === 'us-tx-austin' || m.id === 'us-tx-dallas');

/** A reader over a small in-memory pair of responses (profile defaults to Austin and Dallas only; retrieval.json to the fixture's). */
function reader(detailed: readonly unknown[], profile?: readonly Cells[], retrieval = FIXTURE_FILES.get(RETRIEVAL) ?? ''): ReadFixture {
  const files = new Map([
    [DETAILED, response(detailed)],
    [PROFILE, response(profile ?? [PROFILE_HEADER, ['Austin city, Texas', '7.2', '0.4', '48', '05000'], ['Dallas city, Texas', '7.6', '0.5', '48', '19000']])],
    [RETRIEVAL, retrieval],
  ]);
  return (path) => {
    const text = files.get(path);
    if (text === undefined) throw new Error(`no fixture ${path}`);
    return text;
  };
}

const value = (load: SourceLoad, marketId: string, metricId: string): number | undefined =>
  load.observations.find((o) => o.marketId === marketId && o.metricId === metricId)?.value;
const reasonOf = (load: SourceLoad, marketId: string, metricId: string): string | undefined =>
  load.missing.find((m) => m.marketId === marketId && m.metricId === metricId)?.reason;

/** Austin's row with one cell replaced. */
const austinWith = (field: string, cell: unknown): Cells => AUSTIN.map((c, i) => (DETAILED_HEADER[i] === field ? cell : c));

describe('census-acs-5yr: the real fixture', () => {
  const load = censusAcs5yr.load(fixtureReader(), MARKETS);
  test('reads the sixteen markets among 320 other places, with the vintage as asOf and the release date of January 2026', () => {
    assert.equal(value(load, 'us-tx-austin', 'medianGrossRent'), 1729);
    assert.equal(value(load, 'us-tx-austin', 'medianHouseholdIncome'), 93658);
    assert.equal(value(load, 'us-tx-austin', 'housingUnits'), 483071);
    assert.equal(value(load, 'us-tx-austin', 'rentalVacancyRate'), 7.2);
    assert.equal(value(load, 'us-tx-austin', 'medianRenterIncome'), 73800);
    assert.equal(value(load, 'us-tx-austin', 'medianHomeValue'), 555300);
    assert.equal(value(load, 'us-ny-new-york', 'housingUnits'), 3678486);
    assert.equal(value(load, 'us-ga-atlanta', 'rentalVacancyRate'), 8.1);
    assert.equal(load.observations.find((o) => o.marketId === 'us-tx-austin')?.asOf, '2020-2024');
    assert.equal(load.source.latestReleaseDate, '2026-01-29');
    assert.equal(load.source.latestRetrievedAt, '2026-11-24');
    for (const m of MARKETS) assert.equal(load.observations.filter((o) => o.marketId === m.id).length, 8, m.id);
    assert.equal(load.skipped, 640);
    assert.deepEqual(load.missing, []);
  });
  test('derives the rent burden from B25070 and rounds it to one decimal', () => {
    // (27654 + 20133 + 24467 + 58213) / (256431 - 6211) × 100 = 52.14…
    assert.equal(value(load, 'us-tx-austin', 'rentBurden'), 52.1);
  });
  test('derives the owner cost burden from B25091 and rounds it to one decimal', () => {
    // (8381 + 5277 + 6208 + 11175) / (120270 - 880) × 100 = 25.99…
    assert.equal(value(load, 'us-tx-austin', 'ownerCostBurden'), 26);
  });
  test("each observation names the line of its market's row", () => {
    const austin = load.observations.find((o) => o.marketId === 'us-tx-austin' && o.metricId === 'medianGrossRent');
    const line = (FIXTURE_FILES.get(DETAILED) ?? '').split('\n').findIndex((l) => l.startsWith('["Austin city, Texas"')) + 1;
    assert.ok(line > 1, 'line > 1');
    assert.deepEqual(austin?.origin, { file: DETAILED, line });
  });
  test('asks the API for every place of every state, for the 2024 vintage, in both responses', () => {
    assert.deepEqual(
      censusAcs5yr.remote.map((r) => r.file),
      [DETAILED, PROFILE],
    );
    const [detailed, profile] = censusAcs5yr.remote.map((r) => new URL(r.url));
    assert.equal(detailed?.href.split('?')[0], 'https://api.census.gov/data/2024/acs/acs5');
    assert.equal(
      detailed?.searchParams.get('get'),
      'NAME,B25064_001E,B25064_001M,B19013_001E,B19013_001M,B25119_003E,B25119_003M,B25077_001E,B25077_001M,B25001_001E,B25001_001M,B25070_001E,B25070_001M,B25070_007E,B25070_007M,B25070_008E,B25070_008M,B25070_009E,B25070_009M,B25070_010E,B25070_010M,B25070_011E,B25070_011M,B25091_002E,B25091_002M,B25091_008E,B25091_008M,B25091_009E,B25091_009M,B25091_010E,B25091_010M,B25091_011E,B25091_011M,B25091_012E,B25091_012M',
    );
    assert.equal(profile?.href.split('?')[0], 'https://api.census.gov/data/2024/acs/acs5/profile');
    assert.equal(profile?.searchParams.get('get'), 'NAME,DP04_0005E,DP04_0005M');
    for (const url of [detailed, profile]) {
      assert.equal(url?.searchParams.get('for'), 'place:*');
      assert.equal(url?.searchParams.get('in'), 'state:*');
    }
    assert.equal(censusAcs5yr.vintageOf?.(fixtureReader()), '2020-2024');
  });
  test('reads the two responses and retrieval.json, and nothing else', () => {
    assert.deepEqual(censusAcs5yr.files, [DETAILED, PROFILE, RETRIEVAL]);
    assert.equal(censusAcs5yr.sourceId, 'census-acs-5yr');
  });
  test("attributes the values to the Census Bureau's ACS 5-year estimates, naming the tables, with retrieval.json's dates", () => {
    assert.deepEqual(load.source, {
      sourceId: 'census-acs-5yr',
      sourceName: 'American Community Survey 5-year estimates',
      agency: 'U.S. Census Bureau',
      datasetName: 'ACS 5-year estimates 2020-2024: tables B25064, B19013, B25119, B25077, B25001, B25070, B25091 and profile DP04',
      sourceUrl: 'https://www.census.gov/programs-surveys/acs',
      confidence: 'medium',
      updateFrequency: 'annually',
      provenance: 'fixture',
      latestReleaseDate: '2026-01-29',
      latestRetrievedAt: '2026-11-24',
    });
  });
  test("carries retrieval.json's notice of which metrics are illustrative, and marks exactly those values, without a margin", () => {
    assert.equal(
      load.illustrative,
      "The sixteen markets' median renter household income (B25119), rent burden (B25070), owner cost burden (B25091) and rental vacancy rate (DP04) are illustrative: no public copy of those 2020-2024 estimates was found. Their median gross rent, median household income, median home value and housing units, with margins of error, are the Census Bureau's published 2020-2024 estimates; the rows of other places are made up.",
    );
    const illustrative = ['medianRenterIncome', 'rentBurden', 'ownerCostBurden', 'rentalVacancyRate'];
    for (const o of load.observations) {
      assert.equal(o.illustrative, illustrative.includes(o.metricId) ? true : undefined, `${o.marketId} ${o.metricId}`);
      assert.equal(o.marginOfError === undefined, illustrative.includes(o.metricId), `${o.marketId} ${o.metricId}: a margin only on published values`);
    }
  });
  test('an observation names the place as the API does, its FIPS codes and state, the vintage, the source and its line', () => {
    assert.deepEqual(
      load.observations.find((o) => o.marketId === 'us-tx-austin' && o.metricId === 'medianGrossRent'),
      {
        marketId: 'us-tx-austin',
        metricId: 'medianGrossRent',
        value: 1729,
        marginOfError: 14,
        asOf: '2020-2024',
        sourceId: 'census-acs-5yr',
        boundary: { level: 'place', name: 'Austin city, Texas', codes: { stateFips: '48', placeFips: '05000' }, states: ['TX'] },
        origin: { file: DETAILED, line: 287 },
      },
    );
    assert.deepEqual(load.observations.find((o) => o.marketId === 'us-tx-austin' && o.metricId === 'rentalVacancyRate')?.origin, { file: PROFILE, line: 287 });
  });
});

describe('census-acs-5yr: the illustrative notice', () => {
  test('is absent when retrieval.json has none, as after a real fetch', () => {
    const load = censusAcs5yr.load(
      reader([DETAILED_HEADER, AUSTIN, DALLAS], undefined, '{"vintage":"2020-2024","latestReleaseDate":"2026-01-29"}'),
      austinMarkets,
    );
    assert.equal('illustrative' in load, false);
    assert.deepEqual(load.source.latestReleaseDate, '2026-01-29');
    assert.equal('latestRetrievedAt' in load.source, false);
    assert.equal(value(load, 'us-tx-austin', 'medianGrossRent'), 1729);
  });
});

describe('census-acs-5yr: places that are not markets', () => {
  test('are skipped and counted in both responses, whatever their cells hold', () => {
    const load = censusAcs5yr.load(
      reader(
        [DETAILED_HEADER, OTHER, AUSTIN, ['Odd place', 'n/a', '', ...Array<null>(DETAILED_HEADER.length - 5).fill(null), '48', '99990'], DALLAS],
        [PROFILE_HEADER, ['Abbeville city, Alabama', '-888888888', '-222222222', '01', '00124'], ['Austin city, Texas', '7.2', '0.4', '48', '05000']],
      ),
      austinMarkets,
    );
    assert.equal(load.skipped, 3);
    assert.equal(value(load, 'us-tx-austin', 'medianGrossRent'), 1729);
    assert.equal(value(load, 'us-tx-dallas', 'medianGrossRent'), 1472);
    assert.deepEqual(load.missing, []);
  });
  test("a row whose state or place cell is not a string is not a market's row, even if it would print as the market's codes", () => {
    const codes = (state: unknown, place: unknown): Cells => AUSTIN.map((c, i) => (i === STATE ? state : i === PLACE ? place : c));
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, codes(48, '05000'), codes('48', ['05000']), DALLAS]), austinMarkets);
    assert.equal(load.skipped, 2);
    assert.deepEqual(
      load.observations.filter((o) => o.marketId === 'us-tx-austin').map((o) => o.metricId),
      ['rentalVacancyRate'],
    );
    assert.equal(value(load, 'us-tx-dallas', 'medianGrossRent'), 1472);
  });
  test('thousands of other places around the sixteen markets change none of their values', () => {
    const plain = censusAcs5yr.load(fixtureReader(), MARKETS);
    const files = censusAcs5yr.synthetic.withOthers(FIXTURE_FILES, 5000);
    const national = censusAcs5yr.load((path) => files.get(path) ?? '', MARKETS);
    assert.equal(national.skipped, plain.skipped + 10000);
    const values = (load: SourceLoad): string[] => load.observations.map((o) => `${o.marketId} ${o.metricId} ${o.value}`).sort();
    assert.deepEqual(values(national), values(plain));
  });
  test('synthetic markets read the same with other places interleaved in the API order', () => {
    const { markets } = synthetic(40);
    const files = censusAcs5yr.synthetic.files(markets.map((market, i) => ({ i, market })));
    const alone = censusAcs5yr.load((p) => files.get(p) ?? '', markets);
    const crowded = censusAcs5yr.synthetic.withOthers(files, 300);
    const around = censusAcs5yr.load((p) => crowded.get(p) ?? '', markets);
    assert.equal(around.observations.length, 320);
    assert.equal(around.skipped, 600);
    assert.deepEqual(
      around.observations.map((o) => o.value),
      alone.observations.map((o) => o.value),
    );
  });
});

describe('census-acs-5yr: values a market row leaves out', () => {
  const cases: [string, string | null, string][] = [
    ['null', null, 'B25064_001E is null: the Census API has no data for this place'],
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
    ['another negative value', '-1', 'B25064_001E is -1: a negative annotation value, not an estimate'],
  ];
  for (const [label, cell, reason] of cases) {
    test(`${label} in a market's rent leaves that metric missing with its reason and keeps the rest of the row`, () => {
      const load = censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('B25064_001E', cell), DALLAS]), austinMarkets);
      assert.equal(value(load, 'us-tx-austin', 'medianGrossRent'), undefined);
      assert.deepEqual(load.missing, [{ marketId: 'us-tx-austin', metricId: 'medianGrossRent', reason, origin: { file: DETAILED, line: 2 } }]);
      assert.equal(value(load, 'us-tx-austin', 'medianHouseholdIncome'), 93658);
      assert.equal(value(load, 'us-tx-austin', 'housingUnits'), 483071);
      assert.equal(value(load, 'us-tx-austin', 'rentBurden'), 52.1);
      assert.equal(value(load, 'us-tx-austin', 'rentalVacancyRate'), 7.2);
    });
  }
  test('an annotation value padded with spaces is still that annotation, and the reason names it without the padding', () => {
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('B25064_001E', ' -666666666 '), DALLAS]), austinMarkets);
    assert.equal(
      reasonOf(load, 'us-tx-austin', 'medianGrossRent'),
      "B25064_001E is -666666666: the Census API's annotation that the estimate could not be computed (too few sample observations, or a median in an open-ended interval)",
    );
  });
  test('another negative value padded with spaces is named without the padding', () => {
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('B25077_001E', ' -1 '), DALLAS]), austinMarkets);
    assert.equal(reasonOf(load, 'us-tx-austin', 'medianHomeValue'), 'B25077_001E is -1: a negative annotation value, not an estimate');
  });
  test('zero is a value, not an annotation: no renter household at 30 % or more gives a rent burden of 0', () => {
    const row = AUSTIN.map((c, i) => (['B25070_007E', 'B25070_008E', 'B25070_009E', 'B25070_010E'].includes(DETAILED_HEADER[i] ?? '') ? '0' : c));
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, row, DALLAS]), austinMarkets);
    assert.equal(value(load, 'us-tx-austin', 'rentBurden'), 0);
    assert.deepEqual(load.missing, []);
  });
  test('two gaps among the B25070 inputs are both named, in column order', () => {
    const row = AUSTIN.map((c, i) => (DETAILED_HEADER[i] === 'B25070_007E' ? null : DETAILED_HEADER[i] === 'B25070_011E' ? '-888888888' : c));
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, row, DALLAS]), austinMarkets);
    assert.equal(
      reasonOf(load, 'us-tx-austin', 'rentBurden'),
      "the rent burden needs all of B25070_001E, _007E to _010E and _011E; B25070_007E is null: the Census API has no data for this place; B25070_011E is -888888888: the Census API's annotation that the estimate is not applicable or not available",
    );
  });
  test('a sentinel in one B25070 input leaves the rent burden missing, naming that input', () => {
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('B25070_009E', '-999999999'), DALLAS]), austinMarkets);
    assert.equal(value(load, 'us-tx-austin', 'rentBurden'), undefined);
    assert.equal(
      reasonOf(load, 'us-tx-austin', 'rentBurden'),
      "the rent burden needs all of B25070_001E, _007E to _010E and _011E; B25070_009E is -999999999: the Census API's annotation that the estimate cannot be displayed (too few sample cases in this area)",
    );
    assert.equal(value(load, 'us-tx-austin', 'medianGrossRent'), 1729);
    assert.equal(value(load, 'us-tx-dallas', 'rentBurden'), 48.2);
    assert.equal(load.missing.length, 1);
  });
  test('a null B25070 total leaves the rent burden missing, naming it', () => {
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('B25070_001E', null), DALLAS]), austinMarkets);
    assert.equal(
      reasonOf(load, 'us-tx-austin', 'rentBurden'),
      'the rent burden needs all of B25070_001E, _007E to _010E and _011E; B25070_001E is null: the Census API has no data for this place',
    );
  });
  test('a place whose renters are all "not computed" has no rent burden, and says why', () => {
    const row = AUSTIN.map((c, i) => (DETAILED_HEADER[i] === 'B25070_011E' ? '256431' : c));
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, row, DALLAS]), austinMarkets);
    assert.equal(
      reasonOf(load, 'us-tx-austin', 'rentBurden'),
      'B25070_001E (256431) less B25070_011E (256431) leaves no renter household whose burden was computed',
    );
  });
  test('a sentinel in one B25091 input leaves the owner cost burden missing, naming that input, and keeps the rent burden', () => {
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('B25091_010E', '-666666666'), DALLAS]), austinMarkets);
    assert.equal(value(load, 'us-tx-austin', 'ownerCostBurden'), undefined);
    assert.equal(
      reasonOf(load, 'us-tx-austin', 'ownerCostBurden'),
      "the owner cost burden needs all of B25091_002E, _008E to _011E and _012E; B25091_010E is -666666666: the Census API's annotation that the estimate could not be computed (too few sample observations, or a median in an open-ended interval)",
    );
    assert.equal(value(load, 'us-tx-austin', 'rentBurden'), 52.1);
    assert.equal(value(load, 'us-tx-dallas', 'ownerCostBurden'), 30);
  });
  test('a place with no owner with a mortgage whose burden was computed has no owner cost burden, and says why', () => {
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('B25091_012E', '120270'), DALLAS]), austinMarkets);
    assert.equal(
      reasonOf(load, 'us-tx-austin', 'ownerCostBurden'),
      'B25091_002E (120270) less B25091_012E (120270) leaves no owner household with a mortgage whose burden was computed',
    );
  });
  test('a null median home value leaves it missing and the renter metrics whole', () => {
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('B25077_001E', null), DALLAS]), austinMarkets);
    assert.equal(reasonOf(load, 'us-tx-austin', 'medianHomeValue'), 'B25077_001E is null: the Census API has no data for this place');
    assert.equal(value(load, 'us-tx-austin', 'medianRenterIncome'), 73800);
  });
  test('a sentinel in the profile leaves the rental vacancy rate missing, on the profile line', () => {
    const load = censusAcs5yr.load(
      reader(
        [DETAILED_HEADER, AUSTIN, DALLAS],
        [PROFILE_HEADER, ['Austin city, Texas', '7.2', '0.4', '48', '05000'], ['Dallas city, Texas', '-888888888', '-222222222', '48', '19000']],
      ),
      austinMarkets,
    );
    assert.deepEqual(load.missing, [
      {
        marketId: 'us-tx-dallas',
        metricId: 'rentalVacancyRate',
        reason: "DP04_0005E is -888888888: the Census API's annotation that the estimate is not applicable or not available",
        origin: { file: PROFILE, line: 3 },
      },
    ]);
    assert.equal(value(load, 'us-tx-austin', 'rentalVacancyRate'), 7.2);
  });
  test('a profile percentage with more decimals is rounded to one', () => {
    const load = censusAcs5yr.load(
      reader([DETAILED_HEADER, AUSTIN, DALLAS], [PROFILE_HEADER, ['Austin city, Texas', '7.25', '0.35', '48', '05000']]),
      austinMarkets,
    );
    assert.equal(value(load, 'us-tx-austin', 'rentalVacancyRate'), 7.3);
  });
});

describe('census-acs-5yr: layout', () => {
  test('columns in another order read the same', () => {
    // The geography first, then NAME, then the variables backwards.
    const order = [STATE, PLACE, 0, ...Array.from({ length: STATE - 1 }, (_, i) => STATE - 1 - i)];
    const shuffle = (row: Cells): Cells => order.map((i) => row[i] ?? null);
    const load = censusAcs5yr.load(
      reader([DETAILED_HEADER, AUSTIN, DALLAS].map(shuffle), [
        ['state', 'DP04_0005M', 'DP04_0005E', 'place', 'NAME'],
        ['48', '0.4', '7.2', '05000', 'Austin city, Texas'],
        ['48', '0.5', '7.6', '19000', 'Dallas city, Texas'],
      ]),
      austinMarkets,
    );
    const plain = censusAcs5yr.load(reader([DETAILED_HEADER, AUSTIN, DALLAS]), austinMarkets);
    assert.deepEqual(load.observations, plain.observations);
    assert.equal(value(load, 'us-tx-austin', 'rentBurden'), 52.1);
    assert.equal(value(load, 'us-tx-dallas', 'rentalVacancyRate'), 7.6);
  });
  test('a second row for a market is an error naming the file, its line and the first one', () => {
    assertFixtureError(
      () => censusAcs5yr.load(reader([DETAILED_HEADER, AUSTIN, OTHER, DALLAS, AUSTIN]), austinMarkets),
      'duplicate_row',
      /^census-acs-5yr\/acs5-2024-detailed-place\.json:5, at \/4: second row for state 48 place 05000 \(Austin city, Texas\); the first is on line 2$/,
    );
  });
  test('a header without a required column is an error naming the file and the column', () => {
    const header = DETAILED_HEADER.filter((c) => c !== 'B25070_010E');
    assertFixtureError(
      () => censusAcs5yr.load(reader([header, AUSTIN.filter((_, i) => DETAILED_HEADER[i] !== 'B25070_010E')]), austinMarkets),
      'missing_field',
      /^census-acs-5yr\/acs5-2024-detailed-place\.json:1, column B25070_010E, at \/0: header has no "B25070_010E" column$/,
    );
  });
  test('a short row is an error naming the file and the row, even for a place that is not a market', () => {
    assertFixtureError(
      () => censusAcs5yr.load(reader([DETAILED_HEADER, AUSTIN, OTHER.slice(0, 36), DALLAS]), austinMarkets),
      'bad_shape',
      /^census-acs-5yr\/acs5-2024-detailed-place\.json:3, at \/2: row 2 has 36 cells; the header names 37 columns$/,
    );
  });
  test('a text that is not a number in a market row is an error naming the cell', () => {
    assertFixtureError(
      () => censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('B19013_001E', '91,461'), DALLAS]), austinMarkets),
      'not_numeric',
      /^census-acs-5yr\/acs5-2024-detailed-place\.json:2, column B19013_001E, at \/1: field "B19013_001E" must be a decimal number, got "91,461"$/,
    );
  });
  test('a cell that is neither a string nor null in a market row is an error naming the cell', () => {
    assertFixtureError(
      () => censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('B25064_001E', 1712), DALLAS]), austinMarkets),
      'bad_shape',
      'census-acs-5yr/acs5-2024-detailed-place.json:2, column B25064_001E, at /1: cell "B25064_001E" must be a string or null, got 1712',
    );
  });
  test("a market row without a name is an error naming the row's NAME cell", () => {
    assertFixtureError(
      () => censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('NAME', null), DALLAS]), austinMarkets),
      'missing_field',
      'census-acs-5yr/acs5-2024-detailed-place.json:2, column NAME, at /1: required field "NAME" is missing or empty',
    );
  });
  test('an empty array is an error naming the file', () => {
    assertFixtureError(
      () => censusAcs5yr.load(reader([]), austinMarkets),
      'bad_shape',
      'census-acs-5yr/acs5-2024-detailed-place.json: expected a Census API response: an array whose first row names the variables',
    );
  });
  const withDetailed =
    (text: string): ReadFixture =>
    (path) =>
      path === DETAILED ? text : reader([DETAILED_HEADER])(path);
  for (const [label, text] of [
    ['an object', `[{"NAME":"Austin city, Texas"},\n${JSON.stringify(AUSTIN)}]`],
    ['a row of names with a number among them', `[${JSON.stringify(DETAILED_HEADER.map((c) => (c === 'state' ? 48 : c)))},\n${JSON.stringify(AUSTIN)}]`],
  ] as const) {
    test(`a first row that is ${label} is not a header: an error naming the file, line 1 and /0`, () => {
      assertFixtureError(
        () => censusAcs5yr.load(withDetailed(text), austinMarkets),
        'bad_shape',
        'census-acs-5yr/acs5-2024-detailed-place.json:1, at /0: the first row must be the header: an array of variable names',
      );
    });
  }
  test('a header that names a column twice is an error naming the column and its place in the header', () => {
    assertFixtureError(
      () =>
        censusAcs5yr.load(
          reader([
            [...DETAILED_HEADER, 'NAME'],
            [...AUSTIN, 'Austin'],
          ]),
          austinMarkets,
        ),
      'bad_shape',
      'census-acs-5yr/acs5-2024-detailed-place.json:1, column NAME, at /0/37: header names "NAME" twice',
    );
  });
  for (const [label, bad] of [
    ['a null', null],
    ['a number', 7],
  ] as const) {
    test(`a row that is ${label} instead of an array is an error naming it, even between rows of other places`, () => {
      assertFixtureError(
        () => censusAcs5yr.load(reader([DETAILED_HEADER, OTHER, bad, DALLAS]), austinMarkets),
        'bad_shape',
        `census-acs-5yr/acs5-2024-detailed-place.json:3, at /2: row 2 has ${label}; the header names 37 columns`,
      );
    });
  }
  test('a response that is not an array of rows is an error', () => {
    const read: ReadFixture = (path) => (path === DETAILED ? '{"error":"unknown variable"}' : reader([DETAILED_HEADER])(path));
    assertFixtureError(() => censusAcs5yr.load(read, austinMarkets), 'bad_shape', /acs5-2024-detailed-place\.json: expected a Census API response/);
  });
});

describe('census-acs-5yr: margins of error', () => {
  const PUBLISHED = '{"vintage":"2020-2024","latestReleaseDate":"2026-01-29","latestRetrievedAt":"2026-11-24"}';
  const margin = (load: SourceLoad, marketId: string, metricId: string): number | undefined =>
    load.observations.find((o) => o.marketId === marketId && o.metricId === metricId)?.marginOfError;
  test("a published estimate carries the answer's margin of error (the …M cell), in the value's unit and precision", () => {
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, AUSTIN, DALLAS], undefined, PUBLISHED), austinMarkets);
    assert.equal(margin(load, 'us-tx-austin', 'medianGrossRent'), 14);
    assert.equal(margin(load, 'us-tx-austin', 'medianHouseholdIncome'), 1670);
    assert.equal(margin(load, 'us-tx-dallas', 'housingUnits'), 2921);
    assert.equal(margin(load, 'us-tx-austin', 'rentalVacancyRate'), 0.4);
  });
  test('an annotation or a null in the margin cell leaves the estimate without a margin, and keeps the estimate', () => {
    for (const cell of ['-555555555', null]) {
      const load = censusAcs5yr.load(reader([DETAILED_HEADER, austinWith('B25001_001M', cell), DALLAS], undefined, PUBLISHED), austinMarkets);
      assert.equal(value(load, 'us-tx-austin', 'housingUnits'), 483071);
      assert.equal(margin(load, 'us-tx-austin', 'housingUnits'), undefined, String(cell));
      assert.deepEqual(load.missing, []);
    }
    // The same for a value the adapter rounds (the vacancy rate, to one decimal): no margin, not a rounded nothing.
    const load = censusAcs5yr.load(
      reader([DETAILED_HEADER, AUSTIN, DALLAS], [PROFILE_HEADER, ['Austin city, Texas', '7.2', null, '48', '05000']], PUBLISHED),
      austinMarkets,
    );
    assert.equal(value(load, 'us-tx-austin', 'rentalVacancyRate'), 7.2);
    assert.equal(margin(load, 'us-tx-austin', 'rentalVacancyRate'), undefined);
  });
  test("a share's margin is the Census Bureau's approximation for derived proportions, from the margins of the rows it reads", () => {
    // Austin's rent burden: x = 27654 + 20133 + 24467 + 58213 = 130467 with mx = √(1659² + 1208² + 1468² + 3493²) = 4309.0;
    // y = 256431 − 6211 = 250220 with my = √(15386² + 373²) = 15390.5; p = 0.5214. mx² − p²·my² is negative, so the ratio
    // formula: √(mx² + p²·my²) / y = 0.0364, 3.6 points.
    const load = censusAcs5yr.load(reader([DETAILED_HEADER, AUSTIN, DALLAS], undefined, PUBLISHED), austinMarkets);
    assert.equal(margin(load, 'us-tx-austin', 'rentBurden'), 3.6);
    const near = (a: number, b: number): void => assert.ok(Math.abs(a - b) < 1e-12, `${a} is not ${b}`);
    // p = 0.3: √(8² − 0.3²·10²) / 100 = √55 / 100; p = 0.1: 1² − 0.1²·50² < 0, so √(1² + 0.1²·50²) / 100 = √26 / 100.
    near(proportionMargin(30, 8, 100, 10), 0.07416198487095663);
    near(proportionMargin(10, 1, 100, 50), 0.05099019513592785);
    // p = 0.5 and mx = p·my: the term under the root is exactly 0, so the margin is 0 (the subset formula still applies).
    assert.equal(proportionMargin(1, 1, 2, 2), 0);
  });
  test('a share without a margin in any one of its six rows has none', () => {
    const shares = [
      ['rentBurden', ['B25070_001M', 'B25070_007M', 'B25070_008M', 'B25070_009M', 'B25070_010M', 'B25070_011M']],
      ['ownerCostBurden', ['B25091_002M', 'B25091_008M', 'B25091_009M', 'B25091_010M', 'B25091_011M', 'B25091_012M']],
    ] as const;
    for (const [metricId, fields] of shares) {
      const published = censusAcs5yr.load(reader([DETAILED_HEADER, AUSTIN, DALLAS], undefined, PUBLISHED), austinMarkets);
      assert.notEqual(margin(published, 'us-tx-austin', metricId), undefined, `${metricId}: a margin when every row has one`);
      for (const field of fields) {
        const load = censusAcs5yr.load(reader([DETAILED_HEADER, austinWith(field, null), DALLAS], undefined, PUBLISHED), austinMarkets);
        assert.equal(value(load, 'us-tx-austin', metricId), value(published, 'us-tx-austin', metricId), `${field}: the share is kept`);
        assert.equal(margin(load, 'us-tx-austin', metricId), undefined, `${field} null: no margin`);
      }
    }
  });
  test('a source whose values are all published keeps its confidence; one with some illustrative ones claims at most medium', () => {
    assert.equal(censusAcs5yr.load(reader([DETAILED_HEADER, AUSTIN, DALLAS], undefined, PUBLISHED), austinMarkets).source.confidence, 'high');
    assert.equal(censusAcs5yr.load(reader([DETAILED_HEADER, AUSTIN, DALLAS]), austinMarkets).source.confidence, 'medium');
    const all = '{"vintage":"2020-2024","latestReleaseDate":"2026-01-29","illustrative":"Every value is illustrative."}';
    assert.equal(censusAcs5yr.load(reader([DETAILED_HEADER, AUSTIN, DALLAS], undefined, all), austinMarkets).source.confidence, 'low');
  });
});
