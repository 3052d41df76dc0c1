// The frame every page shares: head, site header and navigation, and a footer of a few lines that points to the site map.
import type { ComponentChildren } from 'preact';
import { render } from 'preact-render-to-string';
import { METHODOLOGY_VERSION } from '../../methodology/version.ts';
import { PATHS } from '../../contract/paths.ts';
import { SCHEMA_VERSION } from '../../contract/schemas.ts';
import { formatDate } from './format.ts';
import { PAGES, type Site } from './site.ts';

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
          <a href={site.href(PATHS.home)} aria-current={path === PATHS.home ? 'page' : undefined}>
            Housing market profiles
          </a>
        </p>
        <nav aria-label="Main">
          <ul class="nav">
            {/* The site's name above is the link home, so the list holds the other pages and fits two lines on a phone. */}
            {PAGES.filter((p) => p.path !== PATHS.home).map((p) => (
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
 * A few lines on every page: what the data are, their versions, and the way to every page, market and download (the
 * home page's site map), so no page repeats the full list of links or grows with the market count.
 */
function Footer({ site }: { site: Site }) {
  return (
    <footer class="site-footer">
      <div class="wrap">
        <p class="footer-note">
          Static fixture data, snapshot of {formatDate(site.snapshotDate)}; schema {SCHEMA_VERSION}, methodology {METHODOLOGY_VERSION}. Not live, not advice;
          upstream datasets keep their own licenses and terms.
        </p>
        <nav aria-label="Site map" class="footer-nav">
          <a href={site.href(`${PATHS.home}#site-map`)}>Every page and download</a> · <a href={site.href(`${PATHS.home}#compare`)}>every market</a> ·{' '}
          <a href={site.href(PATHS.dataCatalog)}>every endpoint</a>
        </nav>
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
