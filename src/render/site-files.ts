// The files for crawlers and mirrors: robots.txt, the sitemap of the pages, and the entries of the one-file download (every JSON and CSV document, and a README).
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

/** The zip's entries: every JSON and CSV route but the liveness probe, under names that mirror the paths, and README.txt. */
export function downloadEntries(routes: Iterable<DocumentRoute>, context: DownloadContext): ZipEntry[] {
  const documents = [...routes].filter((r) => (r.kind === 'json' || r.kind === 'csv') && r.path !== PATHS.health);
  const entries = documents
    .map((r) => ({ name: zipName(r.path, r.kind as 'json' | 'csv'), body: r.identity.body, path: r.path, gzip: r.gzip?.body }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const list: [string, string][] = entries.map((e) => [e.name, e.path]);
  return [
    ...entries.map(({ name, body, gzip }) => (gzip === undefined ? { name, body } : { name, body, gzip })),
    { name: 'README.txt', body: Buffer.from(readme(context, list), 'utf8') },
  ];
}
