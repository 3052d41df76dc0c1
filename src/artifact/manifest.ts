// The manifest: how the route table maps onto files (path → file, variants, hashes, headers) and the error bodies kept as files, for every engine that serves from disk; and the table read back by it, for `serve`, when it was built from the same inputs.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InvariantError } from '../contract/errors.ts';
import { byId } from '../contract/json.ts';
import { entriesOf } from '../contract/records.ts';
import { CONTENT_TYPES, NOT_FOUND_PAGE_HEADERS, PROBLEM_HEADERS, type Kind } from '../protocol/headers.ts';
import { marketProblem, notFoundProblem, problemText, type PageHint } from '../protocol/problems.ts';
import type { Route, RouteTable, Variant } from '../routes/route-table.ts';

/** The folder under dist/ that a static engine serves as its root. */
export const SITE_DIR = 'site';
/** The HTML 404 page, where Netlify and Cloudflare Pages look for it; nginx serves it through error_page. */
export const NOT_FOUND_FILE = '404.html';
/** Problem bodies as files, for engines that cannot build one per request (CDNs). */
export const PROBLEMS_DIR = '_problems';
/** The 404 pages that name the page a path meant, one per page, for the engines that choose one by the path (nginx, the Worker). */
export const HINT_PAGES_DIR = '_404';

/** The file of the 404 page naming a page: its path's segments joined by hyphens ("/markets/us-tx-austin" is _404/markets-us-tx-austin.html). */
export const hintPageFile = (path: string): string => `${HINT_PAGES_DIR}/${path.slice(1).replace(/[^A-Za-z0-9.-]+/g, '-')}.html`;

const EXTENSIONS: Record<Route['kind'], string> = { json: 'json', csv: 'csv', html: 'html', css: 'css', problem: 'json', zip: 'zip', text: 'txt', xml: 'xml' };

export const MAPPING =
  'A path whose last segment has a dot is its own file; any other path is a folder holding index.<ext> (json, csv, html, css, zip), so /api/markets/<id> (api/markets/<id>/index.json) and /api/markets/<id>/csv (api/markets/<id>/csv/index.csv) never clash. Precompressed variants sit beside each file as .gz and .br.';

/**
 * Path → file. A path whose last segment has an extension is its own file; any other path is a folder
 * holding `index.<ext>`, so a market's profile (a file) and its CSV (below it, `<profile path>/csv`) never clash.
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
  /** What an unknown path outside /api/ may mean (problems.ts, pageHints), tried in order, and the 404 page naming each page meant, by its path. */
  pageHints: PageHint[];
  hintPages: (ManifestErrorFile & { path: string })[];
  /**
   * Fingerprint of what `npm run build` built this from (fixtures, archive, code, node, BASE_URL): `serve` loads the
   * route table from the artifact only when its own inputs give the same fingerprint. Absent from other builds.
   */
  builtFrom?: string;
}

const sha256 = (body: Buffer): string => createHash('sha256').update(body).digest('hex');
const byPath = byId((r: { path: string }) => r.path);

/** The 404 pages that name a page, as files (site-relative), each with the path of the page it names. */
export function hintPageFiles(table: RouteTable): { entry: Omit<ManifestErrorFile, 'bytes' | 'sha256'> & { path: string }; body: Buffer }[] {
  return [...table.hintPages].map(([path, body]) => ({
    entry: {
      file: hintPageFile(path),
      status: 404,
      answers: `an unknown path outside /api/ that means ${path}`,
      contentType: CONTENT_TYPES.html,
      headers: Object.fromEntries(NOT_FOUND_PAGE_HEADERS),
      path,
    },
    body,
  }));
}

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
    pageHints: [...table.pageHints],
    hintPages: hintPageFiles(table).map(({ entry, body }) => ({ ...entry, bytes: body.length, sha256: sha256(body) })),
    ...(builtFrom === undefined ? {} : { builtFrom }),
  };
}

/**
 * Every file under a folder (none when it does not exist), by its path relative to the folder, sorted. Walked one
 * folder at a time: node's own recursive readdirSync takes ten times as long, a good part of `serve`'s start-up.
 */
export function filesUnder(dir: string): string[] {
  const files: string[] = [];
  const walk = (folder: string, prefix: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(folder, entry.name), `${prefix}${entry.name}/`);
      else if (entry.isFile()) files.push(prefix + entry.name);
    }
  };
  try {
    walk(dir, '');
  } catch {
    return [];
  }
  return files.sort();
}

/** What a build depends on besides its code's own version. */
export interface BuildInputs {
  baseUrl: string;
  fixturesDir: string;
  archiveDir: string;
}

/** Files beside the code that run nothing: type declarations and tsc's record of its last build. */
const NOT_CODE = /\.d\.ts$|\.tsbuildinfo$/;

/**
 * The fingerprint of a build's inputs: every byte (and name) of the fixtures and the archive, every module of the code
 * that renders and compresses (this module's tree: lib/ when compiled, src/ under tsx; not the type declarations and
 * tsc's build record beside it), node's version (its zlib makes the compressed bytes) and the base URL. Any change
 * gives another fingerprint.
 */
export function buildFingerprint(inputs: BuildInputs): string {
  const hash = createHash('sha256');
  hash.update(`market-profiles build 2\0node ${process.version}\0base ${inputs.baseUrl}\0`);
  const code = new URL('..', import.meta.url).pathname;
  hashFiles(
    hash,
    'code',
    code,
    filesUnder(code).filter((file) => !NOT_CODE.test(file)),
  );
  hashFiles(hash, 'fixtures', inputs.fixturesDir, filesUnder(inputs.fixturesDir));
  hashFiles(hash, 'archive', inputs.archiveDir, filesUnder(inputs.archiveDir));
  return hash.digest('hex');
}

/** Adds files of a folder to a hash: each one's label, name, length and bytes. */
export function hashFiles(hash: Hash, label: string, dir: string, files: readonly string[]): void {
  // Each file is read into the same buffer: fresh memory for every file costs more than reading them (bench:startup).
  let scratch = Buffer.allocUnsafeSlow(256 * 1024);
  for (const file of files) {
    const fd = openSync(join(dir, file), 'r');
    let read = 0;
    try {
      const size = fstatSync(fd).size;
      if (size > scratch.length) scratch = Buffer.allocUnsafeSlow(size);
      for (let n = -1; n !== 0 && read < size; read += n) n = readSync(fd, scratch, read, size - read, read);
    } finally {
      closeSync(fd);
    }
    hash.update(`${label}\0${file}\0${read}\0`).update(scratch.subarray(0, read));
  }
}

/** Whether every file the manifest lists is in `dir` with the length it gives: a look at each, nothing read. */
function allListed(dir: string, files: readonly { file: string; bytes: number }[]): boolean {
  for (const { file, bytes } of files) {
    const size = statSync(join(dir, file), { throwIfNoEntry: false })?.size;
    if (size !== bytes) return false;
  }
  return true;
}

/** A file of dist/ that is not what the build wrote there: served by no engine, named with what to do. */
export class BuiltFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: ${reason}; rebuild`);
    this.name = 'BuiltFileError';
  }
}

/**
 * The bytes of one listed file, checked against the manifest: a regular file (opened without waiting, so a FIFO put in
 * its place is refused at once rather than blocking the process until something writes to it), of the manifest's length
 * (never more than one byte past it is read), with the manifest's SHA-256.
 */
export function readListed(dir: string, { file, bytes, sha256: expected }: { file: string; bytes: number; sha256: string }): Buffer {
  let fd: number;
  try {
    fd = openSync(join(dir, file), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new BuiltFileError(file, `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new BuiltFileError(file, 'not a regular file');
    if (stat.size !== bytes) throw new BuiltFileError(file, `${stat.size} bytes on disk, the manifest says ${bytes}`);
    // One byte more than the manifest's length is asked for, so a file that grew since the fstat is seen to.
    const body = Buffer.allocUnsafeSlow(bytes + 1);
    let read = 0;
    for (let n = -1; n !== 0 && read < body.length; read += n) n = readSync(fd, body, read, body.length - read, read);
    if (read !== bytes) throw new BuiltFileError(file, `${read} bytes on disk, the manifest says ${bytes}`);
    const got = body.subarray(0, bytes);
    if (sha256(got) !== expected) throw new BuiltFileError(file, "its bytes are not the build's (their SHA-256 differs from the manifest's)");
    return got;
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of one listed file, read when first asked for and kept: `serve` reads a body at the first request that
 * needs it, as a static server would, rather than all 900 of them before it listens (most of its start-up). A file
 * that is not what the build wrote (replaced, cut, grown, not a regular file) is an error of the deployment, refused
 * by name (readListed) at that first read and at every later one, without reading it again.
 */
function readLater(dir: string, listed: { file: string; bytes: number; sha256: string }): () => Buffer {
  let body: Buffer | undefined;
  let refused: BuiltFileError | undefined;
  return () => {
    if (body !== undefined) return body;
    if (refused !== undefined) throw refused;
    try {
      body = readListed(dir, listed);
      return body;
    } catch (error) {
      refused = error instanceof BuiltFileError ? error : new BuiltFileError(listed.file, `cannot be read (${String(error)})`);
      throw refused;
    }
  };
}

const KIND_OF_TYPE = new Map<string, Kind>(entriesOf(CONTENT_TYPES).map(([kind, type]) => [type, kind]));

/**
 * The route table a build wrote to `outDir`, when its manifest says it was built from `builtFrom` (see
 * buildFingerprint) and every file is there with the length the manifest gives; undefined otherwise (no build, another
 * build, a file missing or cut short), and the caller builds afresh. A stale artifact is never read.
 */
export function readBuild(outDir: string, builtFrom: string): RouteTable | undefined {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
  if (manifest.builtFrom !== builtFrom) return undefined;
  try {
    return tableOf(manifest, outDir);
  } catch {
    return undefined; // a manifest of another shape: built afresh
  }
}

function tableOf(manifest: Manifest, outDir: string): RouteTable | undefined {
  const site = join(outDir, SITE_DIR);
  if (!allListed(site, [...manifest.routes.flatMap((entry) => entry.variants), manifest.notFoundPage, ...manifest.hintPages])) return undefined;
  const variantOf = (v: ManifestVariant): Variant => {
    const body = readLater(site, v);
    return {
      encoding: v.encoding,
      etag: v.etag,
      get body() {
        return body();
      },
    };
  };
  const routes = new Map<string, Route>();
  for (const entry of manifest.routes) {
    const kind = KIND_OF_TYPE.get(entry.contentType);
    if (kind === undefined) return undefined;
    const variants = new Map<string, Variant>(entry.variants.map((v) => [v.encoding, variantOf(v)]));
    const identity = variants.get('identity');
    if (identity === undefined) return undefined;
    routes.set(entry.path, {
      path: entry.path,
      kind,
      contentType: entry.contentType,
      headers: Object.entries(entry.headers),
      identity,
      gzip: variants.get('gzip'),
      br: variants.get('br'),
    });
  }
  return {
    baseUrl: manifest.baseUrl,
    snapshotDate: manifest.snapshotDate,
    lastModified: manifest.lastModified,
    marketIds: manifest.marketIds,
    routes,
    notFoundPage: readLater(site, manifest.notFoundPage)(),
    pageHints: manifest.pageHints,
    hintPages: new Map(manifest.hintPages.map((e) => [e.path, readLater(site, e)()])),
  };
}
