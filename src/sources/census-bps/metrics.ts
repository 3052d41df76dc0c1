// The Building Permits Survey's metric, one definition: what the pages, descriptors and CSV say of it, and how the adapter reads it (the units of a place's rows added up).
import type { MetricSpec } from '../source.ts';

/** How the metric is read: the units authorized in the rows of the market's place added up (one row, or New York City's five boroughs). */
export type Reading = 'sum';

type BpsMetricSpec<M extends string> = MetricSpec<M> & { reading: Reading };
const bpsMetric = <const M extends string>(metric: BpsMetricSpec<M>): BpsMetricSpec<M> => metric;

/** The new housing units authorized: the one metric the adapter emits. */
const PERMITS_METRIC = bpsMetric({
  id: 'permits',
  reading: 'sum',
  noun: 'building permits',
  label: 'Building permits, new housing units authorized',
  shortLabel: 'Permits',
  unit: 'units',
  decimals: 0,
  range: [0, 1_000_000],
  required: true,
  definition:
    "New privately-owned housing units authorized by building permits in the place over the survey year, all structure sizes, with the Census Bureau's imputation for months a permit office did not report (BPS annual place files; New York City: the sum of its five borough rows).",
  margin: 'None: the survey publishes counts of permits (with its imputation for offices that did not report), without a margin of error.',
});

export const METRICS = [PERMITS_METRIC] as const;
export type BpsMetric = (typeof METRICS)[number]['id'];
export const PERMITS: BpsMetric = PERMITS_METRIC.id;
