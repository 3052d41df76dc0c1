// The route table: every public path with its exact bytes, headers and precompressed variants.
import { csvDescriptor } from '../contract/schemas.ts';
import { publishedSchema } from '../contract/published.ts';
import { seriesCsvDescriptor } from '../contract/series.ts';
import { CACHE_CONTROL, COMMON_HEADERS, CONTENT_TYPES, PAGE_HEADERS, type Header, type Kind } from '../protocol/headers.ts';
import { dataPackage } from '../describe/datapackage.ts';
import { openApiDocument } from '../describe/openapi.ts';
import type { Served } from '../describe/served.ts';
import { InvariantError } from '../contract/errors.ts';
import { renderJson } from '../contract/json.ts';
import {
  ARCHIVE_BASE_URL,
  BULK_CSV_FILENAME,
  BULK_SERIES_CSV_FILENAME,
  DOWNLOAD_FILENAME,
  PATHS,
  marketCsvFilename,
  seriesCsvFilename,
  vintageBulkCsvFilename,
  vintageCsvFilename,
  vintagePathOf,
} from '../contract/paths.ts';
import { buildVintageIndex } from '../methodology/vintages.ts';
import { renderBulkCsv, renderBulkSeriesCsv, renderMarketCsv, renderSeriesCsv } from '../render/csv-documents.ts';
import { downloadEntries, robotsTxt, sitemapXml } from '../render/site-files.ts';
import { zipArchive } from '../render/zip.ts';
import { renderAllPages as renderPages, renderNotFound as renderNotFoundPage } from '../render/pages/render.tsx';
import type { PageInput } from '../render/pages/site.ts';
import { STYLESHEET } from '../render/pages/stylesheet.ts';
import { etagOf, routeOf, variants, type Variants } from './variants.ts';

export type { Variant } from './variants.ts';

/** A path with its bytes in each coding (Variants). */
export interface Route extends Variants {
  path: string;
  kind: Kind;
  contentType: string;
  /** Every header of a 200 except Content-Length, ETag and Content-Encoding, which depend on the variant. */
  headers: readonly Header[];
}

export interface RouteTable {
  baseUrl: string;
  snapshotDate: string;
  /** Last-Modified of every route: the snapshot date as an HTTP date. */
  lastModified: string;
  marketIds: readonly string[];
  routes: Map<string, Route>;
  /** Body of the HTML 404 page, answered for unknown paths outside /api/. */
  notFoundPage: Buffer;
}

/** What the routes are made of: the build's data, and the origin every absolute URL starts with (the pages' input too). */
export type RouteInput = PageInput;

export function buildRoutes(input: RouteInput): RouteTable {
  const { baseUrl, snapshot } = input;
  const { snapshotDate, index } = snapshot;
  const profiles = snapshot.markets.map((m) => m.profile);
  const lastModified = new Date(`${snapshotDate}T00:00:00Z`).toUTCString();
  const routes = new Map<string, Route>();
  const headersOf = (kind: Kind, extra: readonly Header[] = [], cacheControl: string = CACHE_CONTROL.ok): Header[] => [
    ['Content-Type', CONTENT_TYPES[kind]],
    ['Cache-Control', cacheControl],
    ['Last-Modified', lastModified],
    ['Vary', 'Accept-Encoding'],
    ...COMMON_HEADERS,
    ...(kind === 'html' ? PAGE_HEADERS : []),
    ...extra,
  ];
  // Routes with the same bytes (a vintage not yet archived and the current documents) share their variants: compressed once.
  const byContent = new Map<string, Variants>();
  const add = (path: string, kind: Kind, body: string | Buffer, extra: readonly Header[] = [], cacheControl: string = CACHE_CONTROL.ok): void => {
    if (routes.has(path)) throw new InvariantError(`route ${path} is defined twice`);
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const key = etagOf(bytes);
    const made = byContent.get(key) ?? variants(() => bytes);
    byContent.set(key, made);
    routes.set(path, routeOf({ path, kind, contentType: CONTENT_TYPES[kind], headers: headersOf(kind, extra, cacheControl) }, made));
  };
  const describedBy = (path: string): [string, string] => ['Link', `<${baseUrl}${path}>; rel="describedby"`];
  const attachment = (filename: string): [string, string] => ['Content-Disposition', `attachment; filename="${filename}"`];
  // The OpenAPI document describes itself too, and the zip that holds it: their headers are known before their bytes are.
  const openApiHeaders = headersOf('json');
  const downloadHeaders = headersOf('zip', [attachment(DOWNLOAD_FILENAME)]);
  const served: Served = (path) => {
    if (path === PATHS.openApi) return { kind: 'json', contentType: CONTENT_TYPES.json, headers: openApiHeaders, body: undefined };
    if (path === PATHS.download) return { kind: 'zip', contentType: CONTENT_TYPES.zip, headers: downloadHeaders, body: undefined };
    const route = routes.get(path);
    if (route === undefined) throw new InvariantError(`the description names ${path}, which is not a route`);
    return { kind: route.kind, contentType: route.contentType, headers: route.headers, body: route.identity.body };
  };

  // The index links its schema, and this service's OpenAPI document (RFC 8631); its body stays as it was.
  add(PATHS.index, 'json', renderJson(index), [
    ['Link', `<${baseUrl}${PATHS.indexSchema}>; rel="describedby", <${baseUrl}${PATHS.openApi}>; rel="service-desc"`],
  ]);
  add(PATHS.bulkCsv, 'csv', renderBulkCsv(profiles), [attachment(BULK_CSV_FILENAME), describedBy(PATHS.csvDescriptor)]);
  for (const p of profiles) {
    add(PATHS.profile(p.market.id), 'json', renderJson(p), [describedBy(PATHS.profileSchema)]);
    add(PATHS.marketCsv(p.market.id), 'csv', renderMarketCsv(p), [attachment(marketCsvFilename(p.market.id)), describedBy(PATHS.csvDescriptor)]);
  }
  // Every observation per market, as JSON and in long format, and every market's in one CSV.
  const series = snapshot.markets.map((m) => m.seriesDocument);
  add(PATHS.bulkSeriesCsv, 'csv', renderBulkSeriesCsv(series), [attachment(BULK_SERIES_CSV_FILENAME), describedBy(PATHS.seriesCsvDescriptor)]);
  for (const s of series) {
    add(PATHS.series(s.market.id), 'json', renderJson(s), [describedBy(PATHS.seriesSchema)]);
    add(PATHS.seriesCsv(s.market.id), 'csv', renderSeriesCsv(s), [attachment(seriesCsvFilename(s.market.id)), describedBy(PATHS.seriesCsvDescriptor)]);
  }
  // Every published snapshot at addresses that never change: the archived bytes, and the current snapshot's until it is archived.
  add(PATHS.vintages, 'json', renderJson(buildVintageIndex(snapshot, baseUrl)), [describedBy(PATHS.vintagesSchema)]);
  const vintage = (date: string, name: string, body: Buffer): void => {
    const path = vintagePathOf(date, name);
    if (path === undefined) throw new InvariantError(`the archive of ${date} holds ${name}, which no vintage path serves`);
    const id = /^markets\/([a-z0-9-]+)\.csv$/.exec(name)?.[1];
    const csv = name.endsWith('.csv');
    const extra: Header[] = csv
      ? [attachment(id === undefined ? vintageBulkCsvFilename(date) : vintageCsvFilename(date, id)), describedBy(PATHS.csvDescriptor)]
      : [describedBy(name === 'markets.json' ? PATHS.indexSchema : PATHS.profileSchema)];
    add(path, csv ? 'csv' : 'json', Buffer.from(body.toString('utf8').replaceAll(ARCHIVE_BASE_URL, baseUrl), 'utf8'), extra, CACHE_CONTROL.immutable);
  };
  for (const past of snapshot.archive) for (const [name, body] of past.documents) vintage(past.snapshotDate, name, body);
  if (!snapshot.archive.some((p) => p.snapshotDate === snapshotDate)) {
    const current = (path: string): Buffer => routes.get(path)?.identity.body ?? Buffer.alloc(0);
    vintage(snapshotDate, 'markets.json', current(PATHS.index));
    vintage(snapshotDate, 'markets.csv', current(PATHS.bulkCsv));
    for (const p of profiles) {
      vintage(snapshotDate, `markets/${p.market.id}.json`, current(PATHS.profile(p.market.id)));
      vintage(snapshotDate, `markets/${p.market.id}.csv`, current(PATHS.marketCsv(p.market.id)));
    }
  }
  add(PATHS.profileSchema, 'json', renderJson(publishedSchema('MarketProfile', baseUrl)));
  add(PATHS.csvDescriptor, 'json', renderJson(csvDescriptor()));
  add(PATHS.indexSchema, 'json', renderJson(publishedSchema('MarketIndex', baseUrl)));
  add(PATHS.seriesSchema, 'json', renderJson(publishedSchema('MarketSeries', baseUrl)));
  add(PATHS.seriesCsvDescriptor, 'json', renderJson(seriesCsvDescriptor()));
  add(PATHS.vintagesSchema, 'json', renderJson(publishedSchema('VintageIndex', baseUrl)));
  for (const [path, html] of renderPages(input)) add(path, 'html', html);
  add(PATHS.stylesheet, 'css', STYLESHEET);
  add(PATHS.health, 'json', renderJson({ status: 'ok' }), [], CACHE_CONTROL.health);
  add(PATHS.robots, 'text', robotsTxt(baseUrl));
  // The descriptions last: they describe, and hash, the bytes above.
  add(PATHS.dataPackage, 'json', renderJson(dataPackage({ baseUrl, snapshot, served })));
  const marketIds = profiles.map((p) => p.market.id);
  const vintageDates = [snapshotDate, ...snapshot.archive.map((p) => p.snapshotDate).filter((d) => d !== snapshotDate)];
  add(PATHS.openApi, 'json', renderJson(openApiDocument({ baseUrl, marketIds, vintageDates, served })));
  if (routes.get(PATHS.openApi)?.headers.join('\n') !== openApiHeaders.join('\n'))
    throw new InvariantError(`the headers of ${PATHS.openApi} differ from those it describes`);
  // The sitemap lists the pages; the zip holds every JSON and CSV document above, byte for byte.
  add(
    PATHS.sitemap,
    'xml',
    sitemapXml(
      baseUrl,
      [...routes.values()].filter((r) => r.kind === 'html').map((r) => r.path),
      snapshotDate,
    ),
  );
  // The zip holds every document above, byte for byte; it is made when first read (the artifact, the server, verify),
  // since nothing in the build reads it and it costs a tenth of a build.
  const documents = [...routes.values()];
  const zip = variants(() => zipArchive(downloadEntries(documents, { baseUrl, snapshotDate, sources: snapshot.sources }), snapshotDate));
  routes.set(PATHS.download, routeOf({ path: PATHS.download, kind: 'zip', contentType: CONTENT_TYPES.zip, headers: downloadHeaders }, zip));
  return {
    baseUrl,
    snapshotDate,
    lastModified,
    marketIds,
    routes,
    notFoundPage: Buffer.from(renderNotFoundPage(input), 'utf8'),
  };
}
