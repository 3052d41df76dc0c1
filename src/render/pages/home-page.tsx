// The home page: what the service is, every market side by side, and the way to each page and endpoint.
import { METHODOLOGY_VERSION, METRICS } from '../../methodology.ts';
import { PATHS } from '../../paths.ts';
import { ComparisonChart, Legend } from './charts.tsx';
import { Caveats, FreshnessBadge, TableScroll } from './components.tsx';
import { displayName, formatDate, formatNumber, formatPercent } from './format.ts';
import { SCORE_KEYS, scoreLabel, scoreOf } from './scores.ts';
import { ENDPOINTS, PAGES, type Site } from './site.ts';

/** A dash for the eye, words for a screen reader. */
function NotComputed() {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span class="visually-hidden">not computed</span>
    </>
  );
}

function ComparisonTable({ site }: { site: Site }) {
  return (
    <TableScroll label="Market comparison table">
      <table class="compare">
        <caption>Scores (0 to 100, higher is better; — where a score's inputs are missing), coverage and freshness of every market</caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            <th scope="col">Metro area</th>
            {SCORE_KEYS.map((k) => (
              <th key={k} scope="col" class="num">
                {scoreLabel(k)}
              </th>
            ))}
            <th scope="col" class="num">
              Coverage
            </th>
            <th scope="col">Freshness</th>
            <th scope="col">Data</th>
          </tr>
        </thead>
        <tbody>
          {site.index.markets.map((m) => (
            <tr key={m.id}>
              <th scope="row">
                <a href={site.href(PATHS.marketPage(m.id))}>{displayName(m)}</a>
              </th>
              <td class="metro">{m.cbsaName ?? <span class="muted">not given</span>}</td>
              {SCORE_KEYS.map((k) => {
                const v = scoreOf(m.scores, k);
                return (
                  <td key={k} class="num">
                    {v === undefined ? <NotComputed /> : v}
                  </td>
                );
              })}
              <td class="num">{formatPercent(m.coverage.percent)}</td>
              <td>
                <FreshnessBadge value={m.freshness} />
              </td>
              <td class="nowrap">
                <a href={site.href(PATHS.profile(m.id))} aria-label={`${m.name} JSON`}>
                  JSON
                </a>{' '}
                ·{' '}
                <a href={site.href(PATHS.marketCsv(m.id))} aria-label={`${m.name} CSV`}>
                  CSV
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export function HomePage({ site }: { site: Site }) {
  const { index } = site;
  return (
    <>
      <h1>Housing market profiles</h1>
      <p class="lead">
        Source-attributed housing-market profiles for {formatNumber(index.count)} US markets: {METRICS.length} metrics each from public datasets, three scores
        from 0 to 100, and the freshness and coverage of every value. Free to read as JSON and CSV, with these pages for people.
      </p>
      <p class="notice">
        Static fixture data, snapshot of {formatDate(site.snapshotDate)}, methodology {METHODOLOGY_VERSION}. Not live data, not a forecast, and not investment,
        legal, financial or property-level advice.
      </p>

      <section aria-labelledby="compare">
        <h2 id="compare">Compare the markets</h2>
        <ComparisonTable site={site} />
      </section>

      <section aria-labelledby="chart">
        <h2 id="chart">Scores at a glance</h2>
        <p>
          Sorted by overall score. A score is missing, not zero, where its inputs are missing. The formulas are on the{' '}
          <a href={site.href(`${PATHS.methodology}#scores`)}>methodology page</a>.
        </p>
        <Legend />
        <ComparisonChart markets={index.markets} />
      </section>

      <section aria-labelledby="data">
        <h2 id="data">Use the data</h2>
        <p>
          Every endpoint answers GET and HEAD without authentication. The <a href={site.href(PATHS.dataCatalog)}>data catalog</a> has a <code>curl</code> line
          for each.
        </p>
        <ul class="link-list">
          {ENDPOINTS.map((e) => (
            <li key={e.path}>
              <a href={site.href(e.path)}>{e.label}</a> <span class="muted">({e.format})</span>: {e.description}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="about">
        <h2 id="about">About the data</h2>
        <ul class="link-list">
          {PAGES.filter((p) => p.path !== PATHS.home).map((p) => (
            <li key={p.path}>
              <a href={site.href(p.path)}>{p.label}</a>: {p.summary}
            </li>
          ))}
        </ul>
      </section>

      <Caveats caveats={index.caveats} headingId="caveats" />
    </>
  );
}
