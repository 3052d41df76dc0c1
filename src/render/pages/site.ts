// What every page template reads: the data, the site's page and endpoint lists, and how to write a link.
import { byId, type MarketIndex, type MarketProfile, type Source } from '../../contract/schemas.ts';
import type { Location } from '../../contract/markets.ts';
import type { MetricSeries, MissingValue, ValueNote } from '../../sources/source.ts';
import { CONTENT_TYPES } from '../../protocol/headers.ts';
import { PATHS } from '../../contract/paths.ts';

export interface PageInput {
  baseUrl: string;
  profiles: readonly MarketProfile[];
  index: MarketIndex;
  /** Values the sources' rows of a market lack, with the reason (a null, an annotation sentinel, a `-`). */
  missing?: readonly MissingValue[];
  /** Sources whose values are illustrative rather than published, by source id, with the sentence that says which. */
  illustrative?: ReadonlyMap<string, string>;
  /** Each market's history of a metric (the house price index by quarter). */
  series?: readonly MetricSeries[];
  /** How a value was put together where it is more than one row. */
  notes?: readonly ValueNote[];
  /** Where each market's city is; markets without one get no dot on the map. */
  locations?: ReadonlyMap<string, Location>;
}

export interface Site {
  baseUrl: string;
  profiles: readonly MarketProfile[];
  index: MarketIndex;
  /** The snapshot every profile was assembled at (the index's generatedAt). */
  snapshotDate: string;
  /** Every source any profile cites, sorted by sourceId. */
  sources: readonly Source[];
  /** Why a market lacks a metric its source's rows did not provide, by `<market id> <metric id>`. */
  missingReasons: ReadonlyMap<string, MissingValue>;
  /** Sources whose values are illustrative, by source id, with the sentence that says which; empty once every source is a real download. */
  illustrative: ReadonlyMap<string, string>;
  /** Each market's history of a metric, by `<market id> <metric id>`. */
  series: ReadonlyMap<string, MetricSeries>;
  /** How a value was put together, by `<market id> <metric id>`. */
  notes: ReadonlyMap<string, string>;
  /** Where each market's city is, by market id. */
  locations: ReadonlyMap<string, Location>;
  /** A route path as an in-page link: root-relative, under the base URL's own path if it has one. */
  href(path: string): string;
  /** A route path as the absolute URL people copy and `curl`. */
  url(path: string): string;
}

export function makeSite(input: PageInput): Site {
  // A base URL like https://example.org/housing puts every route under /housing; links follow it.
  const basePath = new URL(input.baseUrl).pathname.replace(/\/+$/, '');
  const sources = new Map<string, Source>();
  for (const p of input.profiles) for (const s of p.sources) if (!sources.has(s.sourceId)) sources.set(s.sourceId, s);
  return {
    baseUrl: input.baseUrl,
    profiles: [...input.profiles].sort(byId((p) => p.market.id)),
    index: input.index,
    snapshotDate: input.index.generatedAt,
    sources: [...sources.values()].sort(byId((s) => s.sourceId)),
    missingReasons: new Map((input.missing ?? []).map((m) => [`${m.marketId} ${m.metricId}`, m])),
    illustrative: input.illustrative ?? new Map(),
    series: new Map((input.series ?? []).map((s) => [`${s.marketId} ${s.metricId}`, s])),
    notes: new Map((input.notes ?? []).map((n) => [`${n.marketId} ${n.metricId}`, n.note])),
    locations: input.locations ?? new Map(),
    href: (path) => (basePath === '' ? path : path === '/' ? `${basePath}/` : basePath + path),
    url: (path) => input.baseUrl + path,
  };
}

export interface PageLink {
  path: string;
  label: string;
}

/** The pages every profile's `links` names, plus the home page, in navigation order. */
export const PAGES: readonly (PageLink & { summary: string })[] = [
  { path: PATHS.home, label: 'Home', summary: 'Every market side by side.' },
  { path: PATHS.dataStatus, label: 'Data status', summary: 'Freshness, release and retrieval dates, and coverage, per market and per source.' },
  { path: PATHS.methodology, label: 'Methodology', summary: 'Metric definitions, score formulas and thresholds, the freshness rule, and a worked example.' },
  { path: PATHS.dataSources, label: 'Data sources', summary: 'The upstream datasets, their agencies, update frequency and terms.' },
  { path: PATHS.dataCatalog, label: 'Data catalog', summary: 'Every endpoint with its format and a curl line; schemas and errors.' },
  { path: PATHS.privacy, label: 'Privacy', summary: 'No cookies, no tracking; what the optional access log holds.' },
  { path: PATHS.changelog, label: 'Changelog', summary: 'Schema, methodology and data versions, and the versioning policy.' },
];

export interface Endpoint extends PageLink {
  format: string;
  /** The Content-Type the route table serves it with. */
  contentType: string;
  description: string;
}

/** The endpoints that are one path each; per-market endpoints are listed with the markets. */
export const ENDPOINTS: readonly Endpoint[] = [
  {
    path: PATHS.index,
    label: 'Market index',
    format: 'JSON',
    contentType: CONTENT_TYPES.json,
    description: 'Every market with its scores, coverage, freshness and links.',
  },
  {
    path: PATHS.bulkCsv,
    label: 'All markets, CSV',
    format: 'CSV',
    contentType: CONTENT_TYPES.csv,
    description: 'One row per metric of every market, sorted by market id, then metric id.',
  },
  {
    path: PATHS.profileSchema,
    label: 'Market profile schema',
    format: 'JSON Schema',
    contentType: CONTENT_TYPES.json,
    description: 'Draft-07 schema of one market profile.',
  },
  {
    path: PATHS.indexSchema,
    label: 'Market index schema',
    format: 'JSON Schema',
    contentType: CONTENT_TYPES.json,
    description: 'Draft-07 schema of the market index.',
  },
  {
    path: PATHS.csvDescriptor,
    label: 'CSV column descriptor',
    format: 'JSON',
    contentType: CONTENT_TYPES.json,
    description: 'The eleven CSV columns, their types and constants.',
  },
  {
    path: PATHS.openApi,
    label: 'OpenAPI document',
    format: 'OpenAPI 3.1',
    contentType: CONTENT_TYPES.json,
    description: 'Every endpoint with its responses, headers, errors and examples, for API tools and client generators.',
  },
  {
    path: PATHS.dataPackage,
    label: 'Data Package',
    format: 'Frictionless Data Package',
    contentType: CONTENT_TYPES.json,
    description: 'The CSVs as tabular resources: Table Schema, CSV dialect, sizes, hashes, sources and licenses.',
  },
];
