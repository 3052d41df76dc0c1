// Writes the route table to disk as a deployable folder (site files, manifest, engine configs), atomically (temp folder, then rename), and reads it back for `serve` when it was built from the same inputs.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { link, mkdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { CONTENT_TYPES, type Kind } from '../protocol/headers.ts';
import { cdnFiles } from './cdn.ts';
import { EDGE_ASSETS_DIR, edgeFiles } from './edge.ts';
import { ASSET_SIZE_LIMIT, edgeAssetFiles, edgeData } from './edge-data.ts';
import { nginxFiles } from './nginx.ts';
import { renderJson } from '../contract/json.ts';
import { SITE_DIR, VARIANT_SUFFIX, buildManifest, errorFiles, fileFor, type Manifest } from './manifest.ts';
import type { Route, RouteTable, Variant } from '../routes/route-table.ts';
import { entriesOf } from '../contract/records.ts';

/** What an artifact records beside the table, and how its edge assets are cut. */
export interface ArtifactOptions {
  /** The fingerprint of the build's inputs, recorded in the manifest (`serve` reads the build back only when it matches). */
  builtFrom?: string;
  /** The longest edge asset file: Cloudflare's asset size limit by default; tests ask for less to see bodies in parts. */
  edgePartBytes?: number;
}

/**
 * Every file of the artifact, relative to the output folder, with its bytes: site files, manifest, engine configs. The
 * edge Worker's assets folder holds the very same Buffers as site/ (route files and the 404 page, not the files only
 * Netlify and Cloudflare Pages read, which Wrangler would take as its own rules); writeArtifact writes them once and
 * links them. A body longer than `edgePartBytes` is there in parts.
 */
export function artifactFiles(table: RouteTable, options: ArtifactOptions = {}): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const edgeAssets: [string, Buffer][] = [];
  const manifest = buildManifest(table, options.builtFrom);
  const edge = edgeData(manifest, options.edgePartBytes ?? ASSET_SIZE_LIMIT);
  // The Worker reads each distinct body once (edgeData points routes with the same bytes at one file), a long one in parts.
  const edgeReads = edgeAssetFiles(edge);
  for (const route of table.routes.values()) {
    const file = fileFor(route);
    for (const v of [route.identity, route.gzip, route.br]) {
      if (v === undefined) continue;
      files.set(join(SITE_DIR, file + VARIANT_SUFFIX[v.encoding]), v.body);
      // A body in one part is the site's own Buffer (linked when written); a part of a longer one is a view of it.
      for (const part of edgeReads.get(file + VARIANT_SUFFIX[v.encoding]) ?? [])
        edgeAssets.push([join(EDGE_ASSETS_DIR, part.file), part.end - part.start === v.body.length ? v.body : v.body.subarray(part.start, part.end)]);
    }
  }
  for (const { entry, body } of errorFiles(table)) files.set(join(SITE_DIR, entry.file), body);
  edgeAssets.push([join(EDGE_ASSETS_DIR, manifest.notFoundPage.file), table.notFoundPage]);
  for (const [file, text] of [...nginxFiles(manifest), ...cdnFiles(manifest), ...edgeFiles(edge)]) files.set(file, Buffer.from(text));
  for (const [file, body] of edgeAssets) files.set(file, body);
  files.set('manifest.json', Buffer.from(renderJson(manifest)));
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
  // The same bytes under two names (site/ and the edge assets) are one file with two links.
  const written = new Map<Buffer, string>();
  try {
    for (const [file, body] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const path = join(staging, file);
      await mkdir(dirname(path), { recursive: true });
      const first = written.get(body);
      if (first !== undefined) {
        await link(first, path);
        continue;
      }
      await writeFile(path, body);
      written.set(body, path);
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
export async function writeBuild(table: RouteTable, outDir: string, options: ArtifactOptions = {}): Promise<Map<string, Buffer>> {
  const files = artifactFiles(table, options);
  await writeArtifact(files, outDir, { mtime: new Date(table.lastModified) });
  return files;
}

/** Every file under a folder (none when it does not exist), by its path relative to the folder, sorted. */
function filesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** What a build depends on besides its code's own version. */
export interface BuildInputs {
  baseUrl: string;
  fixturesDir: string;
  archiveDir: string;
}

/**
 * The fingerprint of a build's inputs: every byte (and name) of the fixtures and the archive, every file of the code
 * that renders and compresses (this module's tree: lib/ when compiled, src/ under tsx), node's version (its zlib makes
 * the compressed bytes) and the base URL. Any change gives another fingerprint.
 */
export function buildFingerprint(inputs: BuildInputs): string {
  const hash = createHash('sha256');
  const add = (label: string, dir: string): void => {
    for (const file of filesUnder(dir)) {
      const body = readFileSync(join(dir, file));
      hash.update(`${label}\0${file}\0${body.length}\0`).update(body);
    }
  };
  hash.update(`market-profiles build 1\0node ${process.version}\0base ${inputs.baseUrl}\0`);
  add('code', new URL('..', import.meta.url).pathname);
  add('fixtures', inputs.fixturesDir);
  add('archive', inputs.archiveDir);
  return hash.digest('hex');
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
    const read = (file: string, bytes: number): Buffer => {
      const body = readFileSync(join(outDir, SITE_DIR, file));
      if (body.length !== bytes) throw new Error(`${file}: ${body.length} bytes, the manifest says ${bytes}`);
      return body;
    };
    const routes = new Map<string, Route>();
    for (const entry of manifest.routes) {
      const kind = KIND_OF_TYPE.get(entry.contentType);
      if (kind === undefined) return undefined;
      const variants = new Map<string, Variant>(entry.variants.map((v) => [v.encoding, { encoding: v.encoding, body: read(v.file, v.bytes), etag: v.etag }]));
      const identity = variants.get('identity');
      if (identity === undefined) return undefined;
      const gzip = variants.get('gzip');
      const br = variants.get('br');
      routes.set(entry.path, {
        path: entry.path,
        kind,
        contentType: entry.contentType,
        headers: Object.entries(entry.headers),
        identity,
        gzip,
        br,
      });
    }
    return {
      baseUrl: manifest.baseUrl,
      snapshotDate: manifest.snapshotDate,
      lastModified: manifest.lastModified,
      marketIds: manifest.marketIds,
      routes,
      notFoundPage: read(manifest.notFoundPage.file, manifest.notFoundPage.bytes),
    };
  } catch {
    return undefined;
  }
}
