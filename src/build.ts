// The build orchestrator: load sources → assemble profiles → validate → render routes → write.
import { profileSchema, indexSchema } from './contract.ts';
import { buildMarketIndex } from './market-index.ts';
import { MARKETS, type MarketDefinition } from './markets.ts';
import { PATHS } from './paths.ts';
import { assembleProfiles } from './profiles.ts';
import { buildRoutes, type RouteTable } from './routes.ts';
import { loadSources } from './sources/index.ts';
import type { ReadFixture, SourceAdapter } from './sources/types.ts';
import { assertCsvTies, assertProfileRules, assertValid, compilePublished } from './validate.ts';
import { renderJson } from './render/json.ts';

export interface BuildOptions {
  baseUrl: string;
  read: ReadFixture;
  markets?: readonly MarketDefinition[];
  adapters?: readonly SourceAdapter[];
}

/** Runs every stage in memory and returns the validated route table; throws a DataError on bad input. */
export function buildRouteTable(options: BuildOptions): RouteTable {
  const markets = options.markets ?? MARKETS;
  const data = loadSources(options.read, markets, options.adapters);
  const profiles = assembleProfiles(markets, data, options.baseUrl);
  const index = buildMarketIndex(profiles, data.snapshotDate, options.baseUrl);
  const table = buildRoutes({ baseUrl: options.baseUrl, snapshotDate: data.snapshotDate, profiles, index });

  // Validate what will be served: the published schema bytes against the served profile bytes.
  const schemaBytes = table.routes.get(PATHS.profileSchema)?.identity.body ?? Buffer.from(renderJson(profileSchema(options.baseUrl)));
  const validateProfile = compilePublished(schemaBytes);
  for (const p of profiles) {
    const route = PATHS.profile(p.market.id);
    const served = JSON.parse(table.routes.get(route)?.identity.body.toString() ?? 'null') as unknown;
    assertValid(validateProfile, served, p.market.id, route);
    assertProfileRules(p, route);
    assertCsvTies(table.routes.get(PATHS.marketCsv(p.market.id))?.identity.body.toString() ?? '', [p], PATHS.marketCsv(p.market.id));
  }
  const indexBytes = table.routes.get(PATHS.indexSchema)?.identity.body ?? Buffer.from(renderJson(indexSchema(options.baseUrl)));
  assertValid(compilePublished(indexBytes), JSON.parse(table.routes.get(PATHS.index)?.identity.body.toString() ?? 'null') as unknown, undefined, PATHS.index);
  assertCsvTies(table.routes.get(PATHS.bulkCsv)?.identity.body.toString() ?? '', profiles, PATHS.bulkCsv);
  return table;
}
