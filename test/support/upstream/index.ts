// Synthetic markets, and inputs from a few rows to national size, in each source's published layout: for tests (the world's sources) and benchmarks (every registered one), never the product.
import type { MarketDefinition } from '../../../src/contract/markets.ts';
import type { ReadFixture, SourceModule } from '../../../src/sources/source.ts';
import { acsFiles } from './census-acs-5yr.ts';
import { bpsFiles } from './census-bps.ts';
import { fhfaFiles } from './fhfa-hpi.ts';
import { WORLD_MARKETS, WORLD_SOURCES } from '../../world/world.ts';

/** A synthetic market and its index: every value a generator writes for it derives from the index, so files are deterministic. */
export interface SyntheticMarket {
  i: number;
  market: MarketDefinition;
}

/** Writers of files in a source's published layout: synthetic markets, and the rest of the country around them. */
export interface SyntheticFiles {
  /** The source's fixture files (its retrieval.json included) for these markets, holding what the source module reads. */
  files(markets: readonly SyntheticMarket[], source: Pick<SourceModule, 'metrics'>): Map<string, string>;
  /** The files with n more rows of places or series that are not markets, as a national file holds them. */
  withOthers(files: ReadonlyMap<string, string>, n: number): Map<string, string>;
  /** How many more rows make these files national size. */
  nationalRows(files: ReadonlyMap<string, string>): number;
  /** The files with every row that is not one of these markets' removed: the least a trimmed download holds. */
  onlyMarkets(files: ReadonlyMap<string, string>, markets: readonly MarketDefinition[]): Map<string, string>;
}

/** The writers of each registered source's layout, by source id. A source without one cannot be made synthetic. */
export const GENERATORS: Readonly<Record<string, SyntheticFiles>> = {
  'census-acs-5yr': acsFiles,
  'census-bps': bpsFiles,
  'fhfa-hpi': fhfaFiles,
};

/** The writers of one source's layout; a source added without them is named. */
export function generatorOf(source: Pick<SourceModule, 'sourceId'>): SyntheticFiles {
  const generator = GENERATORS[source.sourceId];
  if (generator === undefined) throw new Error(`no file writers for source ${source.sourceId}: add them to test/support/upstream/`);
  return generator;
}

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

/**
 * N markets with their codes, and fixture files in each source's layout with values of realistic size: the build's
 * inputs (`buildRouteTable({ baseUrl, ...synthetic(n) })`), of the test world's sources unless others are named.
 */
export function synthetic(
  n: number,
  sources: readonly SourceModule[] = WORLD_SOURCES,
): { markets: MarketDefinition[]; read: ReadFixture; sources: readonly SourceModule[] } {
  const all: SyntheticMarket[] = Array.from({ length: n }, (_, i) => ({ i, market: syntheticMarket(i) }));
  const files = new Map(sources.flatMap((s) => [...generatorOf(s).files(all, s)]));
  return { markets: all.map((m) => m.market), read: readerOf(files), sources };
}

/** The fixtures grown to national size, each source by its own measure; deterministic: the same input gives the same bytes. */
export function nationalFiles(files: ReadonlyMap<string, string>, sources: readonly SourceModule[] = WORLD_SOURCES): Map<string, string> {
  return sources.reduce((out, s) => generatorOf(s).withOthers(out, generatorOf(s).nationalRows(out)), new Map(files));
}

/** The fixtures with every row that is not a market's removed: what a trimmed download would hold at the least. */
export function marketRowsOnly(
  files: ReadonlyMap<string, string>,
  markets: readonly MarketDefinition[] = WORLD_MARKETS,
  sources: readonly SourceModule[] = WORLD_SOURCES,
): Map<string, string> {
  return sources.reduce((out, s) => generatorOf(s).onlyMarkets(out, markets), new Map(files));
}
