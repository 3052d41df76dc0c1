// Puts each page component in the shared frame and returns every page as path → HTML, and the 404 page (paths under /api keep problem+json).
import type { ComponentChildren } from 'preact';
import { PATHS } from '../../contract/paths.ts';
import { ChangelogPage } from './changelog-page.tsx';
import { DataCatalogPage } from './data-catalog-page.tsx';
import { DataSourcesPage } from './data-sources-page.tsx';
import { DataStatusPage } from './data-status-page.tsx';
import { displayName } from './format.ts';
import { HomePage } from './home-page.tsx';
import { renderDocument, type Alternate } from './layout.tsx';
import { MarketPage } from './market-page.tsx';
import { MethodologyPage } from './methodology-page.tsx';
import { PrivacyPage } from './privacy-page.tsx';
import { PAGES, makeSite, type PageInput, type Site } from './site.ts';

export function renderAllPages(input: PageInput): Map<string, string> {
  const site = makeSite(input);
  const pages = new Map<string, string>();
  const add = (path: string, title: string, description: string, body: ComponentChildren, alternates: readonly Alternate[] = []): void => {
    pages.set(path, renderDocument({ site, path, title, description, alternates, children: body }));
  };
  add(
    PATHS.home,
    'Housing market profiles',
    `Source-attributed housing-market profiles for ${site.profiles.length} US markets, as JSON, CSV and pages.`,
    <HomePage site={site} />,
    [
      { path: PATHS.index, type: 'application/json', title: 'Market index (JSON)' },
      { path: PATHS.bulkCsv, type: 'text/csv', title: 'All markets (CSV)' },
    ],
  );
  for (const profile of site.profiles) {
    const id = profile.market.id;
    add(
      PATHS.marketPage(id),
      `${displayName(profile.market)}: housing market profile`,
      `Scores, metrics, sources, freshness and coverage of ${displayName(profile.market)}.`,
      <MarketPage site={site} profile={profile} />,
      [
        { path: PATHS.profile(id), type: 'application/json', title: `${displayName(profile.market)} (JSON)` },
        { path: PATHS.marketCsv(id), type: 'text/csv', title: `${displayName(profile.market)} (CSV)` },
      ],
    );
  }
  add(PATHS.dataStatus, 'Data status', 'Freshness, release and retrieval dates, and coverage per market and per source.', <DataStatusPage site={site} />);
  add(
    PATHS.methodology,
    'Methodology',
    'Metric definitions, score formulas and thresholds, the freshness rule and a worked example.',
    <MethodologyPage site={site} />,
  );
  add(
    PATHS.dataSources,
    'Data sources',
    'The upstream datasets behind every value, with agency, cadence, confidence and terms.',
    <DataSourcesPage site={site} />,
  );
  add(PATHS.dataCatalog, 'Data catalog', 'Every endpoint with its URL, format and a curl line; CSV columns and error codes.', <DataCatalogPage site={site} />);
  add(PATHS.privacy, 'Privacy', 'No cookies, no tracking; what the optional access log holds.', <PrivacyPage />);
  add(PATHS.changelog, 'Changelog', 'Schema, methodology and data versions, and the versioning policy.', <ChangelogPage site={site} />);
  return pages;
}

/**
 * The HTML 404 page; given the path of the page a request probably meant (problems.ts, pageMeant), it names that page
 * first, by the name a reader knows it by: "Did you mean Austin, TX?".
 */
function notFoundPage(site: Site, meant?: { path: string; name: string }): string {
  return renderDocument({
    site,
    path: undefined,
    title: 'Page not found',
    description: 'Nothing is published at this address.',
    children: (
      <>
        <h1>Page not found</h1>
        {meant === undefined ? null : (
          <p class="lead did-you-mean">
            Did you mean <a href={site.href(meant.path)}>{meant.name}</a>?
          </p>
        )}
        <p class={meant === undefined ? 'lead' : undefined}>
          Nothing is published at this address. Addresses are exact and lower case, without a trailing slash. Start from the{' '}
          <a href={site.href(PATHS.home)}>home page</a>, which lists every market, or the <a href={site.href(PATHS.dataCatalog)}>data catalog</a>, which lists
          every endpoint.
        </p>
        <p>Data endpoints under /api/ answer unknown addresses with a JSON problem document instead of this page.</p>
      </>
    ),
  });
}

export function renderNotFound(input: PageInput): string {
  return notFoundPage(makeSite(input));
}

/** The 404 page naming each of these paths first, by path: a market by its name ("Austin, TX"), a page by its label, anything else by its path. */
export function renderHintPages(input: PageInput, paths: Iterable<string>): Map<string, string> {
  const site = makeSite(input);
  const names = new Map<string, string>([
    ...PAGES.map((p): [string, string] => [p.path, p.label]),
    ...site.profiles.map((p): [string, string] => [PATHS.marketPage(p.market.id), displayName(p.market)]),
  ]);
  return new Map([...paths].map((path) => [path, notFoundPage(site, { path, name: names.get(path) ?? path })]));
}
