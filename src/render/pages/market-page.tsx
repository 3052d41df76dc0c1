// /markets/<market-id>: one market's profile for people, every number with its unit, period and source.
import type { Comparison, Metric } from '../../contract/schemas.ts';
import { testDifference } from '../../methodology/comparisons.ts';
import { areaWords } from '../../contract/geography.ts';
import type { AreaScope, AssembledProfile } from '../../methodology/profiles.ts';
import { scoreDependencies } from '../../methodology/scores.ts';
import { sourceFreshness } from '../../methodology/freshness.ts';
import { metricDefinition, type MetricId } from '../../methodology/metrics.ts';
import { METHODOLOGY_VERSION } from '../../methodology/version.ts';
import { PATHS } from '../../contract/paths.ts';
import { boundaryPhrase, coverageClause } from '../../methodology/profiles.ts';
import { MarketScoreChart } from './charts.tsx';
import {
  Caveats,
  ChartData,
  DateText,
  ExternalLink,
  Facts,
  FreshnessBadge,
  IllustrativeNote,
  IllustrativeTag,
  ReflowTable,
  TableScroll,
  Td,
} from './components.tsx';
import { displayName, formatDate, formatMetric, formatNumber, formatPercent, formatShort, labelList } from './format.ts';
import { PriceIndexChart, PriceIndexTable } from './price-chart.tsx';
import { SCORE_KEYS, scoreLabel, scoreMeaning, scoreOf } from './scores.ts';
import type { Site } from './site.ts';
import { StandingChart, StandingLegend, basisNotes, distribution, standingWords } from './standing.tsx';

const metricLabel = (id: string): string => metricDefinition(id)?.label ?? id;

function Downloads({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const id = profile.market.id;
  return (
    <ul class="downloads" aria-label="Download this market's data">
      <li>
        <a href={site.href(PATHS.profile(id))} type="application/json">
          JSON profile
        </a>{' '}
        <span class="muted">({site.url(PATHS.profile(id))})</span>
      </li>
      <li>
        <a href={site.href(PATHS.marketCsv(id))} type="text/csv" download>
          CSV, one row per metric
        </a>{' '}
        <span class="muted">({site.url(PATHS.marketCsv(id))})</span>
      </li>
      <li>
        <a href={site.href(PATHS.seriesCsv(id))} type="text/csv" download>
          CSV, every observation behind the values (series)
        </a>{' '}
        <span class="muted">({site.url(PATHS.seriesCsv(id))})</span>
      </li>
    </ul>
  );
}

function ScoreSection({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const deps = scoreDependencies();
  const missing = new Set(profile.profile.coverage.missing);
  const scores = profile.profile.scores;
  return (
    <section aria-labelledby="scores">
      <h2 id="scores">Scores</h2>
      <p>
        Each score runs from 0 to 100 against fixed thresholds, so it does not move when other markets change; higher is better. How they are computed is on the{' '}
        <a href={site.href(`${PATHS.methodology}#scores`)}>methodology page</a>.
      </p>
      <MarketScoreChart name={displayName(profile.market)} scores={scores} />
      <ChartData site={site} label="in this chart" links={[['the profile (JSON)', PATHS.profile(profile.market.id)]]} />
      <ReflowTable>
        <table>
          <caption>Scores of {displayName(profile.market)} and what they mean</caption>
          <thead>
            <tr>
              <th scope="col">Score</th>
              <th scope="col" class="num">
                Value
              </th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {SCORE_KEYS.map((key) => {
              const value = scoreOf(scores, key);
              const lacking = deps[key].filter((m) => missing.has(m));
              const illustrative = deps[key].filter((m) => profile.profile.metrics[m]?.illustrative === true);
              return (
                <tr key={key}>
                  <th scope="row">{scoreLabel(key)}</th>
                  <Td label="Value" class="num">
                    {value === undefined ? 'Not computed' : `${value} / 100`}
                    {value !== undefined && profile.profile.illustrativeScores?.includes(key) === true ? (
                      <>
                        {' '}
                        <IllustrativeTag />
                      </>
                    ) : null}
                  </Td>
                  <Td label="Meaning">
                    {scoreMeaning(key)}
                    {value !== undefined && illustrative.length > 0 ? (
                      <span class="missing-note">
                        <strong>Illustrative:</strong> it reads {labelList(illustrative.map(metricLabel))}, which {illustrative.length === 1 ? 'is' : 'are'} not
                        the published {illustrative.length === 1 ? 'figure' : 'figures'}.
                      </span>
                    ) : null}
                    {value === undefined ? (
                      <span class="missing-note">
                        <strong>Not computed:</strong>{' '}
                        {lacking.length > 0 ? `this market lacks ${labelList(lacking.map(metricLabel))}` : 'a score it combines is not computed'}. A missing
                        score is left out, never shown as 0.
                      </span>
                    ) : null}
                  </Td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ReflowTable>
    </section>
  );
}

/**
 * What a difference is called, by the test's verdict: the market's figure against its state's or the nation's, in a few
 * words; nothing where the agency publishes no margin for either (FHFA's indexes) or where the test says nothing (a count).
 */
function differenceWords(name: string, metric: Metric, c: Comparison): string | undefined {
  if (metricDefinition(metric.id)?.tested === false) return undefined;
  if (metric.marginOfError === undefined && c.marginOfError === undefined && metric.qualifier === undefined) return undefined;
  const d = testDifference(metric, c);
  if (d.verdict === 'untested') return 'no margin to test the difference';
  if (d.verdict === 'not different') {
    return metric.value === c.value && metric.marginOfError === c.marginOfError ? `one area with ${name}: the same figure` : 'no significant difference';
  }
  return `${name} ${d.verdict}, a significant difference`;
}

/** The state's and the nation's figures beside the market's, each with the test's verdict (at 90 %) where one is drawn; a dash where none is served. */
function StateFigure({ metric, name }: { metric: Metric; name: string }) {
  const around = metric.comparisons ?? [];
  if (around.length === 0) {
    return (
      <span class="muted" title="No state figure is served for this metric">
        —
      </span>
    );
  }
  return (
    <>
      {around.map((c) => {
        const words = differenceWords(name, metric, c);
        return (
          <span key={c.level} class="comparison">
            <span class="value">{formatShort(metric.id, c.value)}</span>
            {c.marginOfError === undefined ? null : (
              <span class="moe" title="The agency's 90 % margin of error">
                {' '}
                ± {formatShort(metric.id, c.marginOfError)}
              </span>
            )}
            <span class="sub">
              {c.name}
              {words === undefined ? '' : `: ${words}`}
            </span>
          </span>
        );
      })}
    </>
  );
}

function MetricRow({
  site,
  marketId,
  id,
  metric,
  sourceName,
  note,
  name,
}: {
  site: Site;
  marketId: string;
  id: MetricId;
  metric: Metric | undefined;
  sourceName: string | undefined;
  note?: string;
  name: string;
}) {
  const label = <a href={site.href(`${PATHS.methodology}#metric-${id}`)}>{metric?.label ?? metricLabel(id)}</a>;
  if (metric === undefined) {
    return (
      <tr class="missing-row">
        <th scope="row">{label}</th>
        <Td colSpan={5}>
          <strong>Not available.</strong> This snapshot has no value for this metric in this market.
        </Td>
      </tr>
    );
  }
  const d = distribution(site, id);
  // Permits without the housing units to divide them by have no place per 1,000 units; said, not left blank.
  const standing = standingWords(d, marketId) ?? `Not ranked: ${d.basis.by.replace(/^by /, '')} is not available`;
  return (
    <tr>
      <th scope="row">
        {label}
        {note === undefined ? null : <span class="sub value-note">{note}</span>}
      </th>
      <Td label="Value" class="num estimate">
        <span class="value">{formatMetric(metric)}</span>
        {metric.marginOfError === undefined ? null : (
          <span class="moe" title="The agency's 90 % margin of error">
            {' '}
            ± {formatShort(metric.id, metric.marginOfError)}
          </span>
        )}
        {metric.illustrative === true ? (
          <>
            {' '}
            <IllustrativeTag />
          </>
        ) : null}
      </Td>
      <Td label="Its state">
        <StateFigure metric={metric} name={name} />
      </Td>
      <Td label="Among the markets">{standing}</Td>
      <Td label="Period" class="nowrap">
        {metric.asOf}
      </Td>
      <Td label="Source">
        <a href={site.href(`${PATHS.dataSources}#${metric.sourceId}`)}>{sourceName ?? metric.sourceId}</a>
      </Td>
    </tr>
  );
}

function Metrics({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const { metrics, coverage } = profile.profile;
  const ids = site.metrics.map((m) => m.id);
  const sourceNames = new Map(profile.sources.map((s) => [s.sourceId, s.sourceName]));
  return (
    <section aria-labelledby="metrics">
      <h2 id="metrics">Metrics</h2>
      <p>
        Coverage: {coverage.totalProvided} of the {coverage.totalRequired} metrics methodology {METHODOLOGY_VERSION} requires ({formatPercent(coverage.percent)}
        ).
      </p>
      {coverage.missing.length > 0 ? (
        <p class="notice notice-missing">
          <strong>Missing: {labelList(coverage.missing.map(metricLabel))}.</strong> The sources hold no value for{' '}
          {coverage.missing.length === 1 ? 'it' : 'them'} in this market, so {coverage.missing.length === 1 ? 'it is' : 'they are'} left out of the JSON and CSV
          and any score that needs {coverage.missing.length === 1 ? 'it' : 'them'} is not computed.
        </p>
      ) : (
        <p class="confirm">Every required metric is present.</p>
      )}
      {Object.values(metrics).some((m) => m?.marginOfError !== undefined) ? (
        <p>
          A value with ± beside it is a survey estimate: ± is the agency's published 90 % margin of error, so the true value lies within that distance of the
          estimate with 90 % confidence. Beside each Census figure is the state's, from the same survey and period; a difference is called significant when the
          two estimates differ by more than their margins allow, at the 90 % level (the Census Bureau's test, on the{' '}
          <a href={site.href(`${PATHS.methodology}#comparisons`)}>methodology page</a>).
        </p>
      ) : null}
      <ReflowTable>
        <table>
          <caption>
            Metrics of {displayName(profile.market)}, with its state's figure where the agency publishes one, where each stands among the{' '}
            {formatNumber(site.profiles.length)} markets, the period each value covers and its source
          </caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col" class="num">
                Value
              </th>
              <th scope="col">Its state</th>
              <th scope="col">Among the markets</th>
              <th scope="col">Period</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {ids.map((id) => {
              const metric = metrics[id];
              return (
                <MetricRow
                  key={id}
                  site={site}
                  marketId={profile.market.id}
                  id={id}
                  metric={metric}
                  sourceName={metric === undefined ? undefined : sourceNames.get(metric.sourceId)}
                  note={site.market(profile.market.id).notes.get(id)}
                  name={profile.market.name}
                />
              );
            })}
          </tbody>
        </table>
      </ReflowTable>
      <h3 id="standing">Where {displayName(profile.market)} stands</h3>
      <p>
        Each line runs from the lowest of the {formatNumber(site.profiles.length)} markets to the highest on that metric; the values of the other markets are in
        the <a href={site.href(`${PATHS.home}#metrics-table`)}>home page's table</a>. Ranks count from the highest. Compared by something other than their own
        value, in the table and on the lines:{' '}
        {basisNotes(site)
          .map((n) => `${n.noun}, ${n.by} (${n.why})`)
          .join('; ')}
        .
      </p>
      <StandingLegend site={site} name={displayName(profile.market)} />
      <StandingChart site={site} profile={profile} />
      <ChartData
        site={site}
        label="in these strips"
        links={[
          ['every metric of every market (CSV)', PATHS.bulkCsv],
          ['the index of markets (JSON)', PATHS.index],
        ]}
      />
    </section>
  );
}

/** The area the house price index describes, as a sentence names it. */
function indexArea(profile: AssembledProfile): string {
  const b = profile.geographyScope?.boundaries.find((x) => x.metrics.includes('homePriceIndex'));
  if (b === undefined) return profile.market.cbsaName === undefined ? displayName(profile.market) : `the ${profile.market.cbsaName} metro area`;
  return areaWords(b);
}

function HousePrices({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const series = site.market(profile.market.id).series.get('homePriceIndex');
  const area = indexArea(profile);
  const missing = site.market(profile.market.id).missing.get('homePriceIndex');
  return (
    <section aria-labelledby="house-prices">
      <h2 id="house-prices">House prices over time</h2>
      {series === undefined ? (
        <p>No house price index for this market in this snapshot{missing === undefined ? '' : `: ${missing.reason}`}.</p>
      ) : (
        <>
          <p>
            The FHFA all-transactions index of {area}, every quarter the snapshot holds ({series.points[0]?.period} to {series.points.at(-1)?.period}). It
            tracks how prices changed since 1995 Q1 (= 100), not what a home costs; the latest year is drawn thicker, and the lower panel shows each quarter's
            change on a year earlier. Price changes stay out of the scores (the <a href={site.href(`${PATHS.methodology}#scores`)}>methodology</a> says why).
          </p>
          <PriceIndexChart series={series} area={area} />
          <ChartData
            site={site}
            label="in this chart, every quarter"
            links={[
              ['the series (CSV)', PATHS.seriesCsv(profile.market.id)],
              ['the series (JSON)', PATHS.series(profile.market.id)],
            ]}
          />
          <details class="data-table">
            <summary>Every quarter's value, as a table</summary>
            <TableScroll label="House price index by quarter" columns={6}>
              <PriceIndexTable series={series} area={area} />
            </TableScroll>
          </details>
        </>
      )}
    </section>
  );
}

/**
 * "What each number covers", in one line: the boundaries with the fewest metrics named with their metrics, the one with
 * the most as "every other number". The full sentence and the codes are in the profile's geographyScope.
 */
function Covers({ scope, profile }: { scope: AreaScope; profile: AssembledProfile }) {
  const [main, ...rest] = [...scope.boundaries].sort((a, b) => b.metrics.length - a.metrics.length);
  if (main === undefined) return null;
  const cbsaName = profile.market.cbsaName;
  const clauses = rest.map((b) => coverageClause(b.metrics, b, cbsaName));
  return (
    <p class="covers" id="geography">
      <strong>What each number covers:</strong> {clauses.join('; ')}
      {clauses.length === 0 ? 'every number describes' : '; every other number describes'} {boundaryPhrase(main, cbsaName)}.
    </p>
  );
}

function Freshness({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const f = profile.profile.freshness;
  return (
    <section aria-labelledby="freshness">
      <h2 id="freshness">Freshness and sources</h2>
      <Facts
        items={[
          ['Freshness', <FreshnessBadge key="f" value={f.freshness} />],
          ['Provenance', f.provenance === 'fixture' ? 'fixture: a static snapshot, not a live feed' : f.provenance],
          ['Retrieved', <DateText key="r" iso={f.retrievedAt} />],
          ['Snapshot', <DateText key="s" iso={profile.profile.updatedDate} />],
        ]}
      />
      <ReflowTable>
        <table>
          <caption>
            Sources of this profile; the freshness rule is on the <a href={site.href(`${PATHS.methodology}#freshness`)}>methodology page</a>
          </caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Updated</th>
              <th scope="col">Latest release</th>
              <th scope="col">Retrieved</th>
              <th scope="col">Freshness</th>
            </tr>
          </thead>
          <tbody>
            {profile.sources.map((s) => (
              <tr key={s.sourceId}>
                <th scope="row">
                  <a href={site.href(`${PATHS.dataSources}#${s.sourceId}`)}>{s.sourceName}</a>
                  <span class="sub">
                    {s.agency} · <ExternalLink href={s.sourceUrl}>landing page</ExternalLink>
                  </span>
                </th>
                <Td label="Updated">{s.updateFrequency}</Td>
                <Td label="Latest release">
                  <DateText iso={s.latestReleaseDate} />
                </Td>
                <Td label="Retrieved">
                  <DateText iso={s.latestRetrievedAt} />
                </Td>
                <Td label="Freshness">
                  <FreshnessBadge value={sourceFreshness(s, profile.profile.updatedDate)} />
                </Td>
              </tr>
            ))}
          </tbody>
        </table>
      </ReflowTable>
    </section>
  );
}

export function MarketPage({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const m = profile.market;
  // Washington's county-equivalent is the District itself; naming it twice says nothing.
  const county = m.countyName === undefined || m.countyName === m.state ? undefined : m.countyName;
  const place = [`${m.name}, ${m.state}`, county].filter((x): x is string => x !== undefined).join(' · ');
  return (
    <>
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <ol>
          <li>
            <a href={site.href(PATHS.home)}>All markets</a>
          </li>
          <li aria-current="page">{displayName(m)}</li>
        </ol>
      </nav>
      <h1>{displayName(m)}</h1>
      <p class="lead">
        {place}
        {m.cbsaName === undefined ? null : (
          <>
            <br />
            Metro area: {m.cbsaName}
          </>
        )}
      </p>
      <p class="notice">
        Static fixture data, snapshot of {formatDate(profile.profile.updatedDate)}: not live, not a forecast and not advice. See the{' '}
        <a href="#caveats">caveats</a>. <IllustrativeNote site={site} profiles={[profile]} />
      </p>
      {profile.geographyScope === undefined ? null : <Covers scope={profile.geographyScope} profile={profile} />}
      <section aria-labelledby="downloads">
        <h2 id="downloads">Download</h2>
        <Downloads site={site} profile={profile} />
      </section>
      <ScoreSection site={site} profile={profile} />
      <Metrics site={site} profile={profile} />
      <HousePrices site={site} profile={profile} />
      <Freshness site={site} profile={profile} />
      <Caveats caveats={profile.caveats} headingId="caveats" />
    </>
  );
}
