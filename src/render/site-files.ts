// The files for crawlers and mirrors: robots.txt, the sitemap of the pages, and the entries of the one-file download (every JSON and CSV document and a README, in a folder named for the snapshot).
import { renderJson } from '../contract/json.ts';
import { API_PREFIX, ENDPOINTS } from '../contract/endpoints.ts';
import { PATHS } from '../contract/paths.ts';
import type { Snapshot } from '../methodology/snapshot.ts';
import { downloadReadme } from './download-readme.ts';
import type { ZipEntry } from './zip.ts';

export function robotsTxt(baseUrl: string): string {
  return `# Every page and document may be read and indexed.\nUser-agent: *\nAllow: /\n\nSitemap: ${baseUrl}${PATHS.sitemap}\n`;
}

const xmlText = (text: string): string => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The sitemap protocol 0.9: each page with the snapshot date as its last modification. */
export function sitemapXml(baseUrl: string, pagePaths: readonly string[], snapshotDate: string): string {
  const urls = [...pagePaths]
    .sort()
    .map((path) => `  <url>\n    <loc>${xmlText(baseUrl + path)}</loc>\n    <lastmod>${snapshotDate}</lastmod>\n  </url>\n`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`;
}

/**
 * The name a served document has inside the zip: its path without /api/, a JSON document with .json added and a CSV
 * path's last /csv made .csv, so the names mirror the paths and never clash (/api/markets/x → markets/x.json,
 * /api/markets/x/csv → markets/x.csv, /api/markets/csv → markets.csv).
 */
export function zipName(path: string, kind: 'json' | 'csv'): string {
  const rest = path.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length + 1) : path;
  return kind === 'csv' ? `${rest.replace(/\/csv$/, '')}.csv` : `${rest}.json`;
}

interface DownloadContext {
  baseUrl: string;
  snapshot: Snapshot;
}

/** The one folder the download unpacks into, named for the snapshot: the download's name with the date (`housing-markets-2026-11-29`). */
export const downloadFolder = (snapshotDate: string): string => `${ENDPOINTS.download.attachment.replace(/\.zip$/, '')}-${snapshotDate}`;

/** The README's name in the download's folder. */
export const README_ENTRY = 'README.md';

interface DocumentRoute {
  path: string;
  kind: string;
  identity: { body: Buffer };
  /** The route's gzip variant: its deflate stream is the zip entry's, so nothing is compressed twice. */
  gzip?: { body: Buffer };
}

/** The Data Package's name in the zip (/api/datapackage → datapackage.json). */
export const DATA_PACKAGE_ENTRY = zipName(PATHS.dataPackage, 'json');

/**
 * The Data Package as the zip holds it: the served one with each resource's path, an address on `baseUrl`, made the
 * name of that CSV inside the zip, so the unpacked folder stands alone. Everything else (bytes, hashes, schemas) is the
 * served document's.
 */
export function localDataPackage(served: Buffer, baseUrl: string): Buffer {
  const pkg = JSON.parse(served.toString('utf8')) as { resources?: { path?: unknown }[] };
  for (const resource of pkg.resources ?? []) {
    if (typeof resource.path === 'string' && resource.path.startsWith(baseUrl)) resource.path = zipName(resource.path.slice(baseUrl.length), 'csv');
  }
  return Buffer.from(renderJson(pkg), 'utf8');
}

/**
 * The zip's entries, all in one folder named for the snapshot: every JSON and CSV route but the liveness probe, under
 * names that mirror the paths, and README.md; the Data Package among them points at the files beside it
 * (localDataPackage).
 */
export function downloadEntries(routes: Iterable<DocumentRoute>, context: DownloadContext): ZipEntry[] {
  const folder = downloadFolder(context.snapshot.snapshotDate);
  const documents = [...routes].filter((r) => (r.kind === 'json' || r.kind === 'csv') && r.path !== PATHS.health);
  const entries = documents.map((r) =>
    r.path === PATHS.dataPackage
      ? { name: DATA_PACKAGE_ENTRY, body: localDataPackage(r.identity.body, context.baseUrl), gzip: undefined }
      : { name: zipName(r.path, r.kind as 'json' | 'csv'), body: r.identity.body, gzip: r.gzip?.body },
  );
  const readme = downloadReadme({ baseUrl: context.baseUrl, snapshot: context.snapshot, nameOf: zipName, dataPackage: DATA_PACKAGE_ENTRY });
  return [...entries, { name: README_ENTRY, body: Buffer.from(readme, 'utf8'), gzip: undefined }].map(({ name, body, gzip }) =>
    gzip === undefined ? { name: `${folder}/${name}`, body } : { name: `${folder}/${name}`, body, gzip },
  );
}
