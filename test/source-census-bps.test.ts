// The Census BPS adapter reads the annual place files: units summed over structure sizes, subdivision rows, the survey year.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MARKETS } from '../src/markets.ts';
import { censusBps } from '../src/sources/census-bps.ts';
import type { SourceLoad } from '../src/sources/types.ts';
import { fixtureReader } from './support/data.ts';

const value = (load: SourceLoad, marketId: string, metricId: string): number | undefined =>
  load.observations.find((o) => o.marketId === marketId && o.metricId === metricId)?.value;

describe('census-bps', () => {
  const load = censusBps.load(fixtureReader(), MARKETS);
  test('sums the units of the four structure-size groups of each place row', () => {
    assert.ok((value(load, 'us-tx-austin', 'permits') ?? 0) > 1000);
    assert.equal(load.observations.find((o) => o.marketId === 'us-tx-austin')?.asOf, '2025');
  });
  test('borough rows (county subdivisions) are not added up into New York City', () => {
    assert.equal(value(load, 'us-ny-new-york', 'permits'), undefined);
    assert.equal(load.observations.length, 15);
  });
});
