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
import { makeSite, type PageInput } from './site.ts';

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

export function renderNotFound(input: PageInput): string {
  const site = makeSite(input);
  return renderDocument({
    site,
    path: undefined,
    title: 'Page not found',
    description: 'Nothing is published at this address.',
    children: (
      <>
        <h1>Page not found</h1>
        <p class="lead">
          Nothing is published at this address. Addresses are exact and lower case, without a trailing slash. Start from the{' '}
          <a href={site.href(PATHS.home)}>home page</a>, which lists every market, or the <a href={site.href(PATHS.dataCatalog)}>data catalog</a>, which lists
          every endpoint.
        </p>
        <p>Data endpoints under /api/ answer unknown addresses with a JSON problem document instead of this page.</p>
      </>
    ),
  });
}
