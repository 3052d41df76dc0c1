// The build orchestrator: load sources → assemble the snapshot (profiles, index, what the pages draw) → render routes → validate.
import { MARKETS, type MarketDefinition } from '../contract/markets.ts';
import { ENDPOINT_LIST, endpointById, pathAt } from '../contract/endpoints.ts';
import { InvariantError } from '../contract/errors.ts';
import { assembleSnapshot, type MarketData, type Snapshot } from '../methodology/snapshot.ts';
import type { PastSnapshot } from '../methodology/series.ts';
import { assertNotBeforeArchive, assertSameDocuments, assertSameValues } from '../archive/archive.ts';
import { buildRoutes, type RouteTable } from '../routes/route-table.ts';
import { loadSources } from '../sources/load.ts';
import type { ReadFixture, SourceModule } from '../sources/source.ts';
import { assertCsvTies, assertProfileRules, assertValid, compilePublished } from '../validate/contract-checks.ts';
import { assertSeriesCsvTies, assertSeriesRules } from '../validate/series-checks.ts';
import { parseJsonText } from '../contract/json.ts';

/**
 * What a document described by each schema or descriptor is held to, by the describing endpoint's id: a JSON document
 * is validated against the served schema, then its rules; a CSV's rows tie to the documents of its markets.
 */
const CHECKS: Readonly<Record<string, { schema: boolean; rules: (body: string, markets: readonly MarketData[], route: string) => void }>> = {
  profileSchema: { schema: true, rules: (_, markets, route) => markets.forEach((m) => assertProfileRules(m.profile, route)) },
  indexSchema: { schema: true, rules: () => undefined },
  seriesSchema: { schema: true, rules: (_, markets, route) => markets.forEach((m) => assertSeriesRules(m.seriesDocument, route)) },
  vintagesSchema: { schema: true, rules: () => undefined },
  csvDescriptor: {
    schema: false,
    rules: (body, markets, route) =>
      assertCsvTies(
        body,
        markets.map((m) => m.profile),
        route,
      ),
  },
  seriesCsvDescriptor: {
    schema: false,
    rules: (body, markets, route) =>
      assertSeriesCsvTies(
        body,
        markets.map((m) => m.seriesDocument),
        route,
      ),
  },
};

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
  assertNotBeforeArchive(snapshot);
  assertSameValues(snapshot);
  const table = buildRoutes({ baseUrl: options.baseUrl, snapshot });
  // Validate what will be served: every document against the schema or descriptor its record names, as served.
  const served = (path: string): Buffer => {
    const route = table.routes.get(path);
    if (route === undefined) throw new InvariantError(`the route table has no ${path}`);
    return route.identity.body;
  };
  for (const [, record] of ENDPOINT_LIST) {
    const check = CHECKS[record.describedBy ?? ''];
    if (check === undefined || (record.scope !== 'service' && record.scope !== 'market')) continue;
    const describer = endpointById(record.describedBy ?? '');
    const validate = check.schema && describer !== undefined ? compilePublished(served(pathAt(describer, '', ''))) : undefined;
    const at = (markets: readonly MarketData[], marketId = ''): void => {
      const route = pathAt(record, marketId, '');
      const body = served(route).toString();
      if (validate !== undefined) assertValid(validate, parseJsonText(body), marketId === '' ? undefined : marketId, route);
      check.rules(body, markets, route);
    };
    if (record.scope === 'service') at(snapshot.markets);
    else for (const m of snapshot.markets) at([m], m.profile.market.id);
  }
  // Under a date archived already, the documents as `archive` would write them are the ones archived, byte for byte.
  assertSameDocuments(snapshot, table);
  return { snapshot, table };
}
