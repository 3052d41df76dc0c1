// /data-status: how current each source is at the snapshot, and what each market covers.
import { EXPECTED_INTERVAL_DAYS, daysBetween, isOverdue, nextExpectedRelease, sourceFreshness } from '../../methodology/freshness.ts';
import { metricDefinition } from '../../methodology/metrics.ts';
import { PATHS } from '../../contract/paths.ts';
import { nextPeriod } from '../../contract/periods.ts';
import { DateText, FreshnessBadge, MarketRowHeader, ReflowTable } from './components.tsx';
import { displayName, formatDate, formatDays, formatPercent, labelList, listWords } from './format.ts';
import type { Site } from './site.ts';

function SourcesTable({ site }: { site: Site }) {
  return (
    <ReflowTable>
      <table>
        <caption>Each source at the snapshot of {formatDate(site.snapshotDate)}</caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Updated</th>
            <th scope="col">Latest release</th>
            <th scope="col">Retrieved</th>
            <th scope="col">Next release due</th>
            <th scope="col" class="num">
              Release age
            </th>
            <th scope="col">Freshness</th>
            <th scope="col" class="num">
              Markets
            </th>
          </tr>
        </thead>
        <tbody>
          {site.sources.map((s) => {
            const citing = site.profiles.filter((p) => p.sources.some((c) => c.sourceId === s.sourceId)).length;
            return (
              <tr key={s.sourceId}>
                <th scope="row">
                  <a href={site.href(`${PATHS.dataSources}#${s.sourceId}`)}>{s.sourceName}</a>
                </th>
                <td data-label="Updated">
                  {s.updateFrequency} <span class="muted">(every {formatDays(EXPECTED_INTERVAL_DAYS[s.updateFrequency])})</span>
                </td>
                <td data-label="Latest release">
                  <DateText iso={s.latestReleaseDate} />
                </td>
                <td data-label="Retrieved">
                  <DateText iso={s.latestRetrievedAt} />
                </td>
                <td data-label="Next release due">
                  <DateText iso={nextExpectedRelease(s)} />
                  {isOverdue(s, site.snapshotDate) ? <span class="overdue"> overdue at the snapshot</span> : null}
                </td>
                <td data-label="Release age" class="num">
                  {s.latestReleaseDate === undefined ? 'unknown' : formatDays(daysBetween(s.latestReleaseDate, site.snapshotDate))}
                </td>
                <td data-label="Freshness">
                  <FreshnessBadge value={sourceFreshness(s, site.snapshotDate)} />
                </td>
                <td data-label="Markets" class="num">
                  {citing} of {site.profiles.length}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ReflowTable>
  );
}

function MarketsTable({ site }: { site: Site }) {
  return (
    <ReflowTable>
      <table class="status">
        <caption>Freshness and coverage of every market, and the freshness of each source it cites</caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            <th scope="col">Freshness</th>
            <th scope="col">Retrieved</th>
            <th scope="col" class="num">
              Coverage
            </th>
            <th scope="col">Missing</th>
            {site.sources.map((s) => (
              <th key={s.sourceId} scope="col" class="source-col">
                {s.sourceName}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {site.profiles.map((p) => {
            const { freshness, coverage } = p.profile;
            return (
              <tr key={p.market.id}>
                <MarketRowHeader site={site} market={p.market} />
                <td data-label="Freshness">
                  <FreshnessBadge value={freshness.freshness} />
                </td>
                <td data-label="Retrieved">
                  <DateText iso={freshness.retrievedAt} />
                </td>
                <td data-label="Coverage" class="num">
                  {coverage.totalProvided} of {coverage.totalRequired} ({formatPercent(coverage.percent)})
                </td>
                <td data-label="Missing" class="missing-cell">
                  {coverage.missing.length === 0 ? (
                    <span class="muted">none</span>
                  ) : (
                    <strong>{labelList(coverage.missing.map((m) => metricDefinition(m)?.label ?? m))}</strong>
                  )}
                </td>
                {site.sources.map((s) => {
                  const cited = p.sources.find((c) => c.sourceId === s.sourceId);
                  return (
                    <td key={s.sourceId} data-label={s.sourceName}>
                      {cited === undefined ? <span class="muted">not cited</span> : <FreshnessBadge value={sourceFreshness(cited, p.profile.updatedDate)} />}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ReflowTable>
  );
}

/**
 * Which values are the agencies' published figures and which illustrative, metric by metric, and what each metric's
 * margin of error is (or why it has none): what the JSON says value by value with `illustrative` and `marginOfError`.
 */
function ValuesTable({ site }: { site: Site }) {
  const sourceNames = new Map(site.sources.map((s) => [s.sourceId, s.sourceName]));
  return (
    <ReflowTable>
      <table>
        <caption>Published and illustrative values, and margins of error, metric by metric</caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col">Source</th>
            <th scope="col" class="num">
              Published
            </th>
            <th scope="col" class="num">
              Illustrative
            </th>
            <th scope="col">Margin of error</th>
          </tr>
        </thead>
        <tbody>
          {site.metrics.map((m) => {
            const values = site.profiles.flatMap((p) => {
              const metric = p.profile.metrics[m.id];
              return metric === undefined ? [] : [metric];
            });
            const illustrative = values.filter((v) => v.illustrative === true).length;
            return (
              <tr key={m.id}>
                <th scope="row">
                  <a href={site.href(`${PATHS.methodology}#metric-${m.id}`)}>{m.label}</a>
                </th>
                <td data-label="Source">{sourceNames.get(m.sourceId) ?? m.sourceId}</td>
                <td data-label="Published" class="num">
                  {values.length - illustrative} of {site.profiles.length}
                </td>
                <td data-label="Illustrative" class="num">
                  {illustrative === 0 ? <span class="muted">none</span> : `${illustrative} of ${site.profiles.length}`}
                </td>
                <td data-label="Margin of error">{m.margin}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ReflowTable>
  );
}

/** Why each missing value is missing: what the source's file said, or that it has no row for the market. */
function MissingTable({ site }: { site: Site }) {
  const rows = site.profiles.flatMap((p) =>
    p.profile.coverage.missing.map((metricId) => ({ p, metricId, known: site.market(p.market.id).missing.get(metricId) })),
  );
  return (
    <ReflowTable>
      <table>
        <caption>Every required value a market lacks, and why</caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            <th scope="col">Metric</th>
            <th scope="col">Why it is missing</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ p, metricId, known }) => (
            <tr key={`${p.market.id} ${metricId}`}>
              <MarketRowHeader site={site} market={p.market} />
              <td data-label="Metric">{metricDefinition(metricId)?.label ?? metricId}</td>
              <td data-label="Why">
                {known === undefined ? (
                  `The ${metricDefinition(metricId)?.sourceId ?? 'source'} files have no value for this market.`
                ) : (
                  <>
                    {known.reason} (<code>{known.origin.line === undefined ? known.origin.file : `${known.origin.file}:${known.origin.line}`}</code>)
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ReflowTable>
  );
}

/**
 * Which sources had a release due before the snapshot date, said plainly: the period that release covers, and the one
 * this snapshot serves instead.
 */
function overdueSentence(site: Site): string {
  const late = site.sources.filter((s) => isOverdue(s, site.snapshotDate));
  if (late.length === 0) return 'At the snapshot, no source had a release overdue.';
  const parts = late.map((s) => {
    const held = site.source(s.sourceId).vintage;
    const next = nextPeriod(held);
    return `${s.sourceName}: the ${next === undefined ? 'next' : next} release was due on ${formatDate(nextExpectedRelease(s) ?? '')}, before the snapshot, and is not in it; this snapshot serves ${held}`;
  });
  return `Releases this snapshot does not hold yet. ${parts.join('. ')}.`;
}

export function DataStatusPage({ site }: { site: Site }) {
  const incomplete = site.profiles.filter((p) => p.profile.coverage.missing.length > 0);
  return (
    <>
      <h1>Data status</h1>
      <p class="lead">
        Every value comes from a static snapshot of {formatDate(site.snapshotDate)}. Freshness is judged against that date, not today, from the age of each
        source's latest release against its update frequency (the <a href={site.href(`${PATHS.methodology}#freshness`)}>freshness rule</a>).
      </p>
      <p class={incomplete.length === 0 ? 'confirm' : 'notice'}>
        {incomplete.length === 0
          ? 'Every market has every required metric.'
          : `${incomplete.length} of ${site.profiles.length} markets ${incomplete.length === 1 ? 'lacks' : 'lack'} a required metric: ${listWords(incomplete.map((p) => displayName(p.market)))}. Their missing values, and why, are listed below.`}
      </p>
      <section aria-labelledby="sources">
        <h2 id="sources">Sources</h2>
        <p>
          A source's next release is due one update interval after its latest (a year, a quarter; agencies' own calendars may differ by days).{' '}
          {overdueSentence(site)} This is judged as of the snapshot date, {formatDate(site.snapshotDate)}, not the day you read it: a later snapshot may already
          hold those releases (<a href={site.href(PATHS.vintages)}>every snapshot</a>).
        </p>
        <SourcesTable site={site} />
      </section>
      <section aria-labelledby="markets">
        <h2 id="markets">Markets</h2>
        <MarketsTable site={site} />
      </section>
      <section aria-labelledby="values">
        <h2 id="values">Published and illustrative values</h2>
        <p>
          A value is either the agency's published figure, read from its file as the <a href={site.href(PATHS.dataSources)}>data sources page</a> and each
          fixture's README say, or it is illustrative: of the right magnitude, not published, and marked <code>"illustrative": true</code> in the JSON. A score
          computed from an illustrative value is listed in the profile's <code>illustrativeScores</code>. Where the agency publishes a margin of error, the JSON
          carries it as <code>marginOfError</code> (90 %, in the value's unit) and the market pages show it beside the value. The table says, metric by metric,
          how each margin was obtained: read as published beside the estimate, or, for a share of two counts, approximated from the two published margins. Each
          state's figure beside a market's (<code>comparisons</code>) carries its margin obtained the same way.
        </p>
        <ValuesTable site={site} />
      </section>
      {incomplete.length === 0 ? null : (
        <section aria-labelledby="missing">
          <h2 id="missing">Missing values</h2>
          <MissingTable site={site} />
        </section>
      )}
    </>
  );
}
