// Every public path of the service, named once so links, routes and tests cannot disagree.

export const PATHS = {
  home: '/',
  index: '/api/markets',
  bulkCsv: '/api/markets/csv',
  profile: (id: string): string => `/api/markets/${id}`,
  marketCsv: (id: string): string => `/api/markets/${id}/csv`,
  /** Every observation the snapshot holds of a market, per metric (JSON), and the same in long format (CSV). */
  series: (id: string): string => `/api/markets/${id}/series`,
  seriesCsv: (id: string): string => `/api/markets/${id}/series/csv`,
  bulkSeriesCsv: '/api/markets/series/csv',
  seriesSchema: '/api/schema/market-series',
  seriesCsvDescriptor: '/api/schema/series-csv',
  /** Every published snapshot, newest first; each at immutable addresses under its date. */
  vintages: '/api/vintages',
  vintageIndex: (date: string): string => `/api/vintages/${date}/markets`,
  vintageProfile: (date: string, id: string): string => `/api/vintages/${date}/markets/${id}`,
  vintageCsv: (date: string, id: string): string => `/api/vintages/${date}/markets/${id}/csv`,
  vintageBulkCsv: (date: string): string => `/api/vintages/${date}/markets/csv`,
  vintagesSchema: '/api/schema/vintages',
  /** Every JSON and CSV document in one zip. */
  download: '/api/download',
  profileSchema: '/api/schema/market-profile',
  csvDescriptor: '/api/schema/market-csv',
  indexSchema: '/api/schema/market-index',
  openApi: '/api/openapi',
  dataPackage: '/api/datapackage',
  marketPage: (id: string): string => `/markets/${id}`,
  dataStatus: '/data-status',
  methodology: '/methodology',
  dataSources: '/data-sources',
  dataCatalog: '/data-catalog',
  privacy: '/privacy',
  changelog: '/changelog',
  stylesheet: '/assets/site.css',
  health: '/healthz',
  robots: '/robots.txt',
  sitemap: '/sitemap.xml',
} as const;

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

/** CSV download name of one market (docs/contract.md 4). */
export const marketCsvFilename = (id: string): string => `${id}-housing.csv`;
export const BULK_CSV_FILENAME = 'housing-markets.csv';
/** Series CSV download names: one market's, and every market's. */
export const seriesCsvFilename = (id: string): string => `${id}-series.csv`;
export const BULK_SERIES_CSV_FILENAME = 'housing-markets-series.csv';
/** Vintage CSV download names carry the snapshot date, so two vintages saved side by side keep both. */
export const vintageCsvFilename = (date: string, id: string): string => `${id}-housing-${date}.csv`;
export const vintageBulkCsvFilename = (date: string): string => `housing-markets-${date}.csv`;
export const DOWNLOAD_FILENAME = 'housing-markets.zip';

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
