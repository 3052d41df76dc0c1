// Every public path of the service, named once so links, routes and tests cannot disagree: the pages here, the endpoints in their records.
import { ENDPOINTS, indexLinks, type EndpointPaths, type IndexLink } from './endpoints.ts';

/** The pages: one path each, and a market's page. */
const PAGE_PATHS = {
  home: '/',
  marketPage: (id: string): string => `/markets/${id}`,
  dataStatus: '/data-status',
  methodology: '/methodology',
  dataSources: '/data-sources',
  dataCatalog: '/data-catalog',
  privacy: '/privacy',
  changelog: '/changelog',
} as const;

/** Every endpoint's path, by its id, from its record. */
const ENDPOINT_PATHS = Object.fromEntries(Object.entries(ENDPOINTS).map(([id, e]) => [id, e.path])) as EndpointPaths;

/** Every path: the pages', and each endpoint's (contract/endpoints.ts). */
export const PATHS = { ...PAGE_PATHS, ...ENDPOINT_PATHS };

/** The pages every profile's `links` names, keyed as in docs/contract.md 2.1. */
export function profileLinks(
  baseUrl: string,
  marketId: string,
): Record<'html' | 'dataStatus' | 'methodology' | 'dataSources' | 'dataCatalog' | 'privacy' | 'changelog', string> {
  return {
    html: baseUrl + PATHS.marketPage(marketId),
    dataStatus: baseUrl + PATHS.dataStatus,
    methodology: baseUrl + PATHS.methodology,
    dataSources: baseUrl + PATHS.dataSources,
    dataCatalog: baseUrl + PATHS.dataCatalog,
    privacy: baseUrl + PATHS.privacy,
    changelog: baseUrl + PATHS.changelog,
  };
}

/** The links of the index, and of each market's entry in it: the endpoints' (their records' `indexLink`) and the pages'. */
export const INDEX_LINKS: readonly IndexLink[] = indexLinks('service', [{ key: 'html', position: 6, optional: false, path: PAGE_PATHS.home }]);
export const ENTRY_LINKS: readonly IndexLink[] = indexLinks('market', [{ key: 'html', position: 3, optional: false, path: PAGE_PATHS.marketPage }]);

/** Download names (docs/contract.md 4), from the records. */
export const marketCsvFilename = ENDPOINTS.marketCsv.attachment;
export const vintageCsvFilename = ENDPOINTS.vintageCsv.attachment;
export const vintageBulkCsvFilename = ENDPOINTS.vintageBulkCsv.attachment;

/**
 * What a vintage keeps (archive/<date>/…), by archive name, with the path each is served at; absolute URLs in archived
 * bytes are written with ARCHIVE_BASE_URL in place of the deployment's origin, which the build puts back.
 */
export const VINTAGE_DOCUMENTS = {
  index: 'markets.json',
  bulkCsv: 'markets.csv',
  profile: (id: string): string => `markets/${id}.json`,
  csv: (id: string): string => `markets/${id}.csv`,
} as const;
export const ARCHIVE_BASE_URL = '{base_url}';

/** Which of VINTAGE_DOCUMENTS an archive name is: the index, the bulk CSV, or one market's profile or CSV. */
export type VintageFile = { kind: 'index' } | { kind: 'bulkCsv' } | { kind: 'profile' | 'csv'; id: string };

/** What an archive name names; undefined for a name that is not one of VINTAGE_DOCUMENTS. */
export function vintageFileOf(name: string): VintageFile | undefined {
  if (name === VINTAGE_DOCUMENTS.index) return { kind: 'index' };
  if (name === VINTAGE_DOCUMENTS.bulkCsv) return { kind: 'bulkCsv' };
  const m = /^markets\/([a-z0-9-]+)\.(json|csv)$/.exec(name);
  if (m === null) return undefined;
  const [, id = '', ext] = m;
  return { kind: ext === 'json' ? 'profile' : 'csv', id };
}

/** The path a vintage's archived document is served at; undefined for a name that is not one of VINTAGE_DOCUMENTS. */
export function vintagePathOf(date: string, name: string): string | undefined {
  const file = vintageFileOf(name);
  if (file === undefined) return undefined;
  if (file.kind === 'index') return PATHS.vintageIndex(date);
  if (file.kind === 'bulkCsv') return PATHS.vintageBulkCsv(date);
  return file.kind === 'profile' ? PATHS.vintageProfile(date, file.id) : PATHS.vintageCsv(date, file.id);
}
