// The build orchestrator: load sources → assemble the snapshot (profiles, index, what the pages draw) → render routes → validate.
import { MARKETS, type MarketDefinition } from '../contract/markets.ts';
import { PATHS } from '../contract/paths.ts';
import { InvariantError } from '../contract/errors.ts';
import { assembleSnapshot, type Snapshot } from '../methodology/snapshot.ts';
import type { PastSnapshot } from '../methodology/series.ts';
import { assertSameValues } from '../archive/archive.ts';
import { buildRoutes, type RouteTable } from '../routes/route-table.ts';
import { loadSources } from '../sources/load.ts';
import type { ReadFixture, SourceModule } from '../sources/source.ts';
import { assertCsvTies, assertProfileRules, assertValid, compilePublished } from '../validate/contract-checks.ts';
import { assertSeriesCsvTies, assertSeriesRules } from '../validate/series-checks.ts';
import { parseJsonText } from '../contract/json.ts';

export interface BuildOptions {
  baseUrl: string;
  read: ReadFixture;
  markets?: readonly MarketDefinition[];
  /** The sources to load; the registry's by default. */
  sources?: readonly SourceModule[];
  /** The archived snapshots (readArchive), served as vintages and read for the series; none by default. */
  archive?: readonly PastSnapshot[];
}

/** Runs every stage in memory and returns the validated route table; throws a DataError on bad input. */
export function buildRouteTable(options: BuildOptions): RouteTable {
  return buildSnapshot(options).table;
}

/** The build's data and its validated route table (the `archive` command keeps both). */
export function buildSnapshot(options: BuildOptions): { snapshot: Snapshot; table: RouteTable } {
  const markets = options.markets ?? MARKETS;
  const snapshot = assembleSnapshot(markets, loadSources(options.read, markets, options.sources), options.baseUrl, options.archive);
  assertSameValues(snapshot);
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
    assertValid(validateProfile, parseJsonText(served(route).toString()), p.market.id, route);
    assertProfileRules(p, route);
    assertCsvTies(served(PATHS.marketCsv(p.market.id)).toString(), [p], PATHS.marketCsv(p.market.id));
  }
  assertValid(compilePublished(served(PATHS.indexSchema)), parseJsonText(served(PATHS.index).toString()), undefined, PATHS.index);
  assertCsvTies(served(PATHS.bulkCsv).toString(), profiles, PATHS.bulkCsv);
  const validateSeries = compilePublished(served(PATHS.seriesSchema));
  const series = snapshot.markets.map((m) => m.seriesDocument);
  for (const s of series) {
    const route = PATHS.series(s.market.id);
    assertValid(validateSeries, parseJsonText(served(route).toString()), s.market.id, route);
    assertSeriesRules(s, route);
    assertSeriesCsvTies(served(PATHS.seriesCsv(s.market.id)).toString(), [s], PATHS.seriesCsv(s.market.id));
  }
  assertSeriesCsvTies(served(PATHS.bulkSeriesCsv).toString(), series, PATHS.bulkSeriesCsv);
  assertValid(compilePublished(served(PATHS.vintagesSchema)), parseJsonText(served(PATHS.vintages).toString()), undefined, PATHS.vintages);
  return { snapshot, table };
}
