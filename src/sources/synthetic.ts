// Synthetic markets, and inputs from a few rows to national size, in every registered source's published layout: for tests and benchmarks.
import { MARKETS, type MarketDefinition } from '../contract/markets.ts';
import { SOURCES } from './registry.ts';
import type { ReadFixture, SourceModule, SyntheticMarket } from './source.ts';

const STATES = [
  ['TX', 'Texas', '48'],
  ['CA', 'California', '06'],
  ['FL', 'Florida', '12'],
  ['NY', 'New York', '36'],
] as const;

/**
 * Market i's geography: a city with its own place code in its own metro; every fourth metro is divided, and its division
 * holding the city (in the 2023 delineations) has a code outside the metro codes, as for New York or Chicago.
 */
function syntheticMarket(i: number): MarketDefinition {
  const [code, state, fips] = STATES[i % STATES.length] ?? STATES[0];
  const name = `Town ${i}`;
  const cbsaName = `${name} Metro, ${code}`;
  return {
    id: `us-${code.toLowerCase()}-town-${i}`,
    name,
    slug: `town-${i}`,
    state,
    stateCode: code,
    countryCode: 'US',
    countyName: `County ${i}`,
    placeGeoid: { state: fips, place: String(10000 + i).padStart(5, '0') },
    placeName: `${name} city, ${state}`,
    cbsaCode: String(20000 + i),
    cbsaName,
    cbsaStates: [code],
    divisions: i % 4 === 3 ? [{ code: String(70000 + i), name: cbsaName.replace(/ Metro,/, ' City,'), delineations: ['2023'] }] : [],
  };
}

const readerOf =
  (files: ReadonlyMap<string, string>): ReadFixture =>
  (path) => {
    const text = files.get(path);
    if (text === undefined) throw new Error(`no synthetic fixture ${path}`);
    return text;
  };

/** N markets with their codes, and fixture files in each source's layout with values of realistic size. */
export function synthetic(n: number, sources: readonly SourceModule[] = SOURCES): { markets: MarketDefinition[]; read: ReadFixture } {
  const all: SyntheticMarket[] = Array.from({ length: n }, (_, i) => ({ i, market: syntheticMarket(i) }));
  const files = new Map(sources.flatMap((s) => [...s.synthetic.files(all)]));
  return { markets: all.map((m) => m.market), read: readerOf(files) };
}

/** The fixtures grown to national size, each source by its own measure; deterministic: the same input gives the same bytes. */
export function nationalFiles(files: ReadonlyMap<string, string>, sources: readonly SourceModule[] = SOURCES): Map<string, string> {
  return sources.reduce((out, s) => s.synthetic.withOthers(out, s.synthetic.nationalRows(out)), new Map(files));
}

/** The fixtures with every row that is not a market's removed: what a trimmed download would hold at the least. */
export function marketRowsOnly(
  files: ReadonlyMap<string, string>,
  markets: readonly MarketDefinition[] = MARKETS,
  sources: readonly SourceModule[] = SOURCES,
): Map<string, string> {
  return sources.reduce((out, s) => s.synthetic.onlyMarkets(out, markets), new Map(files));
}
