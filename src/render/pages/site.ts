// What every page template reads: the build's data, the site's page and endpoint lists, and how to write a link.
import { byId, type MarketIndex, type Source } from '../../contract/schemas.ts';
import { CONTENT_TYPES } from '../../protocol/headers.ts';
import { PATHS } from '../../contract/paths.ts';
import { ENDPOINT_LIST } from '../../contract/endpoints.ts';
import type { MetricDefinition } from '../../methodology/metrics.ts';
import type { AssembledProfile } from '../../methodology/profiles.ts';
import type { MarketData, Snapshot, SourceData } from '../../methodology/snapshot.ts';
import { InvariantError } from '../../contract/errors.ts';

/** What the pages are made of: the build's data and the origin every absolute URL starts with. */
export interface PageInput {
  baseUrl: string;
  snapshot: Snapshot;
}

export interface Site {
  baseUrl: string;
  profiles: readonly AssembledProfile[];
  index: MarketIndex;
  /** The snapshot every profile was assembled at (the index's generatedAt). */
  snapshotDate: string;
  /** Every source any profile cites, sorted by sourceId. */
  sources: readonly Source[];
  /** The metrics of the sources loaded, in the order pages list them; those the methodology requires are `required`. */
  metrics: readonly MetricDefinition[];
  /** Sources whose values are illustrative, by source id, with the sentence that says which; empty once every source is a real download. */
  illustrative: ReadonlyMap<string, string>;
  /** A market's data beyond its profile: history, notes, why a value is missing, where it is. */
  market(id: string): MarketData;
  /** A loaded source's terms and whether its values are published. */
  source(id: string): SourceData;
  /** Every published snapshot, newest first, the current one among them whether or not it is archived yet: the changelog lists them. */
  releases: readonly Release[];
  /** A route path as an in-page link: root-relative, under the base URL's own path if it has one. */
  href(path: string): string;
  /** A route path as the absolute URL people copy and `curl`. */
  url(path: string): string;
}

/** One published snapshot as the changelog names it: its date, methodology, and each source's vintage. */
export interface Release {
  snapshotDate: string;
  methodologyVersion: string;
  vintages: readonly { sourceId: string; vintage: string }[];
  current: boolean;
}

/** The current snapshot and the archived ones, newest first, each date once (the current one's record is the build's own). */
function releasesOf(snapshot: Snapshot, methodologyVersion: string): Release[] {
  const current: Release = {
    snapshotDate: snapshot.snapshotDate,
    methodologyVersion,
    vintages: snapshot.sources.map((s) => ({ sourceId: s.source.sourceId, vintage: s.vintage })),
    current: true,
  };
  const past = snapshot.archive
    .filter((a) => a.snapshotDate !== snapshot.snapshotDate)
    .map((a) => ({
      snapshotDate: a.snapshotDate,
      methodologyVersion: a.methodologyVersion,
      vintages: a.sources.map((s) => ({ sourceId: s.sourceId, vintage: s.vintage })),
      current: false,
    }));
  return [current, ...past].sort((a, b) => (a.snapshotDate < b.snapshotDate ? 1 : -1));
}

export function makeSite(input: PageInput): Site {
  const { snapshot } = input;
  // A base URL like https://example.org/housing puts every route under /housing; links follow it.
  const basePath = new URL(input.baseUrl).pathname.replace(/\/+$/, '');
  const profiles = snapshot.markets.map((m) => m.profile);
  const cited = new Map<string, Source>();
  for (const p of profiles) for (const s of p.sources) if (!cited.has(s.sourceId)) cited.set(s.sourceId, s);
  const markets = new Map(snapshot.markets.map((m) => [m.profile.market.id, m]));
  const sources = new Map(snapshot.sources.map((s) => [s.source.sourceId, s]));
  return {
    baseUrl: input.baseUrl,
    profiles: [...profiles].sort(byId((p) => p.market.id)),
    index: snapshot.index,
    snapshotDate: snapshot.index.generatedAt,
    sources: [...cited.values()].sort(byId((s) => s.sourceId)),
    metrics: snapshot.metrics,
    illustrative: new Map(snapshot.sources.flatMap((s) => (s.illustrative === undefined ? [] : [[s.source.sourceId, s.illustrative] as const]))),
    market: (id) => markets.get(id) ?? fail(`no market ${id} in the snapshot`),
    source: (id) => sources.get(id) ?? fail(`no source ${id} in the snapshot`),
    releases: releasesOf(snapshot, snapshot.index.methodologyVersion),
    href: (path) => (basePath === '' ? path : path === '/' ? `${basePath}/` : basePath + path),
    url: (path) => input.baseUrl + path,
  };
}

const fail = (message: string): never => {
  throw new InvariantError(message);
};

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

/** The endpoints that are one path each, as the home page's site map lists them (their records' `listed`); per-market endpoints are linked from each market page. */
export const ENDPOINTS: readonly Endpoint[] = ENDPOINT_LIST.flatMap(([, record]) =>
  record.listed === undefined || typeof record.path !== 'string'
    ? []
    : [
        {
          position: record.listed.position,
          path: record.path,
          label: record.listed.label,
          format: record.listed.format,
          contentType: CONTENT_TYPES[record.kind],
          description: record.listed.description,
        },
      ],
)
  .sort((a, b) => a.position - b.position)
  .map(({ position: _, ...endpoint }) => endpoint);
