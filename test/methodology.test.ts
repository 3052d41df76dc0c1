// Methodology v1.0: fixed thresholds, omitted scores, the freshness rule and coverage.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { METRICS, THRESHOLDS, computeCoverage, computeScores, scale, sourceFreshness, worstFreshness } from '../src/methodology.ts';
import type { Source as SourceRecord } from '../src/contract.ts';

const complete = {
  medianGrossRent: 1500,
  medianHouseholdIncome: 90000,
  rentBurden: 50,
  permits: 5000,
  housingUnits: 500000,
  rentalVacancyRate: 5,
};

describe('scale', () => {
  test('is linear between the thresholds and clamped outside', () => {
    assert.equal(scale(30, THRESHOLDS.rentToIncome), 50);
    assert.equal(scale(20, THRESHOLDS.rentToIncome), 100);
    assert.equal(scale(10, THRESHOLDS.rentToIncome), 100);
    assert.equal(scale(45, THRESHOLDS.rentToIncome), 0);
    assert.equal(scale(11, THRESHOLDS.permitsPerThousand), 50);
  });
});

describe('scores', () => {
  test('follow the documented formulas', () => {
    // rent-to-income 20% → 100; burden 50% → 50; affordability 0.6·100 + 0.4·50 = 80.
    // permits per 1,000 = 10 → 44.44…; vacancy 5% → 50; supply 0.7·44.44 + 0.3·50 = 46.1 → 46.
    const s = computeScores(complete);
    assert.deepEqual(s, { affordability: 80, supply: 46, overall: 63 });
  });
  test('are integers from 0 to 100 at the extremes', () => {
    const best = computeScores({ ...complete, medianGrossRent: 100, rentBurden: 0, permits: 1e6, rentalVacancyRate: 50 });
    assert.deepEqual(best, { affordability: 100, supply: 100, overall: 100 });
    const worst = computeScores({ ...complete, medianGrossRent: 1e6, rentBurden: 100, permits: 0, rentalVacancyRate: 0 });
    assert.deepEqual(worst, { affordability: 0, supply: 0, overall: 0 });
  });
  test('a score whose inputs are missing is omitted, never 0, and overall needs both', () => {
    const { permits: _p, ...noPermits } = complete;
    assert.deepEqual(computeScores(noPermits), { affordability: 80 });
    const { medianHouseholdIncome: _i, ...noIncome } = complete;
    assert.deepEqual(computeScores(noIncome), { supply: 46 });
    assert.deepEqual(computeScores({}), {});
  });
  test('do not depend on other markets: the same inputs give the same scores', () => {
    assert.deepEqual(computeScores(complete), computeScores({ ...complete }));
  });
});

describe('freshness', () => {
  const source = (updateFrequency: SourceRecord['updateFrequency'], latestReleaseDate?: string): SourceRecord => ({
    sourceId: 's',
    sourceName: 's',
    agency: 'a',
    datasetName: 'd',
    sourceUrl: 'https://x',
    confidence: 'high',
    updateFrequency,
    provenance: 'fixture',
    ...(latestReleaseDate === undefined ? {} : { latestReleaseDate }),
  });
  test('fresh within one expected interval, aging within two, stale beyond or when unknown', () => {
    assert.equal(sourceFreshness(source('quarterly', '2026-07-01'), '2026-09-28'), 'fresh');
    assert.equal(sourceFreshness(source('quarterly', '2026-05-01'), '2026-09-28'), 'aging');
    assert.equal(sourceFreshness(source('quarterly', '2025-12-01'), '2026-09-28'), 'stale');
    assert.equal(sourceFreshness(source('annually', '2025-09-28'), '2026-09-28'), 'fresh');
    assert.equal(sourceFreshness(source('annually', '2024-10-28'), '2026-09-28'), 'aging');
    assert.equal(sourceFreshness(source('annually'), '2026-09-28'), 'stale');
  });
  test('a profile is as fresh as its least fresh source', () => {
    assert.equal(worstFreshness(['fresh', 'aging', 'fresh']), 'aging');
    assert.equal(worstFreshness(['fresh', 'stale', 'aging']), 'stale');
    assert.equal(worstFreshness([]), 'fresh');
  });
});

test('coverage counts the required metrics and lists the missing ones', () => {
  const all = new Set(METRICS.map((m) => m.id));
  assert.deepEqual(computeCoverage(all), { totalRequired: 8, totalProvided: 8, percent: 100, missing: [] });
  all.delete('permits');
  all.delete('rentBurden');
  assert.deepEqual(computeCoverage(all), { totalRequired: 8, totalProvided: 6, percent: 75, missing: ['rentBurden', 'permits'] });
  const one = computeCoverage(new Set(['permits']));
  assert.equal(one.percent, 12.5);
});

test("the metric set covers the contract's metrics and units, and some labels need CSV quoting", () => {
  const ids = METRICS.map((m) => m.id);
  for (const id of ['medianGrossRent', 'homePriceIndex', 'permits']) assert.ok(ids.includes(id));
  for (const unit of ['USD/mo', '%', 'index', 'units'])
    assert.ok(
      METRICS.some((m) => m.unit === unit),
      unit,
    );
  assert.ok(METRICS.some((m) => m.label.includes(',')));
  assert.ok(METRICS.some((m) => m.label.includes('"')));
});
