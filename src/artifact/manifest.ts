// The manifest: how the route table maps onto files (path → file, variants, hashes, headers) and the error bodies kept as files, for every engine that serves from disk.
import { createHash } from 'node:crypto';
import { InvariantError } from '../contract/errors.ts';
import { byId } from '../contract/json.ts';
import { CONTENT_TYPES, NOT_FOUND_PAGE_HEADERS, PROBLEM_HEADERS } from '../protocol/headers.ts';
import { marketProblem, notFoundProblem, problemText } from '../protocol/problems.ts';
import type { Route, RouteTable } from '../routes/route-table.ts';

/** The folder under dist/ that a static engine serves as its root. */
export const SITE_DIR = 'site';
/** The HTML 404 page, where Netlify and Cloudflare Pages look for it; nginx serves it through error_page. */
export const NOT_FOUND_FILE = '404.html';
/** Problem bodies as files, for engines that cannot build one per request (CDNs). */
export const PROBLEMS_DIR = '_problems';

const EXTENSIONS: Record<Route['kind'], string> = { json: 'json', csv: 'csv', html: 'html', css: 'css', problem: 'json', zip: 'zip', text: 'txt', xml: 'xml' };

export const MAPPING =
  'A path whose last segment has a dot is its own file; any other path is a folder holding index.<ext> (json, csv, html, css, zip), so /api/markets/<id> (api/markets/<id>/index.json) and /api/markets/<id>/csv (api/markets/<id>/csv/index.csv) never clash. Precompressed variants sit beside each file as .gz and .br.';

/**
 * Path → file. A path whose last segment has an extension is its own file; any other path is a folder
 * holding `index.<ext>`, so `/api/markets/<id>` (a file) and `/api/markets/<id>/csv` (below it) never clash.
 */
export function fileFor(route: Pick<Route, 'path' | 'kind'>): string {
  if (route.path === '/') return `index.${EXTENSIONS[route.kind]}`;
  const relative = route.path.slice(1);
  const last = relative.split('/').pop() ?? '';
  return last.includes('.') ? relative : `${relative}/index.${EXTENSIONS[route.kind]}`;
}

export const VARIANT_SUFFIX = { identity: '', gzip: '.gz', br: '.br' } as const;

export interface ManifestVariant {
  encoding: 'identity' | 'gzip' | 'br';
  file: string;
  bytes: number;
  sha256: string;
  etag: string;
}

export interface ManifestEntry {
  path: string;
  file: string;
  status: 200;
  contentType: string;
  headers: Record<string, string>;
  variants: ManifestVariant[];
}

/** A non-route answer kept as a file: the 404 page, and problem bodies for engines without per-request logic. */
export interface ManifestErrorFile {
  file: string;
  status: number;
  /** What it answers, in words. */
  answers: string;
  contentType: string;
  headers: Record<string, string>;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  mapping: string;
  snapshotDate: string;
  baseUrl: string;
  lastModified: string;
  marketIds: string[];
  routes: ManifestEntry[];
  notFoundPage: ManifestErrorFile;
  problems: ManifestErrorFile[];
  /**
   * Fingerprint of what `npm run build` built this from (fixtures, archive, code, node, BASE_URL): `serve` loads the
   * route table from the artifact only when its own inputs give the same fingerprint. Absent from other builds.
   */
  builtFrom?: string;
}

const sha256 = (body: Buffer): string => createHash('sha256').update(body).digest('hex');
const byPath = byId((r: { path: string }) => r.path);

/** The error bodies written as files (site-relative), with what each answers. */
export function errorFiles(table: RouteTable): { entry: Omit<ManifestErrorFile, 'bytes' | 'sha256'>; body: Buffer }[] {
  const problemFile = (name: string, answers: string, text: string): { entry: Omit<ManifestErrorFile, 'bytes' | 'sha256'>; body: Buffer } => ({
    entry: { file: `${PROBLEMS_DIR}/${name}`, status: 404, answers, contentType: CONTENT_TYPES.problem, headers: Object.fromEntries(PROBLEM_HEADERS) },
    body: Buffer.from(text),
  });
  return [
    {
      entry: {
        file: NOT_FOUND_FILE,
        status: 404,
        answers: 'any unknown path outside /api/',
        contentType: CONTENT_TYPES.html,
        headers: Object.fromEntries(NOT_FOUND_PAGE_HEADERS),
      },
      body: table.notFoundPage,
    },
    problemFile(
      'market-not-found.json',
      'an unknown market id on /api/markets/<id> or /api/markets/<id>/csv, without echoing the id',
      problemText(marketProblem(table.baseUrl, '', undefined, table.marketIds)),
    ),
    problemFile('not-found.json', 'any other unknown path under /api/', problemText(notFoundProblem(table.baseUrl))),
  ];
}

export function buildManifest(table: RouteTable, builtFrom?: string): Manifest {
  const routes = [...table.routes.values()].sort(byPath).map((route) => {
    const file = fileFor(route);
    return {
      path: route.path,
      file,
      status: 200 as const,
      contentType: route.contentType,
      headers: Object.fromEntries(route.headers),
      variants: [route.identity, route.gzip, route.br]
        .filter((v) => v !== undefined)
        .map((v) => ({ encoding: v.encoding, file: file + VARIANT_SUFFIX[v.encoding], bytes: v.body.length, sha256: sha256(v.body), etag: v.etag })),
    };
  });
  const [notFoundPage, ...problems] = errorFiles(table).map(({ entry, body }) => ({ ...entry, bytes: body.length, sha256: sha256(body) }));
  if (notFoundPage === undefined) throw new InvariantError('the 404 page is missing from the error files');
  return {
    mapping: MAPPING,
    snapshotDate: table.snapshotDate,
    baseUrl: table.baseUrl,
    lastModified: table.lastModified,
    marketIds: [...table.marketIds].sort(),
    routes,
    notFoundPage,
    problems,
    ...(builtFrom === undefined ? {} : { builtFrom }),
  };
}
