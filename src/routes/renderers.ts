// What each endpoint serves: the renderer of its record (contract/endpoints.ts), by the record's id; the route table runs them.
import type { DescriberId, EndpointId, ENDPOINTS } from '../contract/endpoints.ts';
import { DOCUMENTS, describerBody } from '../contract/documents.ts';
import { renderJson } from '../contract/json.ts';
import { entriesOf, recordOf } from '../contract/records.ts';
import { dataPackage } from '../describe/datapackage.ts';
import { openApiDocument } from '../describe/openapi.ts';
import type { Served } from '../describe/served.ts';
import type { MarketData } from '../methodology/snapshot.ts';
import { buildVintageIndex } from '../methodology/vintages.ts';
import { renderBulkCsv, renderBulkSeriesCsv, renderMarketCsv, renderSeriesCsv } from '../render/csv-documents.ts';
import type { PageInput } from '../render/pages/site.ts';
import { STYLESHEET } from '../render/pages/stylesheet.ts';
import { downloadEntries, robotsTxt, sitemapXml } from '../render/site-files.ts';
import { zipArchive } from '../render/zip.ts';

/** What a renderer reads: the build's data, the routes made so far, and the descriptions' view of them. */
export interface RenderInput extends PageInput {
  routes: ReadonlyMap<string, { kind: string; path: string; identity: { body: Buffer } }>;
  served: Served;
}

type Body = string | Buffer;

/**
 * `documents` are rendered first, from the data; `descriptions` once every other route exists (they describe, and hash,
 * those bytes: the Data Package, the OpenAPI document, the sitemap of the pages); `lazy` bodies are made when first read.
 */
export type Phase = 'documents' | 'descriptions' | 'lazy';

export type Renderer =
  | { scope: 'service'; phase: Phase; render: (input: RenderInput) => Body }
  | { scope: 'market'; phase: 'documents'; render: (input: RenderInput, market: MarketData) => Body };

const service = (render: (input: RenderInput) => Body, phase: Phase = 'documents'): Renderer => ({ scope: 'service', phase, render });
const market = (render: (input: RenderInput, market: MarketData) => Body): Renderer => ({ scope: 'market', phase: 'documents', render });

/** The endpoints the build renders: every one but the vintages, which serve the archive's bytes. */
type Rendered = { [K in EndpointId]: (typeof ENDPOINTS)[K]['scope'] extends 'vintage' | 'vintage-market' ? never : K }[EndpointId];

/** What each describer serves, from its document kind (contract/documents.ts): the published schema or the CSV descriptor. */
const DESCRIBERS: Readonly<Record<DescriberId, Renderer>> = recordOf(
  entriesOf(DOCUMENTS).map(([id]) => [id, service(({ baseUrl }) => renderJson(describerBody(id, baseUrl)))]),
);

/** Every rendered endpoint's renderer, read by any endpoint's id: a rendered record without one does not compile. */
export const RENDERERS: Readonly<Record<Rendered, Renderer>> & Readonly<Partial<Record<EndpointId, Renderer>>> = {
  ...DESCRIBERS,
  index: service(({ snapshot }) => renderJson(snapshot.index)),
  profile: market((_, m) => renderJson(m.profile)),
  marketCsv: market((_, m) => renderMarketCsv(m.profile)),
  bulkCsv: service(({ snapshot }) => renderBulkCsv(snapshot.markets.map((m) => m.profile))),
  series: market((_, m) => renderJson(m.seriesDocument)),
  seriesCsv: market((_, m) => renderSeriesCsv(m.seriesDocument)),
  bulkSeriesCsv: service(({ snapshot }) => renderBulkSeriesCsv(snapshot.markets.map((m) => m.seriesDocument))),
  vintages: service(({ snapshot, baseUrl }) => renderJson(buildVintageIndex(snapshot, baseUrl))),
  // The zip holds every document, byte for byte; it is made when first read (the artifact, the server, verify), since
  // nothing in the build reads it and it costs a tenth of a build.
  download: service(({ routes, baseUrl, snapshot }) => zipArchive(downloadEntries(routes.values(), { baseUrl, snapshot }), snapshot.snapshotDate), 'lazy'),
  dataPackage: service(({ baseUrl, snapshot, served }) => renderJson(dataPackage({ baseUrl, snapshot, served })), 'descriptions'),
  openApi: service(({ baseUrl, snapshot, served }) => {
    const marketIds = snapshot.markets.map((m) => m.profile.market.id);
    // The dates whose documents are served: the current one, and each archived snapshot that holds documents.
    const archived = snapshot.archive.filter((p) => p.snapshotDate !== snapshot.snapshotDate && p.documents.size > 0).map((p) => p.snapshotDate);
    const vintageDates = [snapshot.snapshotDate, ...archived];
    // Served compact: API tools read it, and its examples make it large.
    return `${JSON.stringify(openApiDocument({ baseUrl, marketIds, vintageDates, served }))}\n`;
  }, 'descriptions'),
  health: service(() => renderJson({ status: 'ok' })),
  stylesheet: service(() => STYLESHEET),
  robots: service(({ baseUrl }) => robotsTxt(baseUrl)),
  sitemap: service(
    ({ baseUrl, routes, snapshot }) =>
      sitemapXml(
        baseUrl,
        [...routes.values()].filter((r) => r.kind === 'html').map((r) => r.path),
        snapshot.snapshotDate,
      ),
    'descriptions',
  ),
};
