// The route table: every public path with its exact bytes, headers and precompressed variants, made from the endpoints' records and their renderers.
import { ENDPOINT_LIST, ENDPOINTS, attachmentAt, describerOf, pathAt, type AnyEndpoint } from '../contract/endpoints.ts';
import { CACHE_CONTROL, COMMON_HEADERS, CONTENT_TYPES, PAGE_HEADERS, type Header, type Kind } from '../protocol/headers.ts';
import type { Served } from '../describe/served.ts';
import { InvariantError } from '../contract/errors.ts';
import { ARCHIVE_BASE_URL, PATHS, vintageFileOf, vintagePathOf } from '../contract/paths.ts';
import { renderAllPages as renderPages, renderHintPages, renderNotFound as renderNotFoundPage } from '../render/pages/render.tsx';
import { pageHints, type PageHint } from '../protocol/problems.ts';
import type { PageInput } from '../render/pages/site.ts';
import { RENDERERS, type RenderInput } from './renderers.ts';
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
  /** What an unknown path outside /api/ may mean: the page a path names in other case, or a market by its name or slug, tried in order. */
  pageHints: readonly PageHint[];
  /** The 404 page that names a page first ("Did you mean Austin, TX?"), by the path of the page meant. */
  hintPages: ReadonlyMap<string, Buffer>;
}

/** What the routes are made of: the build's data, and the origin every absolute URL starts with (the pages' input too). */
export type RouteInput = PageInput;

/** The vintage record of an archived document's name (contract/paths.ts VINTAGE_DOCUMENTS). */
const VINTAGE_RECORDS = { index: 'vintageIndex', bulkCsv: 'vintageBulkCsv', profile: 'vintageProfile', csv: 'vintageCsv' } as const;

export function buildRoutes(input: RouteInput): RouteTable {
  const { baseUrl, snapshot } = input;
  const { snapshotDate } = snapshot;
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
  /**
   * A record's headers at one of its paths: its download name and the Link to what describes it (and, on the index, to
   * this OpenAPI document); its cache rule unless another is given.
   */
  const recordHeaders = (record: AnyEndpoint, marketId = '', date = '', cacheControl: string = CACHE_CONTROL[record.cache]): Header[] => {
    const extra: Header[] = [];
    const name = attachmentAt(record, marketId, date);
    if (name !== undefined) extra.push(['Content-Disposition', `attachment; filename="${name}"`]);
    const by = describerOf(record);
    if (by !== undefined) {
      const describes = `<${baseUrl}${ENDPOINTS[by].path}>; rel="describedby"`;
      extra.push(['Link', record.serviceDesc === true ? `${describes}, <${baseUrl}${PATHS.openApi}>; rel="service-desc"` : describes]);
    }
    return headersOf(record.kind, extra, cacheControl);
  };
  // Routes with the same bytes (a vintage not yet archived and the current documents) share their variants: compressed once.
  const byContent = new Map<string, Variants>();
  const add = (path: string, kind: Kind, headers: readonly Header[], body: string | Buffer): void => {
    if (routes.has(path)) throw new InvariantError(`route ${path} is defined twice`);
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const key = etagOf(bytes);
    const made = byContent.get(key) ?? variants(() => bytes);
    byContent.set(key, made);
    routes.set(path, routeOf({ path, kind, contentType: CONTENT_TYPES[kind], headers }, made));
  };
  // The descriptions describe themselves too, and the zip that holds them: their headers are known before their bytes are.
  const later = new Map(
    ENDPOINT_LIST.flatMap(([id, record]) => {
      const renderer = RENDERERS[id];
      return renderer === undefined || renderer.phase === 'documents'
        ? []
        : [[pathAt(record, '', ''), { record, renderer, headers: recordHeaders(record) }] as const];
    }),
  );
  const served: Served = (path) => {
    const route = routes.get(path);
    if (route !== undefined) return { kind: route.kind, contentType: route.contentType, headers: route.headers, body: route.identity.body };
    const coming = later.get(path);
    if (coming === undefined) throw new InvariantError(`the description names ${path}, which is not a route`);
    return { kind: coming.record.kind, contentType: CONTENT_TYPES[coming.record.kind], headers: coming.headers, body: undefined };
  };
  const rendering: RenderInput = { ...input, routes, served };
  const render = (phase: 'documents' | 'descriptions'): void => {
    for (const [id, record] of ENDPOINT_LIST) {
      const renderer = RENDERERS[id];
      if (renderer?.phase !== phase) continue;
      if (renderer.scope === 'service') add(pathAt(record, '', ''), record.kind, recordHeaders(record), renderer.render(rendering));
      else
        for (const m of snapshot.markets) {
          const marketId = m.profile.market.id;
          add(pathAt(record, marketId, ''), record.kind, recordHeaders(record, marketId), renderer.render(rendering, m));
        }
    }
  };

  render('documents');
  // Every published snapshot at its vintage addresses: the archived bytes, immutable; and the current snapshot's until it
  // is archived, with the ordinary cache rule, since a rebuild before `archive` may still change them (docs/decisions.md).
  const vintage = (date: string, name: string, body: Buffer, archived = true): void => {
    const path = vintagePathOf(date, name);
    const file = vintageFileOf(name);
    if (path === undefined || file === undefined) throw new InvariantError(`the archive of ${date} holds ${name}, which no vintage path serves`);
    const record: AnyEndpoint = ENDPOINTS[VINTAGE_RECORDS[file.kind]];
    const headers = recordHeaders(record, 'id' in file ? file.id : '', date, archived ? CACHE_CONTROL[record.cache] : CACHE_CONTROL.ok);
    add(path, record.kind, headers, Buffer.from(body.toString('utf8').replaceAll(ARCHIVE_BASE_URL, baseUrl), 'utf8'));
  };
  for (const past of snapshot.archive) for (const [name, body] of past.documents) vintage(past.snapshotDate, name, body);
  if (!snapshot.archive.some((p) => p.snapshotDate === snapshotDate)) {
    const current = (path: string): Buffer => routes.get(path)?.identity.body ?? Buffer.alloc(0);
    vintage(snapshotDate, 'markets.json', current(PATHS.index), false);
    vintage(snapshotDate, 'markets.csv', current(PATHS.bulkCsv), false);
    for (const { profile: p } of snapshot.markets) {
      vintage(snapshotDate, `markets/${p.market.id}.json`, current(PATHS.profile(p.market.id)), false);
      vintage(snapshotDate, `markets/${p.market.id}.csv`, current(PATHS.marketCsv(p.market.id)), false);
    }
  }
  for (const [path, html] of renderPages(input)) add(path, 'html', headersOf('html'), html);
  render('descriptions');
  // A description's headers are those it described itself with; a lazy body is made when first read, under the headers announced.
  for (const [path, { record, renderer, headers }] of later) {
    const made = routes.get(path);
    if (made !== undefined) {
      if (made.headers.join('\n') !== headers.join('\n')) throw new InvariantError(`the headers of ${path} differ from those it describes`);
      continue;
    }
    if (renderer.scope !== 'service') throw new InvariantError(`${path}: a lazy body is one per service`);
    const body = variants(() => {
      const made = renderer.render(rendering);
      return typeof made === 'string' ? Buffer.from(made, 'utf8') : made;
    });
    routes.set(path, routeOf({ path, kind: record.kind, contentType: CONTENT_TYPES[record.kind], headers }, body));
  }
  const hints = pageHints(
    routes.keys(),
    snapshot.markets.map(({ profile: { market } }) => market),
    PATHS.marketPage,
  );
  return {
    baseUrl,
    snapshotDate,
    lastModified,
    marketIds: snapshot.markets.map((m) => m.profile.market.id),
    routes,
    notFoundPage: Buffer.from(renderNotFoundPage(input), 'utf8'),
    pageHints: hints,
    hintPages: new Map([...renderHintPages(input, new Set(hints.map((h) => h.path)))].map(([path, html]) => [path, Buffer.from(html, 'utf8')])),
  };
}
