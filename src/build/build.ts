// The build orchestrator: load sources → assemble profiles → validate → render routes → write.
import { buildMarketIndex } from '../methodology/market-index.ts';
import { MARKETS, type MarketDefinition } from '../contract/markets.ts';
import { PATHS } from '../contract/paths.ts';
import { assembleProfiles } from '../methodology/profiles.ts';
import { buildRoutes, type RouteTable } from '../routes/route-table.ts';
import { loadSources } from '../sources/load.ts';
import type { ReadFixture, SourceModule } from '../sources/source.ts';
import { assertCsvTies, assertProfileRules, assertValid, compilePublished } from '../validate/contract-checks.ts';

export interface BuildOptions {
  baseUrl: string;
  read: ReadFixture;
  markets?: readonly MarketDefinition[];
  /** The sources to load; the registry's by default. */
  sources?: readonly SourceModule[];
}

/** Runs every stage in memory and returns the validated route table; throws a DataError on bad input. */
export function buildRouteTable(options: BuildOptions): RouteTable {
  const markets = options.markets ?? MARKETS;
  const data = loadSources(options.read, markets, options.sources);
  const profiles = assembleProfiles(markets, data, options.baseUrl);
  const index = buildMarketIndex(profiles, data.snapshotDate, options.baseUrl);
  const missing = data.loads.flatMap((l) => l.missing);
  const illustrative = new Map(data.loads.flatMap((l) => (l.illustrative === undefined ? [] : [[l.source.sourceId, l.illustrative] as const])));
  // What only the pages read, never the JSON or CSV: each market's history of a metric, how a value was put together, where a city is.
  const series = data.loads.flatMap((l) => l.series ?? []);
  const notes = data.loads.flatMap((l) => l.notes ?? []);
  const locations = new Map(markets.flatMap((m) => (m.location === undefined ? [] : [[m.id, m.location] as const])));
  const table = buildRoutes({ baseUrl: options.baseUrl, snapshotDate: data.snapshotDate, profiles, index, missing, illustrative, series, notes, locations });

  // Validate what will be served: the published schema bytes against the served profile bytes.
  const served = (path: string): Buffer => {
    const route = table.routes.get(path);
    if (route === undefined) throw new Error(`the route table has no ${path}`);
    return route.identity.body;
  };
  const validateProfile = compilePublished(served(PATHS.profileSchema));
  for (const p of profiles) {
    const route = PATHS.profile(p.market.id);
    assertValid(validateProfile, JSON.parse(served(route).toString()) as unknown, p.market.id, route);
    assertProfileRules(p, route);
    assertCsvTies(served(PATHS.marketCsv(p.market.id)).toString(), [p], PATHS.marketCsv(p.market.id));
  }
  assertValid(compilePublished(served(PATHS.indexSchema)), JSON.parse(served(PATHS.index).toString()) as unknown, undefined, PATHS.index);
  assertCsvTies(served(PATHS.bulkCsv).toString(), profiles, PATHS.bulkCsv);
  return table;
}
