// /data-status: how current each source is at the snapshot, and what each market covers.
import { EXPECTED_INTERVAL_DAYS, daysBetween, isOverdue, nextExpectedRelease, sourceFreshness } from '../../methodology/freshness.ts';
import { metricDefinition } from '../../methodology/metrics.ts';
import { PATHS } from '../../contract/paths.ts';
import { nextPeriod } from '../../contract/periods.ts';
import type { Freshness } from '../../contract/schemas.ts';
import { DateText, FreshnessBadge, MarketRowHeader, ReflowTable, ReleaseDate } from './components.tsx';
import { displayName, formatDate, formatDays, formatNumber, formatPercent, formatShort, listWords, shortSourceName } from './format.ts';
import type { Site } from './site.ts';

/** A source's margins, metric by metric, written once per distinct wording: "<how> (median rent, median income, …)". */
function marginsOf(site: Site, sourceId: string): { text: string; metrics: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const m of site.metrics.filter((x) => x.sourceId === sourceId)) groups.set(m.margin, [...(groups.get(m.margin) ?? []), m.shortLabel.toLowerCase()]);
  return [...groups].map(([text, metrics]) => ({ text, metrics }));
}

/** One row per source: what, who, which period, when released and how that is known, when the next is due, its freshness and how its margins are obtained. */
function SourcesTable({ site }: { site: Site }) {
  return (
    <ReflowTable>
      <table class="source-status">
        <caption>Each source at the snapshot of {formatDate(site.snapshotDate)}</caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Period</th>
            <th scope="col">Latest release</th>
            <th scope="col">Next release due</th>
            <th scope="col">Freshness</th>
            <th scope="col">Margins of error</th>
          </tr>
        </thead>
        <tbody>
          {site.sources.map((s) => (
            <tr key={s.sourceId}>
              <th scope="row">
                <a href={site.href(`${PATHS.dataSources}#${s.sourceId}`)}>{s.sourceName}</a>
                <span class="sub">
                  {s.agency}, {s.updateFrequency}; retrieved <DateText iso={s.latestRetrievedAt} />
                </span>
              </th>
              <td data-label="Period">{site.source(s.sourceId).vintage}</td>
              <td data-label="Latest release">
                <ReleaseDate source={s} />
                <span class="sub">
                  {s.latestReleaseDate === undefined ? 'age unknown' : `${formatDays(daysBetween(s.latestReleaseDate, site.snapshotDate))} before the snapshot`}
                </span>
              </td>
              <td data-label="Next release due">
                <DateText iso={nextExpectedRelease(s)} />
                <span class="sub">a {EXPECTED_INTERVAL_WORDS[s.updateFrequency]} after the latest</span>
                {isOverdue(s, site.snapshotDate) ? <span class="overdue"> overdue at the snapshot</span> : null}
              </td>
              <td data-label="Freshness">
                <FreshnessBadge value={sourceFreshness(s, site.snapshotDate)} />
              </td>
              <td data-label="Margins of error" class="margins block">
                {marginsOf(site, s.sourceId).map((g) => (
                  <span key={g.text} class="margin-group">
                    {g.text} <span class="muted">({listWords(g.metrics)})</span>
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ReflowTable>
  );
}

/** The update interval in words, as "a year after the latest" says it. */
const EXPECTED_INTERVAL_WORDS: Readonly<Record<keyof typeof EXPECTED_INTERVAL_DAYS, string>> = { monthly: 'month', quarterly: 'quarter', annually: 'year' };

/**
 * Every market's freshness and coverage in a sentence per kind of market, not a row per market: markets that share both
 * are named together (all of them, today).
 */
function MarketsSummary({ site }: { site: Site }) {
  const groups = new Map<string, { freshness: Freshness; coverage: string; markets: string[] }>();
  for (const p of site.profiles) {
    const { freshness, coverage } = p.profile;
    const cov = `${coverage.totalProvided} of ${coverage.totalRequired} metrics (${formatPercent(coverage.percent)})`;
    const key = `${freshness.freshness}|${cov}`;
    const g = groups.get(key) ?? { freshness: freshness.freshness, coverage: cov, markets: [] };
    g.markets.push(p.market.id);
    groups.set(key, g);
  }
  const all = groups.size === 1;
  return (
    <ul class="link-list">
      {[...groups.values()].map((g) => (
        <li key={`${g.freshness} ${g.coverage}`}>
          {all ? (
            <a href={site.href(`${PATHS.home}#compare`)}>All {site.profiles.length} markets</a>
          ) : (
            <>
              {g.markets.map((id, i) => {
                const p = site.market(id).profile;
                return (
                  <span key={id}>
                    {i === 0 ? '' : ', '}
                    <a href={site.href(PATHS.marketPage(id))}>{displayName(p.market)}</a>
                  </span>
                );
              })}
            </>
          )}
          : {g.coverage}, <FreshnessBadge value={g.freshness} />, as fresh as the least fresh source each cites.
        </li>
      ))}
    </ul>
  );
}

/**
 * Which values are the agencies' published figures and which illustrative, metric by metric: what the JSON says value by
 * value with `illustrative`. A table only where some are illustrative; otherwise one sentence says so.
 */
function ValuesTable({ site }: { site: Site }) {
  const sourceNames = new Map(site.sources.map((s) => [s.sourceId, s.sourceName]));
  return (
    <ReflowTable>
      <table>
        <caption>Published and illustrative values, metric by metric</caption>
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
                <td data-label="Source">{shortSourceName(sourceNames.get(m.sourceId) ?? m.sourceId)}</td>
                <td data-label="Published" class="num">
                  {values.length - illustrative} of {site.profiles.length}
                </td>
                <td data-label="Illustrative" class="num">
                  {illustrative === 0 ? <span class="muted">none</span> : `${illustrative} of ${site.profiles.length}`}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ReflowTable>
  );
}

/** The values that are an interval's edge rather than a figure, as published ("4,000+"), each named with its market. */
function openEnded(site: Site): string[] {
  return site.profiles.flatMap((p) =>
    Object.values(p.profile.metrics).flatMap((m) =>
      m?.qualifier === undefined
        ? []
        : [`${displayName(p.market)}'s ${metricDefinition(m.id)?.noun ?? m.id}, published as ${formatShort(m.id, m.value, m.qualifier)}`],
    ),
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
              <td data-label="Why" class="block">
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
  const values = site.profiles.reduce((n, p) => n + Object.keys(p.profile.metrics).length, 0);
  const illustrative = site.profiles.reduce((n, p) => n + Object.values(p.profile.metrics).filter((m) => m?.illustrative === true).length, 0);
  const open = openEnded(site);
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
          {overdueSentence(site)} This is judged as of the snapshot date: a later snapshot may already hold those releases (
          <a href={site.href(PATHS.vintages)}>every snapshot</a>). A release is due one update interval after the latest; agencies' own calendars may differ by
          days.
        </p>
        <SourcesTable site={site} />
      </section>
      <section aria-labelledby="markets">
        <h2 id="markets">Markets</h2>
        <MarketsSummary site={site} />
      </section>
      <section aria-labelledby="values">
        <h2 id="values">Published and illustrative values</h2>
        <p>
          A value is the agency's published figure, read from its file as the <a href={site.href(PATHS.dataSources)}>data sources page</a> says, or it is
          illustrative: of the right magnitude, not published, and marked <code>"illustrative": true</code> in the JSON (a score computed from one is listed in
          the profile's <code>illustrativeScores</code>).{' '}
          {illustrative === 0 ? `All ${formatNumber(values)} values of this snapshot are published figures; none is illustrative.` : ''}
          {open.length === 0
            ? ''
            : ` ${open.length === 1 ? 'One is' : `${open.length} are`} open-ended, an interval's edge with no margin of error, so the scores that read ${open.length === 1 ? 'it' : 'them'} are bounds: ${listWords(open)}.`}
        </p>
        {illustrative === 0 ? null : <ValuesTable site={site} />}
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
