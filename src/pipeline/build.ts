// The build orchestrator: load sources → assemble the snapshot (profiles, index, what the pages draw) → render routes → validate.
import { MARKETS, type MarketDefinition } from '../contract/markets.ts';
import { DOCUMENTS } from '../contract/documents.ts';
import { ENDPOINT_LIST, ENDPOINTS, describerOf, pathAt, type DescriberId } from '../contract/endpoints.ts';
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

/** What a document is held to besides its schema: the rules a schema cannot say, or a CSV's ties to the JSON of its markets. */
type Rules = (body: string, markets: readonly MarketData[], route: string) => void;

/**
 * The rules of each document kind (contract/documents.ts), by its describer's id: a record naming a describer without
 * rules here does not compile. A JSON document is validated against the schema its describer serves before its rules.
 */
const RULES: Readonly<Record<DescriberId, Rules>> = {
  profileSchema: (_, markets, route) => markets.forEach((m) => assertProfileRules(m.profile, route)),
  indexSchema: () => undefined,
  seriesSchema: (_, markets, route) => markets.forEach((m) => assertSeriesRules(m.seriesDocument, route)),
  vintagesSchema: () => undefined,
  csvDescriptor: (body, markets, route) =>
    assertCsvTies(
      body,
      markets.map((m) => m.profile),
      route,
    ),
  seriesCsvDescriptor: (body, markets, route) =>
    assertSeriesCsvTies(
      body,
      markets.map((m) => m.seriesDocument),
      route,
    ),
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
  // (A vintage's documents are the archive's bytes: held to their recorded hashes, and under this snapshot's date to this build's.)
  for (const [, record] of ENDPOINT_LIST) {
    const describer = describerOf(record);
    if (describer === undefined || (record.scope !== 'service' && record.scope !== 'market')) continue;
    const validate = DOCUMENTS[describer].format === 'json' ? compilePublished(served(ENDPOINTS[describer].path)) : undefined;
    const at = (markets: readonly MarketData[], marketId = ''): void => {
      const route = pathAt(record, marketId, '');
      const body = served(route).toString();
      if (validate !== undefined) assertValid(validate, parseJsonText(body), marketId === '' ? undefined : marketId, route);
      RULES[describer](body, markets, route);
    };
    if (record.scope === 'service') at(snapshot.markets);
    else for (const m of snapshot.markets) at([m], m.profile.market.id);
  }
  // Under a date archived already, the documents as `archive` would write them are the ones archived, byte for byte.
  assertSameDocuments(snapshot, table);
  return { snapshot, table };
}
