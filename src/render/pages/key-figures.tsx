// The market page's opening: its key figures as large numbers, each beside its state's and the nation's in plain words, with period and margin.
import type { Metric } from '../../contract/schemas.ts';
import { metricDefinition, valuesOf, type MetricId } from '../../methodology/metrics.ts';
import type { AssembledProfile } from '../../methodology/profiles.ts';
import { PATHS } from '../../contract/paths.ts';
import { areaName, comparedWords } from './comparison-words.ts';
import { IllustrativeTag } from './components.tsx';
import { formatNumber, formatShort, shortLabel } from './format.ts';
import type { Site } from './site.ts';
import { basisOf } from './standing.tsx';

/**
 * The figures a reader comes for, in the order the page shows them, and the figure each shows beside its own where one
 * completes it: the house price change with the index it is the change of.
 */
export const KEY_FIGURES: readonly { id: MetricId; with?: MetricId }[] = [
  { id: 'medianGrossRent' },
  { id: 'medianHouseholdIncome' },
  { id: 'medianHomeValue' },
  { id: 'homePriceChange', with: 'homePriceIndex' },
  { id: 'permits' },
];

/** What follows a large number: "a month", "a year", "units". */
function unitAfter(unit: string): string {
  switch (unit) {
    case 'USD/mo':
      return 'a month';
    case 'USD/yr':
      return 'a year';
    case 'units':
      return 'units';
    default:
      return '';
  }
}

/** The levels a figure is set beside, in the order the card says them. */
const LEVELS = ['state', 'nation'] as const;

/** The change from the earlier period, in one plain sentence: how much, its margin, whether it is significant, and in what dollars. */
function ChangeLine({ metric }: { metric: Metric }) {
  const c = metric.change;
  if (c === undefined) return null;
  const from = `${formatShort(metric.id, c.from.value)}${c.from.marginOfError === undefined ? '' : ` ± ${formatShort(metric.id, c.from.marginOfError)}`}`;
  const by = `${formatShort(metric.id, Math.abs(c.value))}${c.marginOfError === undefined ? '' : ` ± ${formatShort(metric.id, c.marginOfError)}`}`;
  const verdict = c.significant === undefined ? '' : c.significant ? ', a significant change' : ', not a significant change';
  const dollars =
    c.dollars === 'nominal' && c.from.dollarYear !== undefined && metric.dollarYear !== undefined
      ? ` Each in its own dollars (${c.from.dollarYear}, ${metric.dollarYear}), not adjusted for inflation.`
      : '';
  return (
    <p class="figure-change">
      {c.value >= 0 ? 'Up' : 'Down'} {by} ({formatNumber(Math.abs(c.percent), 1)}%) from {from} in {c.from.asOf}
      {verdict}.{dollars}
    </p>
  );
}

function Figure({ site, profile, id, withId }: { site: Site; profile: AssembledProfile; id: MetricId; withId: MetricId | undefined }) {
  const metric = profile.profile.metrics[id];
  const label = <a href={site.href(`${PATHS.methodology}#metric-${id}`)}>{shortLabel(id)}</a>;
  if (metric === undefined) {
    return (
      <div class="figure">
        <h3 class="figure-label">{label}</h3>
        <p class="figure-value">Not available</p>
      </div>
    );
  }
  const around = LEVELS.map((level) => ({ level, c: metric.comparisons?.find((x) => x.level === level) }));
  const unpublished = around.filter((a) => a.c === undefined);
  const state = profile.market.state;
  const other = withId === undefined ? undefined : profile.profile.metrics[withId];
  // A count is set beside what it is ranked by: permits per 1,000 existing units.
  const basis = basisOf(id);
  const perBasis = basis.key === id ? undefined : basis.of(valuesOf(profile.profile.metrics));
  const unit = unitAfter(metric.unit);
  return (
    <div class={metric.change === undefined ? 'figure' : 'figure has-change'}>
      <h3 class="figure-label">{label}</h3>
      <p class="figure-value">
        <span class="big">{formatShort(id, metric.value, metric.qualifier)}</span>
        {unit === '' ? null : ` ${unit}`}
        {metric.illustrative === true ? (
          <>
            {' '}
            <IllustrativeTag />
          </>
        ) : null}
      </p>
      <ul class="figure-context">
        {around.flatMap(({ c }) => (c === undefined ? [] : [<li key={c.level}>{comparedWords(metric, c)}</li>]))}
        {unpublished.length === 0 ? null : (
          <li class="muted">
            {unpublished.map((a) => (a.level === 'nation' ? areaName({ level: 'nation', name: 'United States' }) : state)).join(' and ')}: not published here
          </li>
        )}
      </ul>
      <p class="figure-meta">
        {metric.asOf}
        {metric.marginOfError === undefined ? '' : ` · ± ${formatShort(id, metric.marginOfError)}`}
        {metric.dollarYear === undefined ? '' : ` · ${metric.dollarYear} dollars`}
        {other === undefined
          ? ''
          : ` · ${shortLabel(other.id).toLowerCase()} ${formatShort(other.id, other.value)} (${metricDefinition(other.id)?.unitWords ?? other.unit})`}
        {perBasis === undefined || basis.sub === undefined ? '' : ` · ${basis.format(perBasis)} ${basis.sub}`}
      </p>
      <ChangeLine metric={metric} />
    </div>
  );
}

export function KeyFigures({ site, profile }: { site: Site; profile: AssembledProfile }) {
  const shown = KEY_FIGURES.filter((f) => site.metrics.some((m) => m.id === f.id));
  return (
    <div class="key-figures">
      {shown.map((f) => (
        <Figure key={f.id} site={site} profile={profile} id={f.id} withId={f.with} />
      ))}
    </div>
  );
}
