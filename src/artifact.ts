// Writes the route table to disk as a deployable folder with a manifest, atomically (temp folder, then rename).
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Route, RouteTable } from './routes.ts';

/** The folder under dist/ that a static engine serves as its root. */
export const SITE_DIR = 'site';

const EXTENSIONS: Record<Route['kind'], string> = { json: 'json', csv: 'csv', html: 'html', css: 'css', problem: 'json' };

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

export interface Manifest {
  snapshotDate: string;
  baseUrl: string;
  routes: ManifestEntry[];
}

export function buildManifest(table: RouteTable): Manifest {
  const routes = [...table.routes.values()]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((route) => {
      const file = fileFor(route);
      return {
        path: route.path,
        file,
        status: 200 as const,
        contentType: route.contentType,
        headers: Object.fromEntries(route.headers),
        variants: [route.identity, route.gzip, route.br]
          .filter((v) => v !== undefined)
          .map((v) => ({
            encoding: v.encoding,
            file: file + VARIANT_SUFFIX[v.encoding],
            bytes: v.body.length,
            sha256: createHash('sha256').update(v.body).digest('hex'),
            etag: v.etag,
          })),
      };
    });
  return { snapshotDate: table.snapshotDate, baseUrl: table.baseUrl, routes };
}

/** Every file of the artifact, relative to the output folder, with its bytes. */
export function artifactFiles(table: RouteTable): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const route of table.routes.values()) {
    const file = fileFor(route);
    for (const v of [route.identity, route.gzip, route.br]) {
      if (v !== undefined) files.set(join(SITE_DIR, file + VARIANT_SUFFIX[v.encoding]), v.body);
    }
  }
  files.set('manifest.json', Buffer.from(`${JSON.stringify(buildManifest(table), null, 2)}\n`));
  return files;
}

/**
 * Writes into a sibling temporary folder, then swaps it in with renames, so a failure at any point
 * before the swap leaves the previous output exactly as it was.
 */
export async function writeArtifact(files: Map<string, Buffer>, outDir: string): Promise<void> {
  const target = resolve(outDir);
  const staging = `${target}.tmp-${process.pid}`;
  const retired = `${target}.old-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    for (const [file, body] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const path = join(staging, file);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, body);
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
