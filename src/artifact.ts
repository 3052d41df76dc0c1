// Writes the route table to disk as a deployable folder (files, manifest, engine configs), atomically (temp folder, then rename).
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { marketProblem, notFoundProblem, NOT_FOUND_PAGE_HEADERS, PROBLEM_HEADERS, problemText } from './answers.ts';
import { cdnFiles } from './engines/cdn.ts';
import { nginxFiles } from './engines/nginx.ts';
import { CONTENT_TYPES, type Route, type RouteTable } from './routes.ts';

/** The folder under dist/ that a static engine serves as its root. */
export const SITE_DIR = 'site';
/** The HTML 404 page, where Netlify and Cloudflare Pages look for it; nginx serves it through error_page. */
export const NOT_FOUND_FILE = '404.html';
/** Problem bodies as files, for engines that cannot build one per request (CDNs). */
export const PROBLEMS_DIR = '_problems';

const EXTENSIONS: Record<Route['kind'], string> = { json: 'json', csv: 'csv', html: 'html', css: 'css', problem: 'json' };

export const MAPPING = 'A path whose last segment has a dot is its own file; any other path is a folder holding index.<ext> (json, csv, html, css), so /api/markets/<id> (api/markets/<id>/index.json) and /api/markets/<id>/csv (api/markets/<id>/csv/index.csv) never clash. Precompressed variants sit beside each file as .gz and .br.';

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

const VARIANT_SUFFIX = { identity: '', gzip: '.gz', br: '.br' } as const;

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
}

const sha256 = (body: Buffer): string => createHash('sha256').update(body).digest('hex');
const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The error bodies written as files (site-relative), with what each answers. */
function errorFiles(table: RouteTable): { entry: Omit<ManifestErrorFile, 'bytes' | 'sha256'>; body: Buffer }[] {
  const problemFile = (name: string, answers: string, text: string): { entry: Omit<ManifestErrorFile, 'bytes' | 'sha256'>; body: Buffer } => ({
    entry: { file: `${PROBLEMS_DIR}/${name}`, status: 404, answers, contentType: CONTENT_TYPES.problem, headers: Object.fromEntries(PROBLEM_HEADERS) },
    body: Buffer.from(text),
  });
  return [
    {
      entry: { file: NOT_FOUND_FILE, status: 404, answers: 'any unknown path outside /api/', contentType: CONTENT_TYPES.html, headers: Object.fromEntries(NOT_FOUND_PAGE_HEADERS) },
      body: table.notFoundPage,
    },
    problemFile('market-not-found.json', 'an unknown market id on /api/markets/<id> or /api/markets/<id>/csv, without echoing the id', problemText(marketProblem(table.baseUrl, '', undefined, table.marketIds))),
    problemFile('not-found.json', 'any other unknown path under /api/', problemText(notFoundProblem(table.baseUrl))),
  ];
}

export function buildManifest(table: RouteTable): Manifest {
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
  if (notFoundPage === undefined) throw new Error('the 404 page is missing from the error files');
  return {
    mapping: MAPPING,
    snapshotDate: table.snapshotDate,
    baseUrl: table.baseUrl,
    lastModified: table.lastModified,
    marketIds: [...table.marketIds].sort(),
    routes,
    notFoundPage,
    problems,
  };
}

/** Every file of the artifact, relative to the output folder, with its bytes: site files, manifest, engine configs. */
export function artifactFiles(table: RouteTable): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const route of table.routes.values()) {
    const file = fileFor(route);
    for (const v of [route.identity, route.gzip, route.br]) {
      if (v !== undefined) files.set(join(SITE_DIR, file + VARIANT_SUFFIX[v.encoding]), v.body);
    }
  }
  for (const { entry, body } of errorFiles(table)) files.set(join(SITE_DIR, entry.file), body);
  const manifest = buildManifest(table);
  for (const [file, text] of [...nginxFiles(manifest), ...cdnFiles(manifest)]) files.set(file, Buffer.from(text));
  files.set('manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  return files;
}

export interface WriteOptions {
  /**
   * Modification time of every file written. The build passes the snapshot date, so nginx's
   * If-Modified-Since answers (which compare file times) agree with the Last-Modified header.
   */
  mtime?: Date;
}

/**
 * Writes into a sibling temporary folder, then swaps it in with renames, so a failure at any point
 * before the swap leaves the previous output exactly as it was.
 */
export async function writeArtifact(files: Map<string, Buffer>, outDir: string, options: WriteOptions = {}): Promise<void> {
  const target = resolve(outDir);
  const staging = `${target}.tmp-${process.pid}`;
  const retired = `${target}.old-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    for (const [file, body] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const path = join(staging, file);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
      if (options.mtime !== undefined) await utimes(path, options.mtime, options.mtime);
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  let hadPrevious = true;
  try {
    await rename(target, retired);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    hadPrevious = false;
  }
  await rename(staging, target);
  if (hadPrevious) await rm(retired, { recursive: true, force: true });
}

/** The build's last step: every file, with file times set to the snapshot date. */
export async function writeBuild(table: RouteTable, outDir: string): Promise<Map<string, Buffer>> {
  const files = artifactFiles(table);
  await writeArtifact(files, outDir, { mtime: new Date(table.lastModified) });
  return files;
}
