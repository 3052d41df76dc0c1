// /markets/<market-id>: one market's profile for people, every number with its unit, period and source.
import type { GeographyScope, MarketProfile, Metric } from '../../contract.ts';
import { METHODOLOGY_VERSION, METRICS, metricDefinition, sourceFreshness } from '../../methodology.ts';
import { PATHS } from '../../paths.ts';
import { MarketScoreChart } from './charts.tsx';
import { Caveats, DateText, ExternalLink, Facts, FreshnessBadge, ReflowTable, Td } from './components.tsx';
import { displayName, formatDate, formatMetric, formatPercent, labelList } from './format.ts';
import { SCORE_KEYS, scoreDependencies, scoreLabel, scoreMeaning, scoreOf } from './scores.ts';
import type { Site } from './site.ts';

const metricLabel = (id: string): string => metricDefinition(id)?.label ?? id;

function Downloads({ site, profile }: { site: Site; profile: MarketProfile }) {
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
    </ul>
  );
}

function Scores({ site, profile }: { site: Site; profile: MarketProfile }) {
  const deps = scoreDependencies();
  const missing = new Set(profile.profile.coverage.missing);
  const scores = profile.profile.scores as Record<string, number | undefined>;
  return (
    <section aria-labelledby="scores">
      <h2 id="scores">Scores</h2>
      <p>
        Each score runs from 0 to 100 against fixed thresholds, so it does not move when other markets change; higher is better. How they are computed is on the{' '}
        <a href={site.href(`${PATHS.methodology}#scores`)}>methodology page</a>.
      </p>
      <MarketScoreChart name={displayName(profile.market)} scores={scores} />
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
              return (
                <tr key={key}>
                  <th scope="row">{scoreLabel(key)}</th>
                  <Td label="Value" class="num">
                    {value === undefined ? 'Not computed' : `${value} / 100`}
                  </Td>
                  <Td label="Meaning">
                    {scoreMeaning(key)}
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

function MetricRow({ site, id, metric, sourceName }: { site: Site; id: string; metric: Metric | undefined; sourceName: string | undefined }) {
  const label = <a href={site.href(`${PATHS.methodology}#metric-${id}`)}>{metric?.label ?? metricLabel(id)}</a>;
  if (metric === undefined) {
    return (
      <tr class="missing-row">
        <th scope="row">{label}</th>
        <Td colSpan={3}>
          <strong>Not available.</strong> This snapshot has no value for this metric in this market.
        </Td>
      </tr>
    );
  }
  return (
    <tr>
      <th scope="row">{label}</th>
      <Td label="Value" class="num">
        <span class="value">{formatMetric(metric)}</span>
      </Td>
      <Td label="Period">{metric.asOf}</Td>
      <Td label="Source">
        <a href={site.href(`${PATHS.dataSources}#${metric.sourceId}`)}>{sourceName ?? metric.sourceId}</a>
      </Td>
    </tr>
  );
}

function Metrics({ site, profile }: { site: Site; profile: MarketProfile }) {
  const { metrics, coverage } = profile.profile;
  const known = METRICS.map((m) => m.id);
  const ids = [
    ...known,
    ...Object.keys(metrics)
      .filter((id) => !known.includes(id))
      .sort(),
  ];
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
        <p>Every required metric is present.</p>
      )}
      <ReflowTable>
        <table>
          <caption>Metrics of {displayName(profile.market)}, with the period each value covers and its source</caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col" class="num">
                Value
              </th>
              <th scope="col">Period</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {ids.map((id) => {
              const metric = metrics[id];
              return (
                <MetricRow key={id} site={site} id={id} metric={metric} sourceName={metric === undefined ? undefined : sourceNames.get(metric.sourceId)} />
              );
            })}
          </tbody>
        </table>
      </ReflowTable>
    </section>
  );
}

const LEVEL_WORDS: Record<string, string> = { place: 'City', county: 'County', cbsa: 'Metro area', division: 'Metropolitan division' };

function Geography({ scope }: { scope: GeographyScope }) {
  return (
    <section aria-labelledby="geography" class="notice notice-geography">
      <h2 id="geography">Geography: these numbers describe different areas</h2>
      <p>Not every metric on this page covers the same area, so compare them with care:</p>
      <ul>
        {scope.boundaries.map((b) => (
          <li key={`${b.level}-${b.name}`}>
            <strong>
              {LEVEL_WORDS[b.level] ?? b.level}: {b.name}
            </strong>{' '}
            ({b.states.length > 1 ? `spans ${b.states.length} states: ${b.states.join(', ')}` : b.states.join(', ')}) for{' '}
            {labelList(b.metrics.map(metricLabel))}.
          </li>
        ))}
      </ul>
    </section>
  );
}

function Freshness({ site, profile }: { site: Site; profile: MarketProfile }) {
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

export function MarketPage({ site, profile }: { site: Site; profile: MarketProfile }) {
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
        <a href="#caveats">caveats</a>.
      </p>
      <section aria-labelledby="downloads">
        <h2 id="downloads">Download</h2>
        <Downloads site={site} profile={profile} />
      </section>
      {profile.geographyScope === undefined ? null : <Geography scope={profile.geographyScope} />}
      <Scores site={site} profile={profile} />
      <Metrics site={site} profile={profile} />
      <Freshness site={site} profile={profile} />
      <Caveats caveats={profile.caveats} headingId="caveats" />
    </>
  );
}
