// /markets/<market-id>: one market's story for people: its key figures in context, its scores, every figure in one table, house prices beside its state's and the nation's, then downloads and notes.
import type { Comparison, Metric } from '../../contract/schemas.ts';
import { areaWords } from '../../contract/geography.ts';
import type { AreaScope, AssembledProfile } from '../../methodology/profiles.ts';
import { sourceFreshness } from '../../methodology/freshness.ts';
import { inMetricOrder, metricDefinition, type MetricId } from '../../methodology/metrics.ts';
import { METHODOLOGY_VERSION } from '../../methodology/version.ts';
import { PATHS } from '../../contract/paths.ts';
import { boundaryPhrase, coverageClause } from '../../methodology/profiles.ts';
import { MARKS, differenceMark } from './comparison-words.ts';
import { Caveats, ChartData, DateText, FreshnessBadge, IllustrativeNote, IllustrativeTag, ReleaseDate } from './components.tsx';
import { displayName, formatDate, formatPercent, formatShort, labelList, listWords, shortLabel, shortSourceName } from './format.ts';
import { KeyFigures } from './key-figures.tsx';
import { PriceIndexChart, PriceIndexTable, PriceLegend, rebaseIndexes } from './price-chart.tsx';
import { ScoreList } from './score-list.tsx';
import type { Site } from './site.ts';
import { MiniStrip, basisOf, distribution, standingWords } from './standing.tsx';

const metricLabel = (id: string): string => metricDefinition(id)?.label ?? id;

function Downloads({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const id = profile.market.id;
  return (
    <p class="downloads">
      <a href={site.href(PATHS.profile(id))} type="application/json">
        Profile (JSON)
      </a>{' '}
      ·{' '}
      <a href={site.href(PATHS.marketCsv(id))} type="text/csv" download>
        Figures (CSV, one row per metric)
      </a>{' '}
      ·{' '}
      <a href={site.href(PATHS.seriesCsv(id))} type="text/csv" download>
        Every observation behind them (series CSV)
      </a>{' '}
      · <a href={site.href(PATHS.series(id))}>the same as JSON</a>
    </p>
  );
}

/** What follows an amount of money over a period. */
const PER: Readonly<Record<string, string>> = { 'USD/mo': 'a month', 'USD/yr': 'a year' };

/** A figure with its margin: "$1,729 a month ± $14"; an open-ended one as published ("$4,000+"), with no margin. */
function Estimate({
  metricId,
  value,
  margin,
  qualifier,
  period = false,
}: {
  metricId: string;
  value: number;
  margin?: number | undefined;
  qualifier?: Metric['qualifier'];
  /** Say the period money is over ("$1,729 a month"): the market's own figure does, the state's and the nation's beside it share it. */
  period?: boolean;
}) {
  // A share, a count or an index says its unit, or its label does.
  const per = period ? PER[metricDefinition(metricId)?.unit ?? ''] : undefined;
  return (
    <>
      <span class="value">
        {formatShort(metricId, value, qualifier)}
        {per === undefined ? null : <span class="per"> {per}</span>}
      </span>
      {margin === undefined ? null : <span class="moe"> ± {formatShort(metricId, margin)}</span>}
    </>
  );
}

/** The state's or the nation's figure in its column, with the test's mark; "not published here" where no such figure is served. */
function AroundCell({ metric, c, name, label }: { metric: Metric; c: Comparison | undefined; name: string; label: string }) {
  if (metric.id === 'homePriceIndex') {
    // The index's level says nothing of where prices stand beside another area's: the chart sets the three side by side.
    return (
      <td data-label={label} class="num around">
        <a href="#house-prices">on the chart</a>
      </td>
    );
  }
  if (c === undefined) {
    return (
      <td data-label={label} class="num around">
        <span class="muted">not published here</span>
      </td>
    );
  }
  const mark = differenceMark(name, metric, c);
  return (
    <td data-label={label} class="num around">
      <span class="nowrap">
        <Estimate metricId={metric.id} value={c.value} margin={c.marginOfError} />
        {mark === undefined ? null : mark === 'untested' ? (
          <span class="visually-hidden"> not tested: one figure has no margin</span>
        ) : (
          <>
            {' '}
            <span class="mark" aria-hidden="true">
              {mark.symbol}
            </span>
            <span class="visually-hidden"> {mark.words}</span>
          </>
        )}
      </span>
    </td>
  );
}

function MetricRow({
  site,
  profile,
  id,
  sourceName,
  note,
}: {
  site: Site;
  profile: AssembledProfile;
  id: MetricId;
  sourceName: string | undefined;
  note?: string;
}) {
  const metric = profile.profile.metrics[id];
  const name = profile.market.name;
  const label = <a href={site.href(`${PATHS.methodology}#metric-${id}`)}>{metric?.label ?? metricLabel(id)}</a>;
  if (metric === undefined) {
    return (
      <tr class="missing-row">
        <th scope="row">{label}</th>
        <td colSpan={4}>
          <strong>Not available.</strong> This snapshot has no value for this metric in this market.
        </td>
      </tr>
    );
  }
  const d = distribution(site, id);
  // Permits without the housing units to divide them by have no place per 1,000 units; said, not left blank.
  const standing = standingWords(d, profile.market.id) ?? `Not ranked: ${d.basis.by.replace(/^by /, '')} is not available`;
  const state = metric.comparisons?.find((c) => c.level === 'state');
  const nation = metric.comparisons?.find((c) => c.level === 'nation');
  return (
    <tr>
      <th scope="row">
        {label}
        <span class="sub">
          {metric.asOf}
          {metric.dollarYear === undefined ? '' : `, ${metric.dollarYear} dollars`} ·{' '}
          <a href={site.href(`${PATHS.dataSources}#${metric.sourceId}`)}>{shortSourceName(sourceName ?? metric.sourceId)}</a>
        </span>
        {note === undefined ? null : <span class="sub value-note">{note}</span>}
      </th>
      <td data-label={name} class="num estimate">
        <Estimate metricId={id} value={metric.value} margin={metric.marginOfError} qualifier={metric.qualifier} period />
        {metric.illustrative === true ? (
          <>
            {' '}
            <IllustrativeTag />
          </>
        ) : null}
      </td>
      <AroundCell metric={metric} c={state} name={name} label={profile.market.stateCode} />
      <AroundCell metric={metric} c={nation} name={name} label="US" />
      <td data-label="Rank" class="standing">
        <MiniStrip d={d} marketId={profile.market.id} />
        <span class="rank">{standing}</span>
      </td>
    </tr>
  );
}

/** What the marks and the rank column mean, once above the table instead of a sentence in every row. */
function FiguresLegend({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const unranked = site.metrics.filter((m) => basisOf(m.id).unranked !== undefined);
  return (
    <p class="table-legend">
      ± the agency's 90 % margin of error. <span class="mark">{MARKS.higher.symbol}</span> <span class="mark">{MARKS.lower.symbol}</span> {profile.market.name}{' '}
      significantly higher or lower than there, <span class="mark">{MARKS.same.symbol}</span> {MARKS.same.legend}, <span class="mark">{MARKS.one.symbol}</span>{' '}
      one area (the Census Bureau's test at 90 %, <a href={site.href(`${PATHS.methodology}#comparisons`)}>how</a>); no mark: not tested. Places count from the
      nearer end
      {unranked.length === 0 ? '' : `; ${listWords(unranked.map((m) => m.noun))} is not ranked, its change is`}.
    </p>
  );
}

function Figures({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const { coverage } = profile.profile;
  const sourceNames = new Map(profile.sources.map((s) => [s.sourceId, s.sourceName]));
  return (
    <section aria-labelledby="metrics">
      <h2 id="metrics">Every figure</h2>
      {coverage.missing.length > 0 ? (
        <p class="notice notice-missing">
          <strong>Missing: {labelList(coverage.missing.map(metricLabel))}.</strong> The sources hold no value for{' '}
          {coverage.missing.length === 1 ? 'it' : 'them'} in this market, so {coverage.missing.length === 1 ? 'it is' : 'they are'} left out of the JSON and CSV
          and any score that needs {coverage.missing.length === 1 ? 'it' : 'them'} is not computed.
        </p>
      ) : null}
      <FiguresLegend site={site} profile={profile} />
      <div class="table-figures">
        <table class="figures">
          <caption>
            Every figure of {displayName(profile.market)} with its period and source, its margin, {profile.market.state}'s and the nation's figures, and its
            place among the {site.profiles.length} markets
          </caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col" class="num">
                {profile.market.name}
              </th>
              <th scope="col" class="num">
                {profile.market.state}
              </th>
              <th scope="col" class="num">
                United States
              </th>
              <th scope="col">Among the {site.profiles.length}</th>
            </tr>
          </thead>
          <tbody>
            {site.metrics.map((m) => {
              const metric = profile.profile.metrics[m.id];
              return (
                <MetricRow
                  key={m.id}
                  site={site}
                  profile={profile}
                  id={m.id}
                  sourceName={metric === undefined ? undefined : sourceNames.get(metric.sourceId)}
                  note={site.market(profile.market.id).notes.get(m.id)}
                />
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The area the house price index describes, as a sentence names it. */
function indexArea(profile: AssembledProfile): string {
  const b = profile.geographyScope?.boundaries.find((x) => x.metrics.includes('homePriceIndex'));
  if (b === undefined) return profile.market.cbsaName === undefined ? displayName(profile.market) : `the ${profile.market.cbsaName} metro area`;
  return areaWords(b);
}

/** "rose 0.3%", "fell 1.2%", "did not change". */
const moved = (change: number): string =>
  change > 0 ? `rose ${formatShort('homePriceChange', change)}` : change < 0 ? `fell ${formatShort('homePriceChange', -change)}` : 'did not change';

/** How the latest year's change compares, in one sentence with the numbers: the market's area's, its state's and the nation's. */
function latestChangeSentence(profile: AssembledProfile, area: string): string | undefined {
  const change = profile.profile.metrics.homePriceChange;
  if (change === undefined) return undefined;
  const year = change.asOf.replace(/^.* to /, '');
  const others = (change.comparisons ?? []).map(
    (c) =>
      `${c.level === 'nation' ? "the nation's" : `${c.name}'s`} ${moved(c.value).replace(/^(rose|fell) /, (_, w: string) => (Math.sign(c.value) === Math.sign(change.value) ? '' : `${w} `))}`,
  );
  return `Prices in ${area} ${moved(change.value)} in the year to ${year}${others.length === 0 ? '' : `, ${listWords(others)}`}.`;
}

function HousePrices({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const series = site.market(profile.market.id).series.get('homePriceIndex');
  const area = indexArea(profile);
  const missing = site.market(profile.market.id).missing.get('homePriceIndex');
  const rebased = series === undefined ? undefined : rebaseIndexes(series, 'Metro', area);
  const sentence = latestChangeSentence(profile, area);
  return (
    <section aria-labelledby="house-prices">
      <h2 id="house-prices">House prices</h2>
      {series === undefined || rebased === undefined ? (
        <p>No house price index for this market in this snapshot{missing === undefined ? '' : `: ${missing.reason}`}.</p>
      ) : (
        <>
          <p>
            {sentence} The chart sets FHFA's all-transactions indexes of the three areas side by side, each 100 in {rebased.base} (the same start on every
            market page), so each line says how far prices moved since then; it tracks changes, not what a home costs.
          </p>
          <PriceLegend rebased={rebased} />
          <PriceIndexChart rebased={rebased} area={area} />
          <ChartData
            site={site}
            label="behind this chart, every quarter of the three indexes as FHFA publishes them (1995 Q1 = 100)"
            links={[
              ['series (CSV)', PATHS.seriesCsv(profile.market.id)],
              ['series (JSON)', PATHS.series(profile.market.id)],
            ]}
          />
          <details class="data-table">
            <summary>Every quarter's value, as a table</summary>
            <div class="table-plain">
              <PriceIndexTable series={series} area={area} />
            </div>
          </details>
        </>
      )}
    </section>
  );
}

/** The geography in one short line near the top: which figures describe which area, without codes (the note below has them). */
function CoversShort({ scope }: { scope: AreaScope }) {
  const [main, ...rest] = [...scope.boundaries].sort((a, b) => b.metrics.length - a.metrics.length);
  if (main === undefined) return null;
  const clauses = rest.map((b) => `${listWords(inMetricOrder(b.metrics).map((m) => shortLabel(m).toLowerCase()))}: ${areaWords(b)}`);
  const text = clauses.join('; ');
  return (
    <p class="line-note">
      {text.charAt(0).toUpperCase()}
      {text.slice(1)}; every other figure: {areaWords(main)} (<a href="#geography">codes and details</a>).
    </p>
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

function Sources({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const f = profile.profile.freshness;
  return (
    <section aria-labelledby="freshness">
      <h2 id="freshness">Sources and freshness</h2>
      <p>
        <FreshnessBadge value={f.freshness} />: as fresh as its least fresh source at the snapshot of <DateText iso={profile.profile.updatedDate} /> (the{' '}
        <a href={site.href(`${PATHS.methodology}#freshness`)}>rule</a>); {f.provenance === 'fixture' ? 'a static snapshot, not a live feed' : f.provenance}.
      </p>
      <div class="table-reflow">
        <table class="sources">
          <caption>The sources of this profile</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
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
                    {s.agency} · {site.source(s.sourceId).vintage}, updated {s.updateFrequency} ·{' '}
                    <a href={s.sourceUrl} rel="external noopener" class="external">
                      landing page
                    </a>
                  </span>
                </th>
                <td data-label="Latest release">
                  <ReleaseDate source={s} />
                </td>
                <td data-label="Retrieved">
                  <DateText iso={s.latestRetrievedAt} />
                </td>
                <td data-label="Freshness">
                  <FreshnessBadge value={sourceFreshness(s, profile.profile.updatedDate)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Notes({ profile }: { profile: AssembledProfile }) {
  const { coverage } = profile.profile;
  return (
    <section aria-labelledby="notes">
      <h2 id="notes">Notes</h2>
      {profile.geographyScope === undefined ? null : <Covers scope={profile.geographyScope} profile={profile} />}
      <p>
        Coverage: {coverage.totalProvided} of the {coverage.totalRequired} metrics methodology {METHODOLOGY_VERSION} requires ({formatPercent(coverage.percent)}
        ).
      </p>
      {coverage.missing.length === 0 ? <p class="confirm">Every required metric is present.</p> : null}
    </section>
  );
}

export function MarketPage({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const m = profile.market;
  // Washington's county-equivalent is the District itself; naming it twice says nothing.
  const county = m.countyName === undefined || m.countyName === m.state ? undefined : m.countyName;
  // The metro is named by the geography line below, with what it covers.
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
      <p class="lead">{place}</p>
      <p class="line-note notice">
        Static fixture data, snapshot of {formatDate(profile.profile.updatedDate)}: not live, not a forecast, not advice (<a href="#caveats">caveats</a>).{' '}
        <IllustrativeNote site={site} profiles={[profile]} />
      </p>
      {profile.geographyScope === undefined ? null : <CoversShort scope={profile.geographyScope} />}
      <section aria-labelledby="figures">
        <h2 id="figures" class="visually-hidden">
          Key figures
        </h2>
        <KeyFigures site={site} profile={profile} />
      </section>
      <Figures site={site} profile={profile} />
      <section aria-labelledby="scores">
        <h2 id="scores">Scores</h2>
        <p class="section-note">
          0 to 100 against fixed thresholds, higher is better; each with what drives it (<a href={site.href(`${PATHS.methodology}#scores`)}>how</a>).
        </p>
        <ScoreList profile={profile} />
      </section>
      <HousePrices site={site} profile={profile} />
      <section aria-labelledby="downloads">
        <h2 id="downloads">Download</h2>
        <Downloads site={site} profile={profile} />
      </section>
      <Sources site={site} profile={profile} />
      <Notes profile={profile} />
      <Caveats caveats={profile.caveats} headingId="caveats" />
    </>
  );
}
