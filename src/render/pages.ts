// Renders the human-readable pages behind every link: one HTML document per page path.
import type { MarketIndex, MarketProfile } from '../contract.ts';
import { PATHS } from '../paths.ts';

export interface PageInput {
  baseUrl: string;
  profiles: readonly MarketProfile[];
  index: MarketIndex;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)}</title>\n<link rel="stylesheet" href="${PATHS.stylesheet}">\n</head>\n<body>\n<main>\n<h1>${escapeHtml(title)}</h1>\n${body}\n</main>\n</body>\n</html>\n`;
}

/** Placeholder pages until the full pages land: valid HTML, so no link dangles. */
export function renderPages(input: PageInput): Map<string, string> {
  const pages = new Map<string, string>();
  const list = input.profiles.map((p) => `<li><a href="${PATHS.marketPage(p.market.id)}">${escapeHtml(p.market.name)}, ${escapeHtml(p.market.stateCode)}</a></li>`).join('\n');
  pages.set(PATHS.home, page('Housing market profiles', `<ul>\n${list}\n</ul>`));
  for (const p of input.profiles) {
    pages.set(PATHS.marketPage(p.market.id), page(`${p.market.name}, ${p.market.stateCode}`, `<p><a href="${PATHS.profile(p.market.id)}">JSON</a> · <a href="${PATHS.marketCsv(p.market.id)}">CSV</a></p>`));
  }
  const errors = ['bad-request', 'not-found', 'market-not-found', 'method-not-allowed'].map((id) => `<h2 id="problem-${id}">${id}</h2>`).join('\n');
  pages.set(PATHS.dataStatus, page('Data status', '<p>Freshness and coverage per market.</p>'));
  pages.set(PATHS.methodology, page('Methodology', '<p>Methodology v1.0.</p>'));
  pages.set(PATHS.dataSources, page('Data sources', '<p>Upstream datasets.</p>'));
  pages.set(PATHS.dataCatalog, page('Data catalog', `<p>Endpoints.</p>\n${errors}`));
  pages.set(PATHS.privacy, page('Privacy', '<p>No cookies, no tracking.</p>'));
  pages.set(PATHS.changelog, page('Changelog', '<p>Schema version 1.</p>'));
  return pages;
}

/** The page answered with status 404 for an unknown page path (paths outside /api keep problem+json). */
export function renderNotFoundPage(_input: PageInput): string {
  return page('Page not found', `<p>Nothing is published at this address. Start from the <a href="${PATHS.home}">home page</a> or the <a href="${PATHS.dataCatalog}">data catalog</a>.</p>`);
}

export const STYLESHEET = 'body{font-family:system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;line-height:1.5}\n';
