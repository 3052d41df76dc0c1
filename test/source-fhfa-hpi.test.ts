// The FHFA HPI adapter reads hpi_at_metro.csv: latest quarter, change over a year, gaps, the boundary of each series.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MARKETS } from '../src/markets.ts';
import { fhfaHpi } from '../src/sources/fhfa-hpi.ts';
import { fixtureReader } from './support/data.ts';

describe('fhfa-hpi', () => {
  const load = fhfaHpi.load(fixtureReader(), MARKETS);
  test('takes the latest quarter for the index and the change from the same quarter a year earlier', () => {
    const idx = load.observations.find((o) => o.marketId === 'us-tx-austin' && o.metricId === 'homePriceIndex');
    const chg = load.observations.find((o) => o.marketId === 'us-tx-austin' && o.metricId === 'homePriceChange');
    assert.equal(idx?.asOf, '2026 Q2');
    assert.equal(chg?.asOf, '2025 Q2 to 2026 Q2');
    assert.equal(Number.isInteger((idx?.value ?? 0) * 100), true);
  });
  test('a "-" index (too few sales) is skipped, so the previous quarter becomes the latest', () => {
    const read = fixtureReader({ 'fhfa-hpi/HPI_AT_metro.csv': (t) => t.replace(/("Austin[^"]*",12420,2026,2,)[0-9.]+/, '$1-') });
    const gap = fhfaHpi.load(read, MARKETS);
    assert.equal(gap.observations.find((o) => o.marketId === 'us-tx-austin' && o.metricId === 'homePriceIndex')?.asOf, '2026 Q1');
  });
  test('names the multi-state metro boundary from the metro name', () => {
    const ny = load.observations.find((o) => o.marketId === 'us-ny-new-york');
    assert.deepEqual(ny?.boundary.states, ['NY', 'NJ']);
    assert.equal(ny?.boundary.level, 'cbsa');
  });
});
