// The files for crawlers and mirrors: robots.txt, the sitemap of the pages, and the entries of the one-file download (every JSON and CSV document, and a README).
import { renderJson } from '../contract/json.ts';
import { CSV_CAVEATS, PROFILE_CAVEATS } from '../contract/schemas.ts';
import { PATHS } from '../contract/paths.ts';
import type { SourceData } from '../methodology/snapshot.ts';
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
  const rest = path.replace(/^\/api\//, '');
  return kind === 'csv' ? `${rest.replace(/\/csv$/, '')}.csv` : `${rest}.json`;
}

interface DownloadContext {
  baseUrl: string;
  snapshotDate: string;
  sources: readonly SourceData[];
}

function readme(context: DownloadContext, names: readonly [string, string][]): string {
  const lines = [
    `Housing market profiles: every JSON and CSV document of ${context.baseUrl}, snapshot of ${context.snapshotDate}`,
    '',
    'Each file holds the bytes the service serves at the address beside it.',
    '',
    'Caveats (show them with the data):',
    ...PROFILE_CAVEATS.map((c) => `- ${c}`),
    ...CSV_CAVEATS.map((c) => `- CSV: ${c}`),
    '',
    'Sources and their terms:',
    ...context.sources.map(({ source, licence }) => `- ${source.agency}, ${source.datasetName} (${source.sourceUrl}): ${licence.terms} [${licence.id}]`),
    '',
    'Files:',
    ...names.map(([name, path]) => `- ${name}  ${context.baseUrl}${path}`),
    '',
    `${DATA_PACKAGE_ENTRY} is the one file whose bytes differ from the address beside it: each resource's path is the`,
    'name of its CSV in this folder, not its address, so the unpacked folder is a Data Package on its own (bytes and',
    "hashes are those of the files here), which Frictionless Data's tools validate offline. Every other file is",
    'exactly what the service serves.',
    '',
  ];
  return lines.join('\n');
}

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
 * The zip's entries: every JSON and CSV route but the liveness probe, under names that mirror the paths, and README.txt;
 * the Data Package among them points at the files beside it (localDataPackage).
 */
export function downloadEntries(routes: Iterable<DocumentRoute>, context: DownloadContext): ZipEntry[] {
  const documents = [...routes].filter((r) => (r.kind === 'json' || r.kind === 'csv') && r.path !== PATHS.health);
  const entries = documents
    .map((r) =>
      r.path === PATHS.dataPackage
        ? { name: DATA_PACKAGE_ENTRY, body: localDataPackage(r.identity.body, context.baseUrl), path: r.path, gzip: undefined }
        : { name: zipName(r.path, r.kind as 'json' | 'csv'), body: r.identity.body, path: r.path, gzip: r.gzip?.body },
    )
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const list: [string, string][] = entries.map((e) => [e.name, e.path]);
  return [
    ...entries.map(({ name, body, gzip }) => (gzip === undefined ? { name, body } : { name, body, gzip })),
    { name: 'README.txt', body: Buffer.from(readme(context, list), 'utf8') },
  ];
}
