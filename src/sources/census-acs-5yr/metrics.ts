// The ACS metrics, one definition each: what the pages, descriptors and CSV say of it, and how it is read from a row of the answers (one published estimate, or a share of two published counts with the derived-proportion margin) or derived from two others.
import type { MetricSpec } from '../source.ts';
import type { Estimate } from './format.ts';

/**
 * How a metric is read from a row: one estimate as published (with its margin), or a share of two published counts, in
 * percent, with the derived-proportion margin; and what it is compared with besides its state's figure (every metric's,
 * from the states' answer): the nation's (`nation`, from the nation's answer) and its own figure of the last 5-year
 * period that shares no year with this one (`earlier`, from that period's answers), where a public copy of those is held.
 */
export type Reading = ({ estimate: Estimate } | { share: readonly [part: Estimate, whole: Estimate]; of: string }) & { nation?: true; earlier?: true };

/** An ACS metric: its definition, and its reading (absent for one derived from two others, `derived`). */
export type AcsMetricSpec<M extends string = string> = MetricSpec<M> & { reading?: Reading };

const acsMetrics = <const M extends string>(metrics: readonly AcsMetricSpec<M>[]): readonly AcsMetricSpec<M>[] => metrics;

/** Every ACS metric, in the order the pages list them. */
export const ACS_METRICS = acsMetrics([
  {
    id: 'medianGrossRent',
    reading: { estimate: 'B25064_001E' },
    noun: 'median gross rent',
    label: 'Median gross rent',
    shortLabel: 'Median rent',
    unit: 'USD/mo',
    decimals: 0,
    range: [99, 10_000],
    dollars: 'period-end',
    required: true,
    definition: 'Median monthly contract rent plus utilities paid by renter households (ACS table B25064).',
    margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it.",
  },
  {
    id: 'medianHouseholdIncome',
    reading: { estimate: 'B19013_001E', nation: true },
    noun: 'median household income',
    label: 'Median household income',
    shortLabel: 'Median income',
    unit: 'USD/yr',
    decimals: 0,
    range: [2_499, 250_001],
    dollars: 'period-end',
    required: true,
    definition:
      'Median household income in the past 12 months, renters and owners alike, in inflation-adjusted dollars of the last survey year (ACS table B19013).',
    margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it.",
  },
  {
    id: 'medianHomeValue',
    reading: { estimate: 'B25077_001E', earlier: true },
    noun: 'median home value',
    label: 'Median home value, owner-occupied',
    shortLabel: 'Home value',
    unit: 'USD',
    decimals: 0,
    range: [9_999, 2_000_001],
    dollars: 'period-end',
    required: true,
    definition: 'Median value of owner-occupied housing units, as the owners estimate what the home would sell for (ACS table B25077).',
    margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it.",
  },
  {
    id: 'medianOwnerCostsWithMortgage',
    reading: { estimate: 'B25088_002E' },
    noun: 'median owner costs with a mortgage',
    label: 'Median monthly owner costs, homes with a mortgage',
    shortLabel: 'Owner costs',
    unit: 'USD/mo',
    decimals: 0,
    range: [99, 10_000],
    dollars: 'period-end',
    required: true,
    definition:
      'Median selected monthly owner costs (mortgage payments, real estate taxes, insurance, utilities, fuels and fees) of owner-occupied units with a mortgage (ACS table B25088, row 2).',
    margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it.",
  },
  {
    id: 'homeownershipRate',
    reading: { share: ['B25003_002E', 'B25002_002E'], of: 'occupied housing units' },
    noun: 'homeownership rate',
    label: 'Homeownership rate, owner-occupied share of occupied homes',
    shortLabel: 'Homeownership',
    unit: '%',
    decimals: 1,
    range: [0, 100],
    required: true,
    definition:
      "Owner-occupied housing units as a share of occupied housing units: ACS table B25003 row 2 over table B25002 row 2 (the occupied units, which are B25003's total), one decimal.",
    margin:
      "Approximated from the published margins of B25003_002 and B25002_002 with the Census Bureau's formula for a derived proportion (ACS General Handbook, chapter 8), in percentage points.",
  },
  {
    id: 'vacancyRate',
    reading: { share: ['B25002_003E', 'B25001_001E'], of: 'housing units' },
    noun: 'vacancy rate',
    label: 'Vacant homes, share of all housing units',
    shortLabel: 'Vacant homes',
    unit: '%',
    decimals: 1,
    range: [0, 100],
    required: true,
    definition:
      "Vacant housing units of every kind (for rent, for sale, seasonal and other vacant) as a share of all housing units: ACS table B25002 row 3 over table B25001 (which equals B25002's total), one decimal. Not the rental vacancy rate, which needs table B25004.",
    margin:
      "Approximated from the published margins of B25002_003 and B25001_001 with the Census Bureau's formula for a derived proportion (ACS General Handbook, chapter 8), in percentage points.",
  },
  {
    id: 'housingUnits',
    reading: { estimate: 'B25001_001E' },
    noun: 'housing units',
    label: 'Housing units, total',
    shortLabel: 'Housing units',
    unit: 'units',
    decimals: 0,
    range: [0, 200_000_000],
    tested: false,
    required: true,
    definition: 'All housing units, occupied and vacant (ACS table B25001).',
    margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it.",
  },
]);

export type AcsMetric = (typeof ACS_METRICS)[number]['id'];
