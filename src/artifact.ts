// Writes the route table to disk as a deployable folder (site files, manifest, engine configs), atomically (temp folder, then rename).
import { mkdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { cdnFiles } from './engines/cdn.ts';
import { nginxFiles } from './engines/nginx.ts';
import { renderJson } from './json.ts';
import { SITE_DIR, VARIANT_SUFFIX, buildManifest, errorFiles, fileFor } from './manifest.ts';
import type { RouteTable } from './routes.ts';

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
