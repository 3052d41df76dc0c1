// The FHFA metrics, one definition each: what the pages, descriptors and CSV say of it, and how the adapter reads it (the index as published, or its change over a year).
import { recordOf } from '../../contract/records.ts';
import type { MetricSpec } from '../source.ts';

/** How a metric is read: the index as FHFA publishes it (`estimate`), or its change from the same quarter a year earlier (`change`); each beside the states' and the nation's of the master file. */
export type Reading = 'estimate' | 'change';

type FhfaMetricSpec<M extends string> = MetricSpec<M> & { reading: Reading };
const fhfaMetrics = <const M extends string>(metrics: readonly FhfaMetricSpec<M>[]): readonly FhfaMetricSpec<M>[] => metrics;

/** Every FHFA metric, in the order the pages list them. */
export const METRICS = fhfaMetrics([
  {
    id: 'homePriceIndex',
    reading: 'estimate',
    noun: 'the house price index',
    label: 'House price index, all transactions, 1995 Q1 = 100',
    shortLabel: 'Price index',
    unit: 'index',
    unitWords: '1995 Q1 = 100',
    decimals: 2,
    range: [1, 10_000],
    required: true,
    definition:
      'FHFA all-transactions house price index of the metro area, or of the metropolitan division holding the city where FHFA divides the metro: latest quarter, not seasonally adjusted, 1995 Q1 = 100.',
    margin: 'None: FHFA publishes a standard error of each index value, not a margin of error, and it is not served.',
  },
  {
    id: 'homePriceChange',
    reading: 'change',
    noun: 'the year-over-year house price change',
    label: 'House price change, year over year',
    shortLabel: 'Price change',
    unit: '%',
    unitWords: '% on a year earlier',
    decimals: 1,
    range: [-50, 100],
    required: true,
    definition: 'Change of the house price index from the same quarter a year earlier.',
    margin: 'None: the change between two published index values, for which FHFA publishes no margin.',
  },
]);

export type FhfaMetric = (typeof METRICS)[number]['id'];

/** The metric of each reading: the adapter emits the index and its change under these ids. */
export const METRIC_OF: Readonly<Record<Reading, FhfaMetric>> = recordOf(METRICS.map((m) => [m.reading, m.id]));
