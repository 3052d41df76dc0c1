// /methodology: the metric definitions, score formulas, thresholds and freshness rule of the running version.
import { PATHS } from '../../contract/paths.ts';
import { freshnessBounds, isOverdue, nextExpectedRelease } from '../../methodology/freshness.ts';
import { metricDefinition, requiredOf } from '../../methodology/metrics.ts';
import { DERIVED_KEYS, derivedInput, THRESHOLDS, THRESHOLD_BASIS, THRESHOLD_KEYS, isDerived, scoreDependencies } from '../../methodology/scores.ts';
import { Z_90 } from '../../methodology/comparisons.ts';
import { METHODOLOGY_CHANGES, METHODOLOGY_VERSION } from '../../methodology/version.ts';
import { ReflowTable, releaseBasisWords } from './components.tsx';
import { formatDate, formatDays, formatNumber, formatPercent, listWords, shortSourceName } from './format.ts';
import { SCORE_KEYS, derivation, scoreLabel, scoreTerms, thresholdLabel, type Term } from './scores.ts';
import type { Site } from './site.ts';
import { WorkedExample } from './worked-example.tsx';

const weight = (w: number): string => formatNumber(w, 1);

function Formula({ terms }: { terms: readonly Term[] }) {
  return (
    <>
      round(
      {terms.map((t, i) => (
        <span key={t.key}>
          {i > 0 ? ' + ' : ''}
          {weight(t.weight)} × {t.kind === 'threshold' ? `s(${t.key})` : t.key}
        </span>
      ))}
      )
    </>
  );
}

/** Every metric once, in one table: its definition, unit, precision and source; its row is the anchor other pages link to. */
function MetricDefinitions({ site }: { site: Site }) {
  const sourceNames = new Map(site.sources.map((s) => [s.sourceId, s.sourceName]));
  return (
    <section aria-labelledby="metrics">
      <h2 id="metrics">Metrics</h2>
      <p>
        Methodology {METHODOLOGY_VERSION} requires {requiredOf(site.metrics).length} metrics for every market. Values are rounded once, at loading, to the
        precision their source publishes.
      </p>
      <ReflowTable>
        <table class="definitions">
          <caption>Every metric: what it measures, its unit and precision, and its source</caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Definition</th>
              <th scope="col">Unit, precision</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {site.metrics.map((m) => (
              <tr key={m.id} id={`metric-${m.id}`}>
                <th scope="row">
                  {m.label}
                  <span class="sub">
                    <code>{m.id}</code>
                    {m.required ? '' : ' · not required: shown where the source has it, left out of coverage'}
                  </span>
                </th>
                <td data-label="Definition" class="block">
                  {m.definition}
                </td>
                <td data-label="Unit, precision" class="nowrap">
                  <code>{m.unit}</code>, {m.decimals === 0 ? 'whole' : `${m.decimals} ${m.decimals === 1 ? 'decimal' : 'decimals'}`}
                </td>
                <td data-label="Source" class="nowrap">
                  <a href={site.href(`${PATHS.dataSources}#${m.sourceId}`)}>{shortSourceName(sourceNames.get(m.sourceId) ?? m.sourceId)}</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ReflowTable>
    </section>
  );
}

function ScoreFormulas() {
  const deps = scoreDependencies();
  const metricInputs = THRESHOLD_KEYS.filter((key) => !isDerived(key));
  const usedBy = (key: string): string =>
    SCORE_KEYS.flatMap((s) =>
      scoreTerms(s)
        .filter((t) => t.key === key)
        .map((t) => `${scoreLabel(s)} (weight ${weight(t.weight)})`),
    ).join(', ');
  return (
    <section aria-labelledby="scores">
      <h2 id="scores">Scores</h2>
      <p>
        Every score is an integer from 0 to 100; higher is better. Inputs are placed on fixed thresholds, not ranked against the other markets, so adding a
        market never moves another market's score. A score whose inputs are missing is left out of the profile, never set to 0.
      </p>
      <h3 id="scale">The scale s(x)</h3>
      <p>
        <code>s(x) = min(100, max(0, 100 × (x − a) ÷ (b − a)))</code>, where <em>a</em> is the threshold that scores 0 and <em>b</em> the one that scores 100. A
        value at <em>b</em> or beyond scores 100, at <em>a</em> or beyond scores 0, and linearly in between. Scores are rounded half up to whole numbers.
      </p>
      <h3 id="inputs">Derived inputs</h3>
      <ul>
        {DERIVED_KEYS.map((key) => {
          const meaning = derivedInput(key).meaning;
          return (
            <li key={key}>
              <code>{key}</code> = {derivation(key, (id) => metricDefinition(id)?.noun ?? id)}
              {meaning === undefined ? '' : ` (${meaning})`}
            </li>
          );
        })}
        <li>
          {metricInputs.map((key, i) => (
            <>
              {i === 0 ? '' : i === metricInputs.length - 1 ? ' and ' : ', '}
              <code>{key}</code>
            </>
          ))}{' '}
          are the metrics of the same id.
        </li>
      </ul>
      <h3 id="thresholds">Thresholds</h3>
      <ReflowTable>
        <table>
          <caption>Fixed thresholds of methodology {METHODOLOGY_VERSION}</caption>
          <thead>
            <tr>
              <th scope="col">Input</th>
              <th scope="col" class="num">
                Scores 0 at
              </th>
              <th scope="col" class="num">
                Scores 100 at
              </th>
              <th scope="col">What it rests on</th>
              <th scope="col">Used by</th>
            </tr>
          </thead>
          <tbody>
            {THRESHOLD_KEYS.map((key) => (
              <tr key={key}>
                <th scope="row">
                  <code>{key}</code>
                  {/* A derived input is defined in the list above; a metric's label says what it is. */}
                  {isDerived(key) ? null : <span class="sub">{thresholdLabel(key)}</span>}
                </th>
                <td data-label="Scores 0 at" class="num">
                  {formatNumber(THRESHOLDS[key].zeroAt)}
                </td>
                <td data-label="Scores 100 at" class="num">
                  {formatNumber(THRESHOLDS[key].fullAt)}
                </td>
                <td data-label="What it rests on" class="block">
                  {THRESHOLD_BASIS[key]}
                </td>
                <td data-label="Used by" class="block">
                  {usedBy(key)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ReflowTable>
      <h3 id="formulas">Formulas</h3>
      <dl class="formulas">
        {SCORE_KEYS.map((key) => (
          <div key={key}>
            <dt>{scoreLabel(key)}</dt>
            <dd>
              <code>
                {key} = <Formula terms={scoreTerms(key)} />
              </code>
              <span class="sub">Needs: {listWords(deps[key].map((m) => metricDefinition(m)?.shortLabel.toLowerCase() ?? m))}.</span>
            </dd>
          </div>
        ))}
      </dl>
      <h3 id="left-out">What the scores leave out, and why</h3>
      <p>
        <strong>Price momentum.</strong> The house price index and its change over the year are shown beside the scores but feed none of them. The index
        measures how prices moved since 1995, not what a home costs, so it cannot say whether a home is affordable; and one year's change of a metro (or
        metropolitan division) index says where prices went, not what households pay. A score that rewarded or penalized it would swing with the cycle rather
        than with what renters and owners pay. The owner part reads the price level instead, through the median home value.
      </p>
      <p>
        <strong>Tenure.</strong> The homeownership rate is shown beside the scores but feeds none of them: a city where more households rent is not, for that
        alone, more or less affordable. It says which of the two affordability parts speaks for more of the city's households.
      </p>
    </section>
  );
}

/** This version's changes from the one before, and why: the changelog page keeps every version's. */
function WhatChanged({ site }: { site: Site }) {
  const [current, previous] = METHODOLOGY_CHANGES;
  if (current === undefined || current.version !== METHODOLOGY_VERSION) return null;
  return (
    <section aria-labelledby="changes">
      <h2 id="changes">
        What changed in {current.version}
        {previous === undefined ? '' : ` from ${previous.version}`}, and why
      </h2>
      <ul>
        {current.changes.map((change, i) => (
          <li key={i}>{change}</li>
        ))}
      </ul>
      <p>
        Earlier versions' changes are on the <a href={site.href(PATHS.changelog)}>changelog</a>. Snapshots published under an earlier version stay served as
        they were, at their <a href={site.href(PATHS.vintages)}>vintage</a> addresses.
      </p>
    </section>
  );
}

const COMPARISONS_TITLE = 'Beside the state and the nation';

function ComparisonRule() {
  return (
    <section aria-labelledby="comparisons">
      <h2 id="comparisons">{COMPARISONS_TITLE}</h2>
      <p>
        Each Census figure of a market is served with its state's figure from the same survey and period (<code>comparisons</code> in the metric object), and
        the market page says whether the two differ. The test is the Census Bureau's for two estimates (ACS General Handbook, chapter 8): with each standard
        error the 90 % margin of error divided by {Z_90}, <code>Z = (a − b) ÷ √(SEa² + SEb²)</code>, and the difference is significant at the 90 % level when{' '}
        <code>|Z| &gt; {Z_90}</code>. Like the Bureau's own comparison tools, it treats the two samples as independent, although a city's sample is part of its
        state's; a share computed from counts carries the margin the Bureau's approximation for a derived proportion gives, for the state as for the market. The
        District of Columbia is both a place and a state-equivalent, so Washington's figures equal the District's.
      </p>
    </section>
  );
}

function FreshnessRule({ site }: { site: Site }) {
  const bounds = freshnessBounds(site.snapshotDate);
  return (
    <section aria-labelledby="freshness">
      <h2 id="freshness">Freshness</h2>
      <p>
        Freshness is judged against the snapshot date, not today. For each source, the age of its latest release at the snapshot is compared with the interval
        its update frequency promises: <strong>fresh</strong> within one interval, <strong>aging</strong> within two, <strong>stale</strong> beyond, or when no
        release date is known. A profile is as fresh as its least fresh source. Provenance is <code>fixture</code> for static snapshots like these and{' '}
        <code>live</code> only for data read from the source at request time, which this service never does.
      </p>
      <ReflowTable>
        <table>
          <caption>Release age at the snapshot that each verdict allows</caption>
          <thead>
            <tr>
              <th scope="col">Update frequency</th>
              <th scope="col" class="num">
                Interval
              </th>
              <th scope="col">Fresh</th>
              <th scope="col">Aging</th>
              <th scope="col">Stale</th>
            </tr>
          </thead>
          <tbody>
            {bounds.map((b) => (
              <tr key={b.frequency}>
                <th scope="row">{b.frequency}</th>
                <td data-label="Interval" class="num">
                  {formatDays(b.interval)}
                </td>
                <td data-label="Fresh">up to {formatDays(b.freshUpTo)}</td>
                <td data-label="Aging">
                  {formatNumber(b.freshUpTo + 1)} to {formatDays(b.agingUpTo)}
                </td>
                <td data-label="Stale">over {formatDays(b.agingUpTo)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ReflowTable>
      <p id="next-release">
        <strong>Next release.</strong> Each source's next release is expected one update interval after its latest release: a month, a quarter or a year later
        (a day past the end of a shorter month falls on its last day). A source is <strong>overdue</strong> at a snapshot when that date is before the snapshot
        date. At the snapshot of {formatDate(site.snapshotDate)}:{' '}
        {listWords(
          site.sources.map((s) => {
            const next = nextExpectedRelease(s);
            const basis = releaseBasisWords(s);
            return `${shortSourceName(s.sourceName)}, released ${s.latestReleaseDate === undefined ? 'on an unknown date' : `${formatDate(s.latestReleaseDate)}${basis === undefined ? '' : ` (${basis})`}`}, next due ${next === undefined ? 'unknown' : formatDate(next)}${isOverdue(s, site.snapshotDate) ? ' (overdue)' : ''}`;
          }),
        )}
        . The data status page and <a href={site.href(PATHS.vintages)}>/api/vintages</a> give the same dates.
      </p>
    </section>
  );
}

function CoverageRule({ site }: { site: Site }) {
  const partial = site.profiles.find((p) => p.profile.coverage.missing.length > 0);
  return (
    <section aria-labelledby="coverage">
      <h2 id="coverage">Coverage</h2>
      <p>
        <code>totalRequired</code> is the number of metrics the methodology requires ({requiredOf(site.metrics).length}); <code>missing</code> lists the
        required metric ids a market lacks; <code>percent</code> is provided ÷ required × 100, rounded to one decimal.
        {partial === undefined
          ? null
          : ` For example, ${partial.market.name} has ${partial.profile.coverage.totalProvided} of ${partial.profile.coverage.totalRequired}: ${formatPercent(partial.profile.coverage.percent)}.`}
      </p>
    </section>
  );
}

/** The page's sections in the order they stand, which is the order its contents list them. */
const SECTIONS: readonly { id: string; title: string }[] = [
  { id: 'changes', title: 'What changed' },
  { id: 'metrics', title: 'Metrics' },
  { id: 'scores', title: 'Scores' },
  { id: 'comparisons', title: COMPARISONS_TITLE },
  { id: 'freshness', title: 'Freshness' },
  { id: 'coverage', title: 'Coverage' },
  { id: 'worked-example', title: 'Worked example' },
];

export function MethodologyPage({ site }: { site: Site }) {
  const whatChanged = METHODOLOGY_CHANGES[0]?.version === METHODOLOGY_VERSION;
  return (
    <>
      <h1>Methodology {METHODOLOGY_VERSION}</h1>
      <p class="lead">
        How the profiles are put together: which metrics each market needs, how the scores are computed, and how freshness and coverage are judged. Every
        profile names the methodology it used in <code>methodologyVersion</code>; a change to any rule below changes that version.
      </p>
      <nav aria-label="On this page" class="toc">
        <ul>
          {SECTIONS.filter((x) => x.id !== 'changes' || whatChanged).map((x) => (
            <li key={x.id}>
              <a href={`#${x.id}`}>{x.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <WhatChanged site={site} />
      <MetricDefinitions site={site} />
      <ScoreFormulas />
      <ComparisonRule />
      <FreshnessRule site={site} />
      <CoverageRule site={site} />
      <WorkedExample site={site} />
    </>
  );
}
