// The Census ACS adapter reads the API's JSON responses: annotations and gaps are handled, values rounded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MARKETS } from '../src/markets.ts';
import { censusAcs5yr } from '../src/sources/census-acs-5yr.ts';
import type { SourceLoad } from '../src/sources/types.ts';
import { fixtureReader } from './support/data.ts';

const value = (load: SourceLoad, marketId: string, metricId: string): number | undefined =>
  load.observations.find((o) => o.marketId === marketId && o.metricId === metricId)?.value;

describe('census-acs-5yr', () => {
  const load = censusAcs5yr.load(fixtureReader(), MARKETS);
  test('reads the API rows of every market, with the vintage as asOf and the release dates', () => {
    assert.equal(value(load, 'us-tx-austin', 'medianGrossRent'), 1712);
    assert.equal(load.observations.find((o) => o.marketId === 'us-tx-austin')?.asOf, '2020-2024');
    assert.equal(load.source.latestReleaseDate, '2025-12-11');
    for (const m of MARKETS) assert.equal(load.observations.filter((o) => o.marketId === m.id).length, 5, m.id);
  });
  test('derives the rent burden from B25070 and rounds it to one decimal', () => {
    // (27654 + 20133 + 24467 + 58213) / (256431 - 6211) × 100 = 52.14…
    assert.equal(value(load, 'us-tx-austin', 'rentBurden'), 52.1);
  });
  test('an annotation value (-666666666: estimate not available) leaves the metric out rather than failing', () => {
    const read = fixtureReader({ 'census-acs-5yr/acs5-2024-detailed-place.json': (t) => t.replace('"1712"', '"-666666666"') });
    const gap = censusAcs5yr.load(read, MARKETS);
    assert.equal(value(gap, 'us-tx-austin', 'medianGrossRent'), undefined);
    assert.equal(value(gap, 'us-tx-austin', 'medianHouseholdIncome'), 91461);
  });
});
