// Metrics derived from two others of their source (src/sources/derive.ts): the ratio and its margin worked by hand, the comparisons and series both operands have, every reason a market has none, the range; and a metric set of its own (withMetrics).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FixtureError, InvariantError } from '../../src/contract/errors.ts';
import { inputRatio, scoreInputs } from '../../src/methodology/scores.ts';
import { tablesOf } from '../../src/sources/census-acs-5yr/format.ts';
import { acsQueries, censusAcs5yr } from '../../src/sources/census-acs-5yr/index.ts';
import { checkedLoad } from '../../src/sources/checks.ts';
import { ratioMargin, ratioValue } from '../../src/sources/derive.ts';
import { withMetrics, type MetricSpec, type SourceLoad, type SourceModule } from '../../src/sources/source.ts';
import { fixtureReader } from '../support/data.ts';
import { WORLD_ACS, WORLD_FHFA, WORLD_MARKETS } from '../world/world.ts';

const near = (actual: number | undefined, expected: number): void =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-9, `${actual} ≈ ${expected}`);

/** A derived metric of the world's ACS source, as a source module defines one. */
const ratioMetric = (id: string, numerator: string, denominator: string, range: readonly [number, number] = [0, 100]): MetricSpec => ({
  id,
  label: `${id}, %`,
  shortLabel: id,
  noun: id,
  unit: '%',
  decimals: 1,
  range,
  required: false,
  definition: `Twelve months of ${numerator} as a share of ${denominator}.`,
  margin: "The Census Bureau's approximation for a derived ratio, from the two published margins.",
  derived: { numerator, denominator, before: 12, after: 100 },
});

const RENT = ratioMetric('rentToIncomeRatio', 'medianGrossRent', 'medianHouseholdIncome');
const OWNER = ratioMetric('ownerCostsToIncomeRatio', 'medianOwnerCostsWithMortgage', 'medianHouseholdIncome');
const withRatios = (metrics: readonly MetricSpec[] = [RENT, OWNER]): SourceModule => ({ ...WORLD_ACS, metrics: [...WORLD_ACS.metrics, ...metrics] });

const find = <T extends { marketId: string; metricId: string }>(items: readonly T[], marketId: string, metricId: string): T | undefined =>
  items.find((x) => x.marketId === marketId && x.metricId === metricId);

describe('a ratio and its margin', () => {
  test('before × numerator ÷ denominator × after, only with both finite and a positive denominator', () => {
    const rentToIncome = { numerator: 'r', denominator: 'i', before: 12, after: 100 };
    // Austin: 12 × 1,729 ÷ 93,658 × 100 = 22.1529…
    near(ratioValue(rentToIncome, 1729, 93658), 22.15293941788208);
    near(ratioValue({ numerator: 'v', denominator: 'i' }, 555300, 93658), 5.929018343334259);
    for (const [n, d] of [
      [undefined, 1],
      [1, undefined],
      [Number.NaN, 1],
      [1, Number.POSITIVE_INFINITY],
      [1, 0],
      [1, -5],
    ] as const)
      assert.equal(ratioValue(rentToIncome, n, d), undefined, `${n} / ${d}`);
  });
  test("the Census Bureau's margin of a ratio: √(mx² + R²·my²) / y", () => {
    // Austin's rent 1,729 ± 14 over income 93,658 ± 1,670: R = 0.018461…, √(196 + R²·2,788,900) / 93,658 = 0.000361521…
    near(ratioMargin(1729, 14, 93658, 1670), 0.0003615216365490375);
    near(ratioMargin(30, 0, 100, 0), 0);
    near(ratioMargin(50, 3, 100, 4), 0.03605551275463989);
  });
});

describe("a metric derived from two of its source's", () => {
  const load: SourceLoad = checkedLoad(withRatios(), fixtureReader(), WORLD_MARKETS);

  test('each market: the ratio rounded to its decimals, its margin, the area, period and place of its numerator', () => {
    const austin = find(load.observations, 'us-tx-austin', 'rentToIncomeRatio');
    const rent = find(load.observations, 'us-tx-austin', 'medianGrossRent');
    // 22.1529… ± 1,200 × 0.000361521… = 0.4338…
    assert.deepEqual(
      { ...austin, comparisons: undefined },
      { ...rent, metricId: 'rentToIncomeRatio', value: 22.2, marginOfError: 0.4, comparisons: undefined },
    );
    assert.equal(load.observations.filter((o) => o.metricId === 'rentToIncomeRatio').length, WORLD_MARKETS.length, 'every market has one');
  });

  test("beside the same ratio of each area both operands are compared with: Texas's, not the nation's (no nation's rent is read)", () => {
    // Texas: 12 × 1,403 ÷ 78,476 × 100 = 21.4537, ± 1,200 × √(4² + 0.017878²·263²) / 78,476 = 0.0944.
    assert.deepEqual(find(load.observations, 'us-tx-austin', 'rentToIncomeRatio')?.comparisons, [
      { level: 'state', code: '48', name: 'Texas', value: 21.5, marginOfError: 0.1, asOf: '2020-2024' },
    ]);
  });

  test('its series: the periods both operands have, with the areas both are compared with', () => {
    const series = find(load.series, 'us-tx-austin', 'rentToIncomeRatio');
    assert.deepEqual(series?.points, [{ period: '2020-2024', value: 22.2, marginOfError: 0.4 }]);
    assert.deepEqual(
      series?.comparisons?.map((c) => [c.area.name, c.points]),
      [['Texas', [{ period: '2020-2024', value: 21.5, marginOfError: 0.1 }]]],
    );
  });

  test('an open-ended operand ("4,000+") gives a bound, not a figure: missing, with the reason and its line', () => {
    const sf = find(load.missing, 'us-ca-san-francisco', 'ownerCostsToIncomeRatio');
    assert.equal(sf?.reason, 'medianOwnerCostsWithMortgage is open-ended (published as "4,000+"), so ownerCostsToIncomeRatio has only a bound, not a figure');
    assert.deepEqual(sf?.origin, find(load.observations, 'us-ca-san-francisco', 'medianOwnerCostsWithMortgage')?.origin);
    assert.equal(find(load.observations, 'us-ca-san-francisco', 'ownerCostsToIncomeRatio'), undefined);
  });

  test("an operand missing: missing too, with the operand's reason and line", () => {
    const read = fixtureReader({
      'census-acs-5yr/acs5-2024-detailed-place.json': (text) => text.replace('"Austin city, Texas","1729"', '"Austin city, Texas","-666666666"'),
    });
    const edited = checkedLoad(withRatios(), read, WORLD_MARKETS);
    const rent = find(edited.missing, 'us-tx-austin', 'medianGrossRent');
    const ratio = find(edited.missing, 'us-tx-austin', 'rentToIncomeRatio');
    assert.equal(ratio?.reason, `rentToIncomeRatio needs medianGrossRent and medianHouseholdIncome; ${rent?.reason ?? 'a reason'}`);
    assert.match(ratio?.reason ?? '', /; B25064_001E is -666666666: the Census API's annotation that the estimate could not be computed/);
    assert.deepEqual(ratio?.origin, rent?.origin);
  });

  test("outside its range it stops the load, naming the market's line, as a read value does", () => {
    assert.throws(
      () => checkedLoad(withRatios([ratioMetric('rentToIncomeRatio', 'medianGrossRent', 'medianHouseholdIncome', [0, 20])]), fixtureReader(), WORLD_MARKETS),
      (e: unknown) =>
        e instanceof FixtureError &&
        e.code === 'out_of_range' &&
        /rentToIncomeRatio is \d+\.\d, outside the metric's range \(from 0 to 20 %\)$/.test(e.message),
    );
  });

  test("the scores' inputs are computed by the same ratio, unrounded; an input may name a derived metric instead of restating it", () => {
    near(scoreInputs({ medianGrossRent: 1729, medianHouseholdIncome: 93658 }).rentToIncome, 22.15293941788208);
    assert.deepEqual(inputRatio({ numerator: 'medianGrossRent', denominator: 'medianHouseholdIncome', before: 12, label: 'x' }), {
      numerator: 'medianGrossRent',
      denominator: 'medianHouseholdIncome',
      before: 12,
      label: 'x',
    });
    assert.throws(
      () => inputRatio({ metric: 'medianGrossRent', label: 'x' }),
      (e: unknown) => e instanceof InvariantError && e.message === 'a derived input names medianGrossRent, which is not a metric derived from two others',
    );
  });
});

describe('a metric set of its own (withMetrics)', () => {
  test("the ACS source asks only for the variables its metrics read, and compares them where their definitions say: its queries' fields and the dataset's name", () => {
    const rentOnly = withMetrics(censusAcs5yr, ['medianGrossRent']);
    assert.deepEqual(
      rentOnly.metrics.map((m) => m.id),
      ['medianGrossRent'],
    );
    const [places, states, nation, earlierPlaces] = rentOnly.remote.map((r) => new URL(r.url).searchParams.get('get'));
    assert.deepEqual([places, states, nation, earlierPlaces], ['NAME,B25064_001E,B25064_001M', 'NAME,B25064_001E,B25064_001M', 'NAME', 'NAME']);
    // What a metric is compared with is its definition's: the nation's income, the earlier period's home value.
    const nationOf = (id: string): (string | null)[] => withMetrics(censusAcs5yr, [id]).remote.map((r) => new URL(r.url).searchParams.get('get'));
    assert.deepEqual(nationOf('medianHouseholdIncome').slice(2), ['NAME,B19013_001E,B19013_001M', 'NAME', 'NAME']);
    assert.deepEqual(nationOf('medianHomeValue').slice(2), ['NAME', 'NAME,B25077_001E,B25077_001M', 'NAME,B25077_001E,B25077_001M']);
    assert.equal(tablesOf(acsQueries(['medianGrossRent']), '2020-2024'), 'ACS 5-year estimates 2020-2024, places and states: table B25064');
    assert.equal(
      tablesOf(acsQueries(['medianHomeValue', 'medianGrossRent', 'medianHouseholdIncome']), '2020-2024'),
      "ACS 5-year estimates 2020-2024, places and states: tables B25064, B19013 and B25077; the nation's B19013; 2015-2019 B25077 of the places and states",
    );
  });
  test('the other sources give only the metrics of the set', () => {
    const load = checkedLoad(withMetrics(WORLD_FHFA, ['homePriceChange']), fixtureReader(), WORLD_MARKETS);
    assert.deepEqual([...new Set([...load.observations, ...load.series].map((o) => o.metricId))], ['homePriceChange']);
  });
  test('a derived metric without its operands in the set is a bug, said at once', () => {
    assert.throws(
      () => withMetrics(withRatios(), ['rentToIncomeRatio', 'medianGrossRent']),
      (e: unknown) =>
        e instanceof InvariantError && e.message === 'census-acs-5yr: rentToIncomeRatio is derived from medianHouseholdIncome, which the metric set leaves out',
    );
  });
});
