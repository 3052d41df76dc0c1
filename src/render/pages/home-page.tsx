// The home page: what the data are, the markets on a map, one table of every market's scores and key figures, and every download and page once.
import { METHODOLOGY_VERSION } from '../../methodology/version.ts';
import { metricDefinition, valuesOf } from '../../methodology/metrics.ts';
import { PATHS } from '../../contract/paths.ts';
import type { AssembledProfile } from '../../methodology/profiles.ts';
import { CHART_MARKET_LIMIT } from './chart-parts.ts';
import { Caveats, IllustrativeNote, IllustrativeTag, illustrativeMetrics } from './components.tsx';
import { displayName, formatDate, formatNumber, formatShort, labelList, listWords, shortLabel, shortSourceName, unitWords } from './format.ts';
import { KEY_FIGURES } from './key-figures.tsx';
import { SCORE_KEYS, scoreLabel, scoreOf, scoreTerms, type ScoreKey } from './scores.ts';
import { ENDPOINTS, PAGES, type Site } from './site.ts';
import { basisOf } from './standing.tsx';
import { MAP_SCORE, MapLegend, MarketMap } from './us-map.tsx';

/** A dash for the eye, words for a screen reader. */
function Dash({ words }: { words: string }) {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span class="visually-hidden">{words}</span>
    </>
  );
}

/**
 * The scores in the table's order: each score before the parts it combines, in their weights' order (overall,
 * affordability, renter, owner, supply): the scores no other score reads first.
 */
const TABLE_SCORES: readonly ScoreKey[] = (() => {
  const parts = (k: ScoreKey): ScoreKey[] => scoreTerms(k).flatMap((t) => (t.kind === 'score' ? [t.key] : []));
  const read = new Set(SCORE_KEYS.flatMap(parts));
  const out: ScoreKey[] = [];
  const visit = (k: ScoreKey): void => {
    if (out.includes(k)) return;
    out.push(k);
    parts(k).forEach(visit);
  };
  [...SCORE_KEYS]
    .reverse()
    .filter((k) => !read.has(k))
    .forEach(visit);
  return out;
})();

/** A score's column name on a phone card, where the full label does not fit: its first word. */
const cardLabel = (key: ScoreKey): string => scoreLabel(key).split(' ')[0] ?? key;

const capitalise = (s: string): string => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;

/** Markets by overall score, highest first, then by name; a market without one last. */
const byOverall = (a: AssembledProfile, b: AssembledProfile): number =>
  (scoreOf(b.profile.scores, 'overall') ?? -1) - (scoreOf(a.profile.scores, 'overall') ?? -1) || (displayName(a.market) < displayName(b.market) ? -1 : 1);

function ScoreCell({ p, k }: { p: AssembledProfile; k: ScoreKey }) {
  const v = scoreOf(p.profile.scores, k);
  const bound = p.profile.scoreBounds?.[k]?.bound;
  return (
    <td data-label={cardLabel(k)} class="num">
      {v === undefined || bound === undefined ? null : (
        // A score that is a bound: "≤11" for the eye, "at most 11" for a screen reader; the note under the table says why.
        <>
          <span aria-hidden="true">{bound === 'upper' ? '\u2264' : '\u2265'}</span>
          <span class="visually-hidden">{bound === 'upper' ? 'at most ' : 'at least '}</span>
        </>
      )}
      {v === undefined ? <Dash words="not computed" /> : v}
      {v !== undefined && p.profile.illustrativeScores?.includes(k) === true ? <IllustrativeTag /> : null}
    </td>
  );
}

/** The key figures the table shows, each with what its column says: the metric's value, or (permits) what it is ranked by. */
function keyColumns(site: Site) {
  return KEY_FIGURES.filter((f) => site.metrics.some((m) => m.id === f.id)).map(({ id }) => {
    const basis = basisOf(id);
    const own = basis.key === id;
    return {
      id,
      head: own ? shortLabel(id) : `${shortLabel(id)} ${basis.sub ?? ''}`.trim(),
      // A phone card's label, as short as the card needs: "Rent", "Income", "Permits per 1,000".
      card: capitalise(`${shortLabel(id).replace(/^Median /, '')}${own ? '' : ` ${basis.sub?.replace(/ units$/, '') ?? ''}`}`.trim()),
      unit: own ? unitWords(id) : '',
      cell: (p: AssembledProfile): string | undefined => {
        const metric = p.profile.metrics[id];
        if (own) return metric === undefined ? undefined : formatShort(id, metric.value, metric.qualifier);
        const v = basis.of(valuesOf(p.profile.metrics));
        return v === undefined ? undefined : basis.format(v);
      },
    };
  });
}

function MarketsTable({ site }: { site: Site }) {
  const columns = keyColumns(site);
  const illustrative = new Set(illustrativeMetrics(site, site.profiles));
  return (
    <div class="table-markets">
      <table class="markets">
        <caption>The {formatNumber(site.profiles.length)} markets by overall score, highest first: the five scores, then the key figures</caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            {TABLE_SCORES.map((k) => (
              <th key={k} scope="col" class="num">
                {scoreLabel(k)}
              </th>
            ))}
            {columns.map((c) => (
              <th key={c.id} scope="col" class="num">
                {c.head}
                {c.unit === '' ? null : <span class="unit">{c.unit}</span>}
                {illustrative.has(c.id) ? <IllustrativeTag /> : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {[...site.profiles].sort(byOverall).map((p) => (
            <tr key={p.market.id}>
              <th scope="row">
                <a href={site.href(PATHS.marketPage(p.market.id))}>{displayName(p.market)}</a>
              </th>
              {TABLE_SCORES.map((k) => (
                <ScoreCell key={k} p={p} k={k} />
              ))}
              {columns.map((c) => {
                const v = c.cell(p);
                return (
                  <td key={c.id} data-label={c.card} class="num">
                    {v === undefined ? <Dash words="no value" /> : v}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What the table cannot say in a cell: scores that are bounds and why, and the metrics a market lacks. */
function TableNotes({ site }: { site: Site }) {
  const bounded = site.profiles.filter((p) => p.profile.scoreBounds !== undefined);
  const lacking = site.profiles.filter((p) => p.profile.coverage.missing.length > 0);
  if (bounded.length === 0 && lacking.length === 0) return null;
  return (
    <ul class="table-notes">
      {bounded.map((p) => {
        const bounds = SCORE_KEYS.flatMap((k) => {
          const b = p.profile.scoreBounds?.[k];
          return b === undefined ? [] : [`${scoreLabel(k).toLowerCase()} ${b.low}–${b.high}`];
        });
        const open = Object.values(p.profile.metrics).flatMap((m) =>
          m?.qualifier === undefined ? [] : [`${metricDefinition(m.id)?.noun ?? m.id} are published as ${formatShort(m.id, m.value, m.qualifier)}`],
        );
        return (
          <li key={p.market.id}>
            {displayName(p.market)}: {listWords(open)}, so its scores are bounds, the true ones lying within {listWords(bounds)}.
          </li>
        );
      })}
      {lacking.map((p) => (
        <li key={p.market.id}>
          {displayName(p.market)} lacks {labelList(p.profile.coverage.missing.map((m) => metricDefinition(m)?.label ?? m))}: the scores that need it are left
          out, never 0 (<a href={site.href(`${PATHS.dataStatus}#missing`)}>why</a>).
        </li>
      ))}
    </ul>
  );
}

/** The map while the markets are few enough to label one by one; beyond that the table carries them. */
function MapSection({ site }: { site: Site }) {
  const located = site.index.markets.filter((m) => site.market(m.id).location !== undefined).length;
  if (located === 0 || located > CHART_MARKET_LIMIT) return null;
  return (
    <section aria-labelledby="map">
      <h2 id="map" class="visually-hidden">
        The markets on the map
      </h2>
      <p class="section-note">Each city coloured and labelled by its {scoreLabel(MAP_SCORE).toLowerCase()} score, 0 to 100, higher is more affordable:</p>
      <MapLegend />
      <MarketMap site={site} />
    </section>
  );
}

/** Every one-path download and every page, once: the site's full list of links, which the footer of every page points to. */
function SiteMap({ site }: { site: Site }) {
  return (
    <section aria-labelledby="site-map">
      <h2 id="site-map">Downloads and pages</h2>
      <div class="site-map">
        <div>
          <h3 id="downloads">Downloads</h3>
          <ul class="link-list columns">
            {ENDPOINTS.map((e) => (
              <li key={e.path}>
                <a href={site.href(e.path)}>{e.label}</a> <span class="muted">({e.format})</span>
              </li>
            ))}
          </ul>
          <p class="muted">
            Per market: <code>{PATHS.profile('<market-id>')}</code>, <code>{PATHS.marketCsv('<market-id>')}</code>, <code>{PATHS.series('<market-id>')}</code>{' '}
            and <code>{PATHS.seriesCsv('<market-id>')}</code>, linked from each market page. A <code>curl</code> line for each is in the{' '}
            <a href={site.href(PATHS.dataCatalog)}>data catalog</a>.
          </p>
        </div>
        <div>
          <h3 id="pages">Pages</h3>
          <ul class="link-list">
            {PAGES.filter((p) => p.path !== PATHS.home).map((p) => (
              <li key={p.path}>
                <a href={site.href(p.path)}>{p.label}</a>: {p.summary}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

/** The data in one line: what each source gives, for which area and period, read from the sources and metrics themselves. */
function whatTheDataAre(site: Site): string {
  const parts = site.sources.map((s) => {
    const metrics = site.metrics.filter((m) => m.sourceId === s.sourceId);
    const vintage = site.source(s.sourceId).vintage;
    return `${listWords(metrics.map((m) => m.shortLabel.toLowerCase()))} (${shortSourceName(s.sourceName)}, ${vintage})`;
  });
  return `${parts.join('; ')}.`;
}

export function HomePage({ site }: { site: Site }) {
  const { index } = site;
  return (
    <>
      <h1>Housing market profiles</h1>
      <p class="lead">
        {formatNumber(index.count)} US housing markets side by side: {site.metrics.length} figures each, every one with its source, period and margin of error,
        and {SCORE_KEYS.length} scores from 0 to 100; free as JSON and CSV.
      </p>
      <p class="section-note">The figures: {whatTheDataAre(site)}</p>
      <p class="line-note notice">
        Static fixture data, snapshot of {formatDate(site.snapshotDate)}, methodology {METHODOLOGY_VERSION}: not live, not a forecast, not advice (
        <a href="#caveats">caveats</a>). <IllustrativeNote site={site} profiles={site.profiles} />
      </p>
      <MapSection site={site} />
      <section aria-labelledby="compare">
        <h2 id="compare">Compare the markets</h2>
        <p class="section-note">
          Scores run from 0 to 100 against fixed thresholds, higher is better (<a href={site.href(`${PATHS.methodology}#scores`)}>how</a>); a dash marks a score
          left out for lack of inputs, never 0. The price change describes each market's metro area, every other figure its city.
        </p>
        <MarketsTable site={site} />
        <TableNotes site={site} />
      </section>
      <SiteMap site={site} />
      <Caveats caveats={index.caveats} headingId="caveats" />
    </>
  );
}
