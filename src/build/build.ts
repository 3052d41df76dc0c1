// The build orchestrator: load sources → assemble the snapshot (profiles, index, what the pages draw) → render routes → validate.
import { MARKETS, type MarketDefinition } from '../contract/markets.ts';
import { PATHS } from '../contract/paths.ts';
import { InvariantError } from '../contract/errors.ts';
import { assembleSnapshot } from '../methodology/snapshot.ts';
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
  const snapshot = assembleSnapshot(markets, loadSources(options.read, markets, options.sources), options.baseUrl);
  const table = buildRoutes({ baseUrl: options.baseUrl, snapshot });
  const profiles = snapshot.markets.map((m) => m.profile);

  // Validate what will be served: the published schema bytes against the served profile bytes.
  const served = (path: string): Buffer => {
    const route = table.routes.get(path);
    if (route === undefined) throw new InvariantError(`the route table has no ${path}`);
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
