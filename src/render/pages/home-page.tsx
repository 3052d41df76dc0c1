// The home page: what the service is, every market side by side, and the way to each page and endpoint.
import { METHODOLOGY_VERSION } from '../../methodology/version.ts';
import { PATHS } from '../../contract/paths.ts';
import { CHART_MARKET_LIMIT } from './chart-parts.ts';
import { ComparisonChart, Legend } from './charts.tsx';
import { Caveats, ChartData, FreshnessBadge, IllustrativeNote, TableScroll } from './components.tsx';
import { displayName, formatDate, formatNumber, formatPercent } from './format.ts';
import { MetricCharts, MetricTable } from './metric-compare.tsx';
import { SCORE_KEYS, scoreLabel, scoreOf } from './scores.ts';
import { ENDPOINTS, PAGES, type Site } from './site.ts';
import { MAP_SCORE, MapLegend, MarketMap } from './us-map.tsx';
import { ENDPOINT_LIST } from '../../contract/endpoints.ts';

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
    <TableScroll label="Market comparison table" columns={SCORE_KEYS.length + 3}>
      <table class="compare">
        <caption>Scores, coverage and freshness of every market</caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            {SCORE_KEYS.map((k) => (
              <th key={k} scope="col" class="num">
                {scoreLabel(k)}
              </th>
            ))}
            <th scope="col">Coverage, freshness</th>
            <th scope="col">Data</th>
          </tr>
        </thead>
        <tbody>
          {site.index.markets.map((m) => (
            <tr key={m.id}>
              <th scope="row">
                <a href={site.href(PATHS.marketPage(m.id))}>{displayName(m)}</a>
                {m.cbsaName === undefined ? null : <span class="sub">{m.cbsaName}</span>}
              </th>
              {SCORE_KEYS.map((k) => {
                const v = scoreOf(m.scores, k);
                return (
                  <td key={k} class="num">
                    {v === undefined ? <NotComputed /> : v}
                  </td>
                );
              })}
              <td class="nowrap">
                {formatPercent(m.coverage.percent)} <FreshnessBadge value={m.freshness} />
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

/** The map while the markets are few enough to label one by one; beyond that the tables below carry them. */
function MapSection({ site }: { site: Site }) {
  const located = site.index.markets.filter((m) => site.market(m.id).location !== undefined).length;
  if (located === 0) return null;
  return (
    <section aria-labelledby="map">
      <h2 id="map">The markets on the map</h2>
      {located > CHART_MARKET_LIMIT ? (
        <p>
          A map labels each market only up to {CHART_MARKET_LIMIT} of them; the {formatNumber(located)} markets here are compared in the{' '}
          <a href="#compare">tables below</a>.
        </p>
      ) : (
        <>
          <p>
            Each dot is a market's city, coloured by its {scoreLabel(MAP_SCORE).toLowerCase()} score (0 to 100, higher is more affordable) and labelled with it;
            the <a href="#compare">table below</a> has every score.
          </p>
          <MapLegend />
          <MarketMap site={site} />
          <ChartData
            site={site}
            label="on this map"
            links={[
              ['index of markets (JSON)', PATHS.index],
              ['every metric of every market (CSV)', PATHS.bulkCsv],
            ]}
          />
        </>
      )}
    </section>
  );
}

export function HomePage({ site }: { site: Site }) {
  const { index } = site;
  return (
    <>
      <h1>Housing market profiles</h1>
      <p class="lead">
        Source-attributed housing-market profiles for {formatNumber(index.count)} US markets: {site.metrics.length} metrics each from public datasets,{' '}
        {SCORE_KEYS.length} scores from 0 to 100, and the freshness and coverage of every value. Free to read as JSON and CSV, with these pages for people.
      </p>
      <p class="notice">
        Static fixture data, snapshot of {formatDate(site.snapshotDate)}, methodology {METHODOLOGY_VERSION}. Not live data, not a forecast, and not investment,
        legal, financial or property-level advice. <IllustrativeNote site={site} profiles={site.profiles} />
      </p>

      <MapSection site={site} />

      <section aria-labelledby="compare">
        <h2 id="compare">Compare the markets</h2>
        <p>Scores run from 0 to 100 against fixed thresholds; higher is better. A dash marks a score whose inputs are missing: it is left out, never 0.</p>
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
        <ChartData site={site} label="in this chart" links={[['every score of every market: the index (JSON)', PATHS.index]]} />
      </section>

      <section aria-labelledby="metrics">
        <h2 id="metrics">Every metric across the markets</h2>
        <p>
          The numbers behind the scores, highest first in each chart. Rents, incomes, home values and permits describe each city; the house price index and its
          change describe the city's metro area or metropolitan division (each market page says which). The index tracks price changes since 1995 Q1 (= 100),
          not price levels.
        </p>
        <MetricCharts site={site} />
        <ChartData
          site={site}
          label="in these charts"
          links={ENDPOINT_LIST.flatMap(([, e]) => (e.chartData === undefined || typeof e.path !== 'string' ? [] : [[e.chartData, e.path] as const]))}
        />
        <h3 id="metrics-table">Every value in one table</h3>
        <MetricTable site={site} />
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
