// Every public path of the service, named once so links, routes and tests cannot disagree.

export const PATHS = {
  home: '/',
  index: '/api/markets',
  bulkCsv: '/api/markets/csv',
  profile: (id: string): string => `/api/markets/${id}`,
  marketCsv: (id: string): string => `/api/markets/${id}/csv`,
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
