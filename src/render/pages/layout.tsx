// The frame every page shares: head, site header and navigation, and a footer that links every page and endpoint.
import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import { METHODOLOGY_VERSION } from '../../methodology/version.ts';
import { PATHS } from '../../contract/paths.ts';
import { SCHEMA_VERSION } from '../../contract/schemas.ts';
import { displayName, formatDate, formatNumber } from './format.ts';
import { ENDPOINTS, PAGES, type Site } from './site.ts';

/**
 * A data: icon, which the page CSP allows (img-src data:); without one every browser asks for
 * /favicon.ico, a path the service does not publish, and logs the 404.
 */
const ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path d="M8 1 1 7h2v8h4v-5h2v5h4V7h2z" fill="#14304d"/></svg>')}`;

export interface Alternate {
  path: string;
  type: string;
  title: string;
}

export interface PageProps {
  site: Site;
  /** The route path of this page; undefined for the 404 page, which answers at any path. */
  path: string | undefined;
  title: string;
  description: string;
  alternates?: readonly Alternate[];
  children: ComponentChildren;
}

function Header({ site, path }: { site: Site; path: string | undefined }) {
  return (
    <header class="site-header">
      <div class="wrap">
        <p class="brand">
          <a href={site.href(PATHS.home)}>Housing market profiles</a>
        </p>
        <nav aria-label="Main">
          <ul class="nav">
            {PAGES.map((p) => (
              <li key={p.path}>
                <a href={site.href(p.path)} aria-current={p.path === path ? 'page' : undefined}>
                  {p.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}

/**
 * Every page's footer lists the markets up to this many; beyond it, one link to the home page's comparison table.
 * A full list on every page would make each page grow with the market count and the build quadratic.
 */
export const FOOTER_MARKET_LIMIT = 32;

function Footer({ site }: { site: Site }) {
  return (
    <footer class="site-footer">
      <div class="wrap">
        <nav aria-label="Every page and endpoint" class="footer-nav">
          <div>
            <h2>Pages</h2>
            <ul>
              {PAGES.map((p) => (
                <li key={p.path}>
                  <a href={site.href(p.path)}>{p.label}</a>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h2>Markets</h2>
            {site.profiles.length <= FOOTER_MARKET_LIMIT ? (
              <ul class="columns">
                {site.profiles.map((p) => (
                  <li key={p.market.id}>
                    <a href={site.href(PATHS.marketPage(p.market.id))}>{displayName(p.market)}</a>
                  </li>
                ))}
              </ul>
            ) : (
              <p>
                <a href={site.href(`${PATHS.home}#compare`)}>All {formatNumber(site.profiles.length)} markets</a>, compared on the home page
              </p>
            )}
          </div>
          <div>
            <h2>Endpoints</h2>
            <ul>
              {ENDPOINTS.map((e) => (
                <li key={e.path}>
                  <a href={site.href(e.path)}>{e.label}</a> <span class="muted">({e.format})</span>
                </li>
              ))}
              <li>
                Per market: <code>{PATHS.profile('<market-id>')}</code>, <code>{PATHS.marketCsv('<market-id>')}</code>,{' '}
                <code>{PATHS.series('<market-id>')}</code> and <code>{PATHS.seriesCsv('<market-id>')}</code>, linked from each market page
              </li>
            </ul>
          </div>
        </nav>
        <p class="footer-note">
          Static fixture data, snapshot of {formatDate(site.snapshotDate)}. Schema version {SCHEMA_VERSION}, methodology {METHODOLOGY_VERSION}. Not live data
          and not investment, legal, financial or property-level advice. Upstream datasets keep their own licenses and terms.
        </p>
      </div>
    </footer>
  );
}

function Page({ site, path, title, description, alternates = [], children }: PageProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{path === PATHS.home ? title : `${title} · Housing market profiles`}</title>
        <meta name="description" content={description} />
        {path === undefined ? null : <link rel="canonical" href={site.url(path)} />}
        {alternates.map((a) => (
          <link key={a.path} rel="alternate" type={a.type} href={site.href(a.path)} title={a.title} />
        ))}
        <link rel="icon" type="image/svg+xml" href={ICON} />
        <link rel="stylesheet" href={site.href(PATHS.stylesheet)} />
      </head>
      <body>
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <Header site={site} path={path} />
        <main id="main" class="wrap">
          {children}
        </main>
        <Footer site={site} />
      </body>
    </html>
  );
}

/** One complete HTML document; escaping is the renderer's, never ours. */
export function renderDocument(props: PageProps): string {
  return `<!doctype html>\n${render(<Page {...props} />)}\n`;
}
