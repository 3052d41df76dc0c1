// Writes the route table to disk as a deployable folder (site files, manifest, engine configs), atomically (temp folder, then rename); manifest.ts reads it back.
import { link, mkdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { cdnFiles } from './cdn.ts';
import { EDGE_ASSETS_DIR, edgeFiles } from './edge.ts';
import { ASSET_SIZE_LIMIT, edgeAssetFiles, edgeData } from './edge-data.ts';
import { nginxFiles } from './nginx.ts';
import { renderJson } from '../contract/json.ts';
import { SITE_DIR, VARIANT_SUFFIX, buildManifest, errorFiles, fileFor, hintPageFiles } from './manifest.ts';
import type { RouteTable } from '../routes/route-table.ts';

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
  for (const { entry, body } of hintPageFiles(table)) {
    files.set(join(SITE_DIR, entry.file), body);
    edgeAssets.push([join(EDGE_ASSETS_DIR, entry.file), body]);
  }
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
