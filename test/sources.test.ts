// Source adapters read their upstream's shape: annotations, gaps and subdivision rows are handled, values rounded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MARKETS } from '../src/markets.ts';
import { censusAcs5yr } from '../src/sources/census-acs-5yr.ts';
import { censusBps } from '../src/sources/census-bps.ts';
import { fhfaHpi } from '../src/sources/fhfa-hpi.ts';
import { arrayElementLines, roundTo, splitCsvLine } from '../src/sources/parse.ts';
import { fixtureReader } from './support/data.ts';

const value = (load: ReturnType<typeof censusAcs5yr.load>, marketId: string, metricId: string): number | undefined =>
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

describe('parsing helpers', () => {
  test('roundTo rounds half away from zero without binary drift', () => {
    assert.equal(roundTo(1.005, 2), 1.01);
    assert.equal(roundTo(52.15, 1), 52.2);
    assert.equal(roundTo(-1.25, 1), -1.3);
    assert.equal(roundTo(0.04, 1), 0);
  });
  test('splitCsvLine follows RFC 4180 quotes', () => {
    assert.deepEqual(splitCsvLine('"a, b",1,,"say ""hi"""', {}), ['a, b', '1', '', 'say "hi"']);
    assert.throws(() => splitCsvLine('"open,1', {}), /unterminated/);
  });
  test('arrayElementLines finds where each top-level element starts', () => {
    assert.deepEqual(arrayElementLines('[\n["a","]"],\n["b"],\n\n["c"]\n]'), [2, 3, 5]);
  });
});
