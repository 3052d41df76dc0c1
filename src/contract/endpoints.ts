// Every endpoint of the service, one record each: its path, what it serves and how it is cached, what describes it, and the words that list it; routes, descriptions, links, checks and the client derive from these.
import { entriesOf } from './records.ts';

/** What a route serves: its Content-Type follows from it (protocol/headers.ts). */
export type Kind = 'json' | 'csv' | 'html' | 'css' | 'problem' | 'zip' | 'text' | 'xml';

/** What a path names besides the endpoint: nothing, a market, a snapshot date, or both. */
export type Scope = 'service' | 'market' | 'vintage' | 'vintage-market';

/** A path of each scope, and the download name of one. */
interface PathOf {
  service: string;
  market: (marketId: string) => string;
  vintage: (date: string) => string;
  'vintage-market': (date: string, marketId: string) => string;
}

/** An OpenAPI schema object (JSON), as the document states it. */
type Json = Readonly<Record<string, unknown>>;

/** The groups the OpenAPI document lists operations in. */
export type OpenApiTag = 'markets' | 'series' | 'vintages' | 'download' | 'descriptions' | 'service';

export interface EndpointRecord<S extends Scope> {
  scope: S;
  path: PathOf[S];
  kind: Kind;
  /** The Cache-Control rule (protocol/headers.ts CACHE_CONTROL): `immutable` for an archived vintage, `health` for the probe. */
  cache: 'ok' | 'immutable' | 'health';
  /** The endpoint whose schema or descriptor describes the body: a Link with rel="describedby". */
  describedBy?: string;
  /** The Link also names this service's OpenAPI document (rel="service-desc", RFC 8631). */
  serviceDesc?: true;
  /** A download: the file name its Content-Disposition gives. */
  attachment?: PathOf[S];
  /** Its link in the market index (a service path) or in each market's entry (a market path): the key, its place among the links, and whether the schema requires it. */
  indexLink?: { key: string; position: number; optional?: true };
  /** Its operation in the OpenAPI document, listed in the order of the records. */
  openApi?: {
    tag: OpenApiTag;
    operationId: string;
    summary: string;
    description: string;
    schema: Json;
    /** `value`: the served body; `excerpt`: the served body cut short (one market's, each metric's latest observation); `none`: binary, no example. */
    example: 'value' | 'excerpt' | 'none';
  };
  /** Listed in the home page's site map (one-path endpoints): its place in that list, label, format and what it holds. */
  listed?: { position: number; label: string; format: string; description: string };
  /**
   * Its entry on the data catalog page: its place there, the anchor and title where the listed ones do not serve, and what
   * it holds (`{attachment}` is its download name, `{listed}` the listed description).
   */
  catalog?: { position: number; anchor?: string; title?: string; description?: string };
  /** A resource of the Data Package: its title and description (a market's: `{market}` is its display name, `{name}` and `{state}` its name and state; a vintage's: `{date}` its snapshot date). */
  dataPackage?: { title: string; description: string };
  /** An endpoint of the contract (docs/contract.md section 4), which `verify` holds every deployment to. */
  contract?: true;
}

/** A record of any scope: narrowing its `scope` narrows its path and download name. */
export type AnyEndpoint = { [S in Scope]: EndpointRecord<S> }[Scope];

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const csvText = (what: string): Json => ({ type: 'string', description: `CSV text: ${what}.` });
const jsonSchemaDoc = (what: string): Json => ({ type: 'object', description: `A JSON Schema (draft-07) document: ${what}.` });

/** Where the API's paths begin: an unknown path below it answers problem+json rather than the HTML 404 page. */
export const API_PREFIX = '/api';

/** The records, in the order of the OpenAPI document's operations (the other lists give their own positions). */
export const ENDPOINTS = {
  index: {
    scope: 'service',
    path: '/api/markets',
    kind: 'json',
    cache: 'ok',
    describedBy: 'indexSchema',
    serviceDesc: true,
    indexLink: { key: 'self', position: 1 },
    contract: true,
    openApi: {
      tag: 'markets',
      operationId: 'listMarkets',
      summary: 'Every market, with scores, coverage, freshness and links',
      description: 'The index of every market served, sorted by id, with the links to each market and to the schemas, and the caveats.',
      schema: ref('MarketIndex'),
      example: 'excerpt',
    },
    listed: { position: 1, label: 'Market index', format: 'JSON', description: 'Every market with its scores, coverage, freshness and links.' },
    catalog: { position: 1 },
  },
  profile: {
    scope: 'market',
    path: (id: string): string => `/api/markets/${id}`,
    kind: 'json',
    cache: 'ok',
    describedBy: 'profileSchema',
    indexLink: { key: 'json', position: 1 },
    contract: true,
    openApi: {
      tag: 'markets',
      operationId: 'getMarketProfile',
      summary: 'One market profile',
      description: 'The profile of one market: market, scores, metrics with their sources, freshness, coverage, caveats and links.',
      schema: ref('MarketProfile'),
      example: 'value',
    },
    catalog: {
      position: 2,
      anchor: 'endpoint-market-json',
      title: 'One market, JSON',
      description: 'The market profile: market, scores, metrics with sources, freshness, coverage, caveats and links. Schema: the market profile schema below.',
    },
  },
  marketCsv: {
    scope: 'market',
    path: (id: string): string => `/api/markets/${id}/csv`,
    kind: 'csv',
    cache: 'ok',
    describedBy: 'csvDescriptor',
    attachment: (id: string): string => `${id}-housing.csv`,
    indexLink: { key: 'csv', position: 2 },
    contract: true,
    openApi: {
      tag: 'markets',
      operationId: 'getMarketCsv',
      summary: "One market's metrics as CSV",
      description:
        'One row per metric of the market after a header line, UTF-8, RFC 4180 quoting, CRLF line ends; the columns are those of the CSV descriptor (/api/schema/market-csv).',
      schema: { type: 'string', description: 'CSV text: the columns of the CSV descriptor, one row per metric.' },
      example: 'value',
    },
    catalog: {
      position: 3,
      anchor: 'endpoint-market-csv',
      title: 'One market, CSV',
      description: 'One row per metric of the market, as an attachment named {attachment}; -OJ saves it under that name.',
    },
    dataPackage: { title: '{market}', description: 'Every metric of {name}, {state}, sorted by metric_id.' },
  },
  bulkCsv: {
    scope: 'service',
    path: '/api/markets/csv',
    kind: 'csv',
    cache: 'ok',
    describedBy: 'csvDescriptor',
    attachment: 'housing-markets.csv',
    indexLink: { key: 'bulkCsv', position: 2 },
    contract: true,
    openApi: {
      tag: 'markets',
      operationId: 'getBulkCsv',
      summary: "Every market's metrics as one CSV",
      description: 'The rows of every market CSV in one file, sorted by market_id, then metric_id, after one header line.',
      schema: { type: 'string', description: 'CSV text: the columns of the CSV descriptor, one row per metric of every market.' },
      example: 'excerpt',
    },
    listed: { position: 2, label: 'All markets, CSV', format: 'CSV', description: 'One row per metric of every market, sorted by market id, then metric id.' },
    catalog: { position: 4, description: 'Every market in one CSV, rows sorted by market id, then metric id; saved as {attachment}.' },
    dataPackage: { title: 'Every market', description: 'Every metric of every market, sorted by market_id, then metric_id.' },
  },
  series: {
    scope: 'market',
    path: (id: string): string => `/api/markets/${id}/series`,
    kind: 'json',
    cache: 'ok',
    describedBy: 'seriesSchema',
    indexLink: { key: 'series', position: 4, optional: true },
    contract: true,
    openApi: {
      tag: 'series',
      operationId: 'getMarketSeries',
      summary: "One market's every observation, per metric",
      description:
        'Every observation the snapshot holds of each metric of the market (FHFA quarter by quarter; the ACS and BPS vintages), with period, period start and end, value, margin of error and the illustrative flag where the profile has them, unit, source, frequency and area.',
      schema: ref('MarketSeries'),
      example: 'excerpt',
    },
    catalog: {
      position: 5,
      anchor: 'endpoint-market-series',
      title: 'One market, every observation, JSON',
      description:
        "Every observation the snapshot holds of each metric of the market: FHFA's index and its change quarter by quarter, each ACS and BPS vintage, with period, period start and end, value, margin of error and the illustrative flag, the unit, source, frequency and area. Schema: the market series schema below.",
    },
  },
  seriesCsv: {
    scope: 'market',
    path: (id: string): string => `/api/markets/${id}/series/csv`,
    kind: 'csv',
    cache: 'ok',
    describedBy: 'seriesCsvDescriptor',
    attachment: (id: string): string => `${id}-series.csv`,
    contract: true,
    openApi: {
      tag: 'series',
      operationId: 'getMarketSeriesCsv',
      summary: "One market's series as CSV, one row per observation",
      description:
        'Long format, one row per observation, UTF-8, RFC 4180 quoting, CRLF; the columns are those of the series CSV descriptor (/api/schema/series-csv).',
      schema: csvText('the columns of the series CSV descriptor, one row per observation'),
      example: 'excerpt',
    },
    catalog: {
      position: 6,
      anchor: 'endpoint-market-series-csv',
      title: 'One market, every observation, CSV',
      description: 'The same in long format, one row per observation (the series CSV columns below), as an attachment named {attachment}.',
    },
    dataPackage: {
      title: '{market}: every observation',
      description: 'Every observation of every metric of {name}, {state}, in long format, sorted by metric_id, then period.',
    },
  },
  bulkSeriesCsv: {
    scope: 'service',
    path: '/api/markets/series/csv',
    kind: 'csv',
    cache: 'ok',
    describedBy: 'seriesCsvDescriptor',
    attachment: 'housing-markets-series.csv',
    indexLink: { key: 'bulkSeriesCsv', position: 7, optional: true },
    contract: true,
    openApi: {
      tag: 'series',
      operationId: 'getBulkSeriesCsv',
      summary: "Every market's series as one CSV",
      description: 'The rows of every market series CSV in one file, sorted by market_id, metric_id, then period, after one header line.',
      schema: csvText('the columns of the series CSV descriptor, one row per observation of every market'),
      example: 'excerpt',
    },
    listed: {
      position: 3,
      label: 'All markets, every observation, CSV',
      format: 'CSV',
      description:
        'The history behind the charts in long format: one row per observation of every metric of every market, with period, period start and end, value, margin of error, the illustrative flag and the area.',
    },
    catalog: { position: 7, description: "Every market's series in one CSV, rows sorted by market id, metric id, then period; saved as {attachment}." },
    dataPackage: {
      title: 'Every market, every observation',
      description:
        'Every observation of every metric of every market in long format (period, period_start, period_end, value, margin_of_error, illustrative, area), sorted by market_id, metric_id, then period.',
    },
  },
  vintages: {
    scope: 'service',
    path: '/api/vintages',
    kind: 'json',
    cache: 'ok',
    describedBy: 'vintagesSchema',
    indexLink: { key: 'vintages', position: 8, optional: true },
    contract: true,
    openApi: {
      tag: 'vintages',
      operationId: 'listVintages',
      summary: 'Every published snapshot, newest first',
      description:
        "Each snapshot's date, methodology version, its sources' vintages, files (with SHA-256) and next expected release, and the links to its documents, which never change.",
      schema: ref('VintageIndex'),
      example: 'excerpt',
    },
    listed: {
      position: 5,
      label: 'Vintages',
      format: 'JSON',
      description:
        "Every published snapshot, newest first: its date, methodology version, sources' vintages, files and next expected releases, and links to its documents, which never change.",
    },
    catalog: { position: 8 },
  },
  vintageIndex: {
    scope: 'vintage',
    path: (date: string): string => `/api/vintages/${date}/markets`,
    kind: 'json',
    cache: 'immutable',
    describedBy: 'indexSchema',
    openApi: {
      tag: 'vintages',
      operationId: 'getVintageIndex',
      summary: 'The market index as one snapshot published it',
      description: 'The index of markets of that snapshot, byte for byte as it was published; served with Cache-Control immutable.',
      schema: ref('MarketIndex'),
      example: 'excerpt',
    },
  },
  vintageProfile: {
    scope: 'vintage-market',
    path: (date: string, id: string): string => `/api/vintages/${date}/markets/${id}`,
    kind: 'json',
    cache: 'immutable',
    describedBy: 'profileSchema',
    openApi: {
      tag: 'vintages',
      operationId: 'getVintageProfile',
      summary: 'One market profile as one snapshot published it',
      description: 'The profile of the market in that snapshot, byte for byte as it was published; served with Cache-Control immutable.',
      schema: ref('MarketProfile'),
      example: 'excerpt',
    },
    catalog: {
      position: 9,
      anchor: 'endpoint-vintage-profile',
      title: 'One market as a snapshot published it',
      description:
        'The profile of a market in the snapshot of a date /api/vintages lists, byte for byte as published, with Cache-Control: public, max-age=31536000, immutable; /csv after it gives that CSV, and /api/vintages/<date>/markets and /api/vintages/<date>/markets/csv the index and the bulk CSV. Cite these addresses: they never change.',
    },
  },
  vintageCsv: {
    scope: 'vintage-market',
    path: (date: string, id: string): string => `/api/vintages/${date}/markets/${id}/csv`,
    kind: 'csv',
    cache: 'immutable',
    describedBy: 'csvDescriptor',
    attachment: (date: string, id: string): string => `${id}-housing-${date}.csv`,
    dataPackage: {
      title: '{market}, as published on {date}',
      description: 'Every metric of {name}, {state}, sorted by metric_id, as the snapshot of {date} published them.',
    },
    openApi: {
      tag: 'vintages',
      operationId: 'getVintageCsv',
      summary: "One market's CSV as one snapshot published it",
      description: "The market's CSV in that snapshot, byte for byte as it was published (the CSV descriptor's columns); served with Cache-Control immutable.",
      schema: csvText('the columns of the CSV descriptor, one row per metric'),
      example: 'value',
    },
  },
  vintageBulkCsv: {
    scope: 'vintage',
    path: (date: string): string => `/api/vintages/${date}/markets/csv`,
    kind: 'csv',
    cache: 'immutable',
    describedBy: 'csvDescriptor',
    attachment: (date: string): string => `housing-markets-${date}.csv`,
    dataPackage: {
      title: 'Every market, as published on {date}',
      description: 'Every metric of every market, sorted by market_id, then metric_id, as the snapshot of {date} published them.',
    },
    openApi: {
      tag: 'vintages',
      operationId: 'getVintageBulkCsv',
      summary: 'Every market as one CSV, as one snapshot published it',
      description: 'The bulk CSV of that snapshot, byte for byte as it was published; served with Cache-Control immutable.',
      schema: csvText('the columns of the CSV descriptor, one row per metric of every market'),
      example: 'excerpt',
    },
  },
  download: {
    scope: 'service',
    path: '/api/download',
    kind: 'zip',
    cache: 'ok',
    attachment: 'housing-markets.zip',
    indexLink: { key: 'download', position: 9, optional: true },
    contract: true,
    openApi: {
      tag: 'download',
      operationId: 'getDownload',
      summary: 'Every JSON and CSV document in one zip',
      description:
        "A zip of every JSON and CSV document this service serves, byte for byte, in one folder named for the snapshot (housing-markets-<date>/) under names that mirror the paths (markets/us-tx-austin.json, markets/us-tx-austin.csv, …), with a README.md of what the data are, each file and column, where each value's period, margin of error and area are, the methodology, the sources, the licences and a suggested citation. Its datapackage.json lists every CSV in the zip, the archived snapshots' too, each pointing at the file beside it, so the unpacked folder is a Data Package on its own. Its bytes are the same for the same data.",
      schema: { type: 'string', contentMediaType: 'application/zip' },
      example: 'none',
    },
    listed: {
      position: 4,
      label: 'Everything, one zip',
      format: 'zip',
      description:
        'Every JSON and CSV document of the service in one file, byte for byte, in one folder named for the snapshot, with a README of the data, the files and their columns, the sources, the licences and a citation.',
    },
    catalog: { position: 10, description: '{listed} Saved as {attachment}.' },
  },
  profileSchema: {
    scope: 'service',
    path: '/api/schema/market-profile',
    kind: 'json',
    cache: 'ok',
    indexLink: { key: 'profileSchema', position: 3 },
    contract: true,
    openApi: {
      tag: 'descriptions',
      operationId: 'getMarketProfileSchema',
      summary: 'JSON Schema of a market profile',
      description: 'The draft-07 schema of a market profile; components.schemas.MarketProfile here is the same schema.',
      schema: jsonSchemaDoc('the market profile'),
      example: 'value',
    },
    listed: { position: 6, label: 'Market profile schema', format: 'JSON Schema', description: 'Draft-07 schema of one market profile.' },
    catalog: { position: 11 },
  },
  indexSchema: {
    scope: 'service',
    path: '/api/schema/market-index',
    kind: 'json',
    cache: 'ok',
    indexLink: { key: 'indexSchema', position: 5 },
    openApi: {
      tag: 'descriptions',
      operationId: 'getMarketIndexSchema',
      summary: 'JSON Schema of the market index',
      description: 'The draft-07 schema of the index; components.schemas.MarketIndex here is the same schema.',
      schema: jsonSchemaDoc('the market index'),
      example: 'value',
    },
    listed: { position: 7, label: 'Market index schema', format: 'JSON Schema', description: 'Draft-07 schema of the market index.' },
    catalog: { position: 12 },
  },
  csvDescriptor: {
    scope: 'service',
    path: '/api/schema/market-csv',
    kind: 'json',
    cache: 'ok',
    indexLink: { key: 'csvDescriptor', position: 4 },
    contract: true,
    openApi: {
      tag: 'descriptions',
      operationId: 'getCsvDescriptor',
      summary: 'The CSV column descriptor',
      description: 'The eleven CSV columns in order, their types and constants, and the caveats of the CSV format.',
      schema: ref('CsvDescriptor'),
      example: 'value',
    },
    listed: { position: 8, label: 'CSV column descriptor', format: 'JSON', description: 'The eleven CSV columns, their types and constants.' },
    catalog: { position: 13 },
  },
  seriesSchema: {
    scope: 'service',
    path: '/api/schema/market-series',
    kind: 'json',
    cache: 'ok',
    openApi: {
      tag: 'descriptions',
      operationId: 'getMarketSeriesSchema',
      summary: "JSON Schema of a market's series",
      description: 'The draft-07 schema of a series document; components.schemas.MarketSeries here is the same schema.',
      schema: jsonSchemaDoc('the market series'),
      example: 'value',
    },
    listed: { position: 9, label: 'Market series schema', format: 'JSON Schema', description: "Draft-07 schema of one market's series." },
    catalog: { position: 14 },
  },
  seriesCsvDescriptor: {
    scope: 'service',
    path: '/api/schema/series-csv',
    kind: 'json',
    cache: 'ok',
    openApi: {
      tag: 'descriptions',
      operationId: 'getSeriesCsvDescriptor',
      summary: 'The series CSV column descriptor',
      description: 'The columns of both series CSV endpoints in order, their types (string, number, boolean, date) and constants, and the caveats.',
      schema: ref('SeriesCsvDescriptor'),
      example: 'value',
    },
    listed: {
      position: 10,
      label: 'Series CSV column descriptor',
      format: 'JSON',
      description: 'The series CSV columns, their types (string, number, boolean, date) and constants.',
    },
    catalog: { position: 15 },
  },
  vintagesSchema: {
    scope: 'service',
    path: '/api/schema/vintages',
    kind: 'json',
    cache: 'ok',
    openApi: {
      tag: 'descriptions',
      operationId: 'getVintageIndexSchema',
      summary: 'JSON Schema of the vintage index',
      description: 'The draft-07 schema of /api/vintages; components.schemas.VintageIndex here is the same schema.',
      schema: jsonSchemaDoc('the vintage index'),
      example: 'value',
    },
    listed: { position: 11, label: 'Vintage index schema', format: 'JSON Schema', description: 'Draft-07 schema of the vintage index.' },
    catalog: { position: 16 },
  },
  dataPackage: {
    scope: 'service',
    path: '/api/datapackage',
    kind: 'json',
    cache: 'ok',
    openApi: {
      tag: 'descriptions',
      operationId: 'getDataPackage',
      summary: 'Frictionless Data Package of the CSVs',
      description:
        "A tabular Data Package (Frictionless Data v1): every CSV served (the bulk CSV and each market's, the series CSVs, and every snapshot's CSVs under /api/vintages) as resources with absolute URLs, their Table Schema, CSV dialect, byte counts and SHA-256 hashes, sources and licenses; an archived snapshot's resource says which of its rows that snapshot's JSON marks illustrative.",
      schema: { type: 'object', description: 'A Frictionless Data Package descriptor (profile tabular-data-package).' },
      example: 'excerpt',
    },
    listed: {
      position: 13,
      label: 'Data Package',
      format: 'Frictionless Data Package',
      description: 'The CSVs as tabular resources: Table Schema, CSV dialect, sizes, hashes, sources and licenses.',
    },
    catalog: { position: 18 },
  },
  openApi: {
    scope: 'service',
    path: '/api/openapi',
    kind: 'json',
    cache: 'ok',
    openApi: {
      tag: 'descriptions',
      operationId: 'getOpenApi',
      summary: 'This OpenAPI document',
      description: 'This document: every endpoint, its responses, headers and examples.',
      schema: { type: 'object', description: 'An OpenAPI 3.1 document.' },
      example: 'excerpt',
    },
    listed: {
      position: 12,
      label: 'OpenAPI document',
      format: 'OpenAPI 3.1',
      description: 'Every endpoint with its responses, headers, errors and examples, for API tools and client generators.',
    },
    catalog: { position: 17 },
  },
  health: {
    scope: 'service',
    path: '/healthz',
    kind: 'json',
    cache: 'health',
    openApi: {
      tag: 'service',
      operationId: 'getHealth',
      summary: 'Liveness probe',
      description: 'Answers {"status":"ok"} while the service runs; never cached.',
      schema: { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } },
      example: 'value',
    },
  },
  stylesheet: { scope: 'service', path: '/assets/site.css', kind: 'css', cache: 'ok' },
  robots: { scope: 'service', path: '/robots.txt', kind: 'text', cache: 'ok' },
  sitemap: { scope: 'service', path: '/sitemap.xml', kind: 'xml', cache: 'ok' },
} as const satisfies Readonly<Record<string, AnyEndpoint>>;

export type EndpointId = keyof typeof ENDPOINTS;

/** Holds when T names endpoints only. */
type Endpoints<T extends EndpointId> = T;

/** The endpoints that describe others (a schema or a CSV descriptor), by id: every record's `describedBy`, each an endpoint (or this does not compile). */
export type DescriberId = Endpoints<{ [K in EndpointId]: (typeof ENDPOINTS)[K] extends { describedBy: infer D extends string } ? D : never }[EndpointId]>;

/** A record's describer, typed: every `describedBy` of the records is a DescriberId by the definition above. */
export const describerOf = (record: AnyEndpoint): DescriberId | undefined => record.describedBy as DescriberId | undefined;

/** Every endpoint's path (a function of the market id and the date where it names them), by its id. */
export type EndpointPaths = { readonly [K in EndpointId]: (typeof ENDPOINTS)[K]['path'] };

/** Every record, in the records' order. */
export const ENDPOINT_LIST: readonly (readonly [EndpointId, AnyEndpoint])[] = entriesOf(ENDPOINTS);

/** Whether a record's path names a market, a snapshot date. */
export const namesMarket = (record: AnyEndpoint): boolean => record.scope === 'market' || record.scope === 'vintage-market';
export const namesDate = (record: AnyEndpoint): boolean => record.scope === 'vintage' || record.scope === 'vintage-market';

/** A record's path for a market id and a date (either a placeholder such as `{marketId}`), where its path names them. */
export function pathAt(record: AnyEndpoint, marketId: string, date: string): string {
  switch (record.scope) {
    case 'service':
      return record.path;
    case 'market':
      return record.path(marketId);
    case 'vintage':
      return record.path(date);
    case 'vintage-market':
      return record.path(date, marketId);
  }
}

/** A record's download name for a market id and a date, where it has one. */
export function attachmentAt(record: AnyEndpoint, marketId: string, date: string): string | undefined {
  switch (record.scope) {
    case 'service':
      return record.attachment;
    case 'market':
      return record.attachment?.(marketId);
    case 'vintage':
      return record.attachment?.(date);
    case 'vintage-market':
      return record.attachment?.(date, marketId);
  }
}

/** A link of the index (or of each market's entry in it): its key, its place among the links, whether the schema requires it, and its path. */
export interface IndexLink {
  key: string;
  position: number;
  optional: boolean;
  path: string | ((marketId: string) => string);
}

/**
 * The links of the index (scope `service`) or of each market's entry (scope `market`): the records' and the pages'
 * given beside them (the home page, a market's page), in their positions.
 */
export function indexLinks(scope: 'service' | 'market', pages: readonly IndexLink[]): IndexLink[] {
  const records = ENDPOINT_LIST.flatMap(([, r]): IndexLink[] =>
    r.indexLink === undefined || r.scope !== scope || (r.scope !== 'service' && r.scope !== 'market')
      ? []
      : [{ key: r.indexLink.key, position: r.indexLink.position, optional: r.indexLink.optional === true, path: r.path }],
  );
  return [...records, ...pages].sort((a, b) => a.position - b.position);
}

/** The paths of the documents a schema or descriptor describes (records of scope `market` or `service` naming it), a market's as `/api/markets/<market-id>/…`. */
export const describedPaths = (describer: DescriberId): string[] =>
  ENDPOINT_LIST.flatMap(([, r]) => (r.describedBy === describer && (r.scope === 'market' || r.scope === 'service') ? [pathAt(r, '<market-id>', '')] : []));

/** A path of one market's, or of every market's, with the record it is a path of. */
export interface DocumentPath {
  record: AnyEndpoint;
  path: string;
  marketId?: string;
}

/** The paths of these records for these markets: a service record's once, a market record's for each market. */
const pathsFor = (records: readonly AnyEndpoint[], marketIds: readonly string[]): DocumentPath[] =>
  records.flatMap((record): DocumentPath[] =>
    record.scope === 'service'
      ? [{ record, path: pathAt(record, '', '') }]
      : record.scope === 'market'
        ? marketIds.map((marketId) => ({ record, path: pathAt(record, marketId, ''), marketId }))
        : [],
  );

/** The documents a schema or descriptor describes, for these markets: a service record's once, a market record's for each. */
export const describedDocuments = (describer: DescriberId, marketIds: readonly string[]): DocumentPath[] =>
  pathsFor(
    ENDPOINT_LIST.flatMap(([, r]) => (r.describedBy === describer ? [r] : [])),
    marketIds,
  );

/**
 * The CSVs of the Data Package, table by table (each CSV descriptor, in the records' order): the file of every market
 * first, then each market's, for these markets (sorted by id).
 */
export function dataPackagePaths(marketIds: readonly string[]): DocumentPath[] {
  const entries = ENDPOINT_LIST.flatMap(([, r]) => (r.dataPackage === undefined ? [] : [r]));
  const tables = [...new Set(entries.map((r) => r.describedBy))];
  return tables.flatMap((table) => {
    const inTable = entries.filter((r) => r.describedBy === table);
    return [
      ...pathsFor(
        inTable.filter((r) => r.scope === 'service'),
        marketIds,
      ),
      ...pathsFor(
        inTable.filter((r) => r.scope === 'market'),
        marketIds,
      ),
    ];
  });
}

/** The contract's documents of these markets (records of the contract described by a schema or descriptor): what the one-file download must hold. */
export const contractDocumentPaths = (marketIds: readonly string[]): DocumentPath[] =>
  pathsFor(
    ENDPOINT_LIST.flatMap(([, r]) => (r.contract === true && r.describedBy !== undefined ? [r] : [])),
    marketIds,
  );

/** The CSVs of every market that a descriptor describes (scope `service`): each gathers the rows of the market CSVs the same descriptor describes. */
export const gatheringCsvs = (describer: DescriberId): EndpointRecord<'service'>[] =>
  ENDPOINT_LIST.flatMap(([, r]) => (r.kind === 'csv' && r.scope === 'service' && r.describedBy === describer ? [r] : []));
