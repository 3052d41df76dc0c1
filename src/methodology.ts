// The methodology: the metric set, the score formulas and thresholds, the freshness and coverage rules, and what each version changed.
import type { Coverage, Freshness, Scores, Source, UpdateFrequency } from './contract.ts';

export const METHODOLOGY_VERSION = 'v1.1';

/** What each methodology version changed and why, newest first: the changelog page lists it. */
export const METHODOLOGY_CHANGES: readonly { version: string; changes: readonly string[] }[] = [
  {
    version: 'v1.1',
    changes: [
      "New York City's permits are the sum of its five borough rows in the Building Permits Survey's place files. The survey publishes the city only borough by borough (each row with the city's place code and the borough's county), so under v1.0 New York had no permits value, no supply score and no overall score.",
      'Building permits are read from the four regional annual place files as the Census Bureau publishes them, matched on state and FIPS place codes, including cities in states that report through minor civil divisions (Boston, Chicago).',
    ],
  },
  {
    version: 'v1.0',
    changes: [
      'First methodology: eight required metrics from the ACS 5-year estimates, the FHFA House Price Index and the Building Permits Survey; affordability, supply and overall scores from fixed thresholds; freshness and coverage rules.',
    ],
  },
];

export interface MetricDefinition {
  id: string;
  label: string;
  /** The metric as a sentence names it, lower case: "median gross rent", "building permits". */
  noun: string;
  unit: string;
  /** Decimals the upstream publishes the value with; values are rounded to this at ingestion. */
  decimals: number;
  sourceId: string;
  definition: string;
}

/** Every metric the methodology requires, in the order pages list them. */
export const METRICS: readonly MetricDefinition[] = [
  {
    id: 'medianGrossRent',
    noun: 'median gross rent',
    label: 'Median gross rent',
    unit: 'USD/mo',
    decimals: 0,
    sourceId: 'census-acs-5yr',
    definition: 'Median monthly contract rent plus utilities paid by renter households (ACS table B25064).',
  },
  {
    id: 'medianHouseholdIncome',
    noun: 'median household income',
    label: 'Median household income',
    unit: 'USD/yr',
    decimals: 0,
    sourceId: 'census-acs-5yr',
    definition: 'Median household income in the past 12 months, in inflation-adjusted dollars of the last survey year (ACS table B19013).',
  },
  {
    id: 'rentBurden',
    noun: 'rent burden',
    label: 'Rent-burdened renter households, 30% or more of income',
    unit: '%',
    decimals: 1,
    sourceId: 'census-acs-5yr',
    definition:
      'Share of renter households for which gross rent is 30% or more of household income, among those for which it is computed (ACS table B25070: rows 7 to 10 over row 1 less row 11).',
  },
  {
    id: 'rentalVacancyRate',
    noun: 'rental vacancy rate',
    label: 'Rental vacancy rate',
    unit: '%',
    decimals: 1,
    sourceId: 'census-acs-5yr',
    definition: 'Vacant units for rent as a share of the rental inventory (ACS data profile DP04, item 5).',
  },
  {
    id: 'housingUnits',
    noun: 'housing units',
    label: 'Housing units, total',
    unit: 'units',
    decimals: 0,
    sourceId: 'census-acs-5yr',
    definition: 'All housing units, occupied and vacant (ACS table B25001).',
  },
  {
    id: 'homePriceIndex',
    noun: 'the house price index',
    label: 'House Price Index, all transactions ("1995 Q1 = 100")',
    unit: 'index',
    decimals: 2,
    sourceId: 'fhfa-hpi',
    definition: 'FHFA all-transactions house price index for the metro area, latest quarter, not seasonally adjusted, 1995 Q1 = 100.',
  },
  {
    id: 'homePriceChange',
    noun: 'the year-over-year house price change',
    label: 'House price change, year over year',
    unit: '%',
    decimals: 1,
    sourceId: 'fhfa-hpi',
    definition: 'Change of the metro house price index from the same quarter a year earlier.',
  },
  {
    id: 'permits',
    noun: 'building permits',
    label: 'Building permits, new housing units authorized',
    unit: 'units',
    decimals: 0,
    sourceId: 'census-bps',
    definition:
      "New privately-owned housing units authorized by building permits in the place over the survey year, all structure sizes, with the Census Bureau's imputation for months a permit office did not report (BPS annual place files; New York City: the sum of its five borough rows).",
  },
];

export const METRIC_IDS: readonly string[] = METRICS.map((m) => m.id);

const metricById = new Map(METRICS.map((m) => [m.id, m]));
export function metricDefinition(id: string): MetricDefinition | undefined {
  return metricById.get(id);
}

/** A linear score between two fixed thresholds: `zeroAt` scores 0, `fullAt` scores 100, clamped outside. */
export interface Threshold {
  zeroAt: number;
  fullAt: number;
}

export function scale(value: number, t: Threshold): number {
  const fraction = (value - t.zeroAt) / (t.fullAt - t.zeroAt);
  return Math.min(100, Math.max(0, fraction * 100));
}

export const THRESHOLDS = {
  /** Annual rent as a share of median household income, %. */
  rentToIncome: { zeroAt: 40, fullAt: 20 },
  /** Share of renter households paying 30% or more of income on rent, %. */
  rentBurden: { zeroAt: 65, fullAt: 35 },
  /** Units authorized in the year per 1,000 existing housing units. */
  permitsPerThousand: { zeroAt: 2, fullAt: 20 },
  /** Rental vacancy rate, %. */
  rentalVacancyRate: { zeroAt: 2, fullAt: 8 },
} as const satisfies Record<string, Threshold>;

export const WEIGHTS = {
  affordability: { rentToIncome: 0.6, rentBurden: 0.4 },
  supply: { permitsPerThousand: 0.7, rentalVacancyRate: 0.3 },
  overall: { affordability: 0.5, supply: 0.5 },
} as const;

export type Values = Readonly<Record<string, number | undefined>>;

/** Half-up rounding to an integer score. */
const toScore = (x: number): number => Math.round(Number(x.toFixed(9)));

export interface ScoreInputs {
  rentToIncome?: number;
  permitsPerThousand?: number;
}

/** The derived ratios the scores read, shown on the methodology page's worked example. */
export function scoreInputs(v: Values): ScoreInputs {
  const out: ScoreInputs = {};
  const rent = v['medianGrossRent'];
  const income = v['medianHouseholdIncome'];
  if (rent !== undefined && income !== undefined && income > 0) out.rentToIncome = ((rent * 12) / income) * 100;
  const permits = v['permits'];
  const units = v['housingUnits'];
  if (permits !== undefined && units !== undefined && units > 0) out.permitsPerThousand = (permits / units) * 1000;
  return out;
}

/** Integer scores 0-100; a score whose inputs are missing is omitted, never 0. */
export function computeScores(v: Values): Scores {
  const inputs = scoreInputs(v);
  const scores: Scores = {};
  const burden = v['rentBurden'];
  if (inputs.rentToIncome !== undefined && burden !== undefined) {
    const w = WEIGHTS.affordability;
    scores.affordability = toScore(w.rentToIncome * scale(inputs.rentToIncome, THRESHOLDS.rentToIncome) + w.rentBurden * scale(burden, THRESHOLDS.rentBurden));
  }
  const vacancy = v['rentalVacancyRate'];
  if (inputs.permitsPerThousand !== undefined && vacancy !== undefined) {
    const w = WEIGHTS.supply;
    scores.supply = toScore(
      w.permitsPerThousand * scale(inputs.permitsPerThousand, THRESHOLDS.permitsPerThousand) +
        w.rentalVacancyRate * scale(vacancy, THRESHOLDS.rentalVacancyRate),
    );
  }
  if (scores.affordability !== undefined && scores.supply !== undefined) {
    const w = WEIGHTS.overall;
    scores.overall = toScore(w.affordability * scores.affordability + w.supply * scores.supply);
  }
  return scores;
}

/** Days a source may go without a new release and still be current. */
export const EXPECTED_INTERVAL_DAYS: Record<UpdateFrequency, number> = { monthly: 31, quarterly: 92, annually: 366 };

const DAY_MS = 86_400_000;
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/**
 * fresh: the latest release is at most one expected interval older than the snapshot;
 * aging: at most two intervals; stale: older, or no release date known.
 */
export function sourceFreshness(source: Source, snapshotDate: string): Freshness {
  if (source.latestReleaseDate === undefined) return 'stale';
  const age = daysBetween(source.latestReleaseDate, snapshotDate);
  const interval = EXPECTED_INTERVAL_DAYS[source.updateFrequency];
  if (age <= interval) return 'fresh';
  if (age <= 2 * interval) return 'aging';
  return 'stale';
}

const RANK: Record<Freshness, number> = { fresh: 0, aging: 1, stale: 2 };

/** A profile is as fresh as its least fresh source. */
export function worstFreshness(values: readonly Freshness[]): Freshness {
  return values.reduce<Freshness>((worst, f) => (RANK[f] > RANK[worst] ? f : worst), 'fresh');
}

export function computeCoverage(provided: ReadonlySet<string>): Coverage {
  const missing = METRIC_IDS.filter((id) => !provided.has(id));
  const totalRequired = METRIC_IDS.length;
  const totalProvided = totalRequired - missing.length;
  return { totalRequired, totalProvided, percent: Math.round((totalProvided / totalRequired) * 1000) / 10, missing };
}
