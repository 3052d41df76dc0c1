// The methodology: the metric set, the score formulas and thresholds, the freshness and coverage rules, and what each version changed.
import type { Coverage, Freshness, Scores, Source, UpdateFrequency } from '../contract/schemas.ts';

export const METHODOLOGY_VERSION = 'v2.0';

/** What each methodology version changed and why, newest first: the changelog page lists it. */
export const METHODOLOGY_CHANGES: readonly { version: string; changes: readonly string[] }[] = [
  {
    version: 'v2.0',
    changes: [
      'Affordability now weighs what owners pay as well as renters: it is the mean of two published parts, renterAffordability and ownerAffordability (new score keys, integers 0-100, omitted when their inputs are missing). Under v1.0 and v1.1 it read rents only, so high-income, high-price cities such as San Francisco and Seattle scored among the most affordable.',
      'Three new required metrics from the ACS 5-year estimates: median home value (B25077), median renter household income (B25119) and the share of homeowners with a mortgage paying 30 % or more of income on owner costs (B25091). The required set grows from 8 to 11 metrics, so coverage is counted out of 11.',
      "The renter part reads rent against renter households' median income (B25119), not all households' (B19013): renters earn less than owners, most of all in high-income cities, so the v1 ratio understated what renters pay.",
      'The owner part reads the median multiple (median home value over median household income, 3.0 affordable, 5.0 the line, 7.0 and above scoring 0) and the owner cost burden (30 % line).',
      'Price momentum (the house price index and its year-over-year change) stays out of every score: the index is a trend relative to 1995, not a price level, and one year of a metro index says where prices went, not what households pay. It is shown beside the scores as context.',
      'Every threshold is a fixed number that says what it rests on (the methodology page lists each); none is a rank among the markets.',
    ],
  },
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
    id: 'medianRenterIncome',
    noun: 'median renter household income',
    label: 'Median renter household income',
    unit: 'USD/yr',
    decimals: 0,
    sourceId: 'census-acs-5yr',
    definition:
      'Median income in the past 12 months of renter households, in inflation-adjusted dollars of the last survey year (ACS table B25119, renter-occupied housing units).',
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
    id: 'medianHomeValue',
    noun: 'median home value',
    label: 'Median home value, owner-occupied',
    unit: 'USD',
    decimals: 0,
    sourceId: 'census-acs-5yr',
    definition: 'Median value of owner-occupied housing units, as the owners estimate what the home would sell for (ACS table B25077).',
  },
  {
    id: 'ownerCostBurden',
    noun: 'owner cost burden',
    label: 'Cost-burdened homeowners with a mortgage, 30% or more of income',
    unit: '%',
    decimals: 1,
    sourceId: 'census-acs-5yr',
    definition:
      'Share of owner households with a mortgage whose selected monthly owner costs (mortgage, taxes, insurance, utilities, fees) are 30% or more of household income, among those for which it is computed (ACS table B25091: rows 8 to 11 over row 2 less row 12).',
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
    label: 'House price index, all transactions, 1995 Q1 = 100',
    unit: 'index',
    decimals: 2,
    sourceId: 'fhfa-hpi',
    definition:
      'FHFA all-transactions house price index of the metro area, or of the metropolitan division holding the city where FHFA divides the metro: latest quarter, not seasonally adjusted, 1995 Q1 = 100.',
  },
  {
    id: 'homePriceChange',
    noun: 'the year-over-year house price change',
    label: 'House price change, year over year',
    unit: '%',
    decimals: 1,
    sourceId: 'fhfa-hpi',
    definition: 'Change of the house price index from the same quarter a year earlier.',
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
  /** Twelve months of median gross rent as a share of median renter household income, %. */
  rentToIncome: { zeroAt: 40, fullAt: 20 },
  /** Share of renter households paying 30% or more of income on rent, %. */
  rentBurden: { zeroAt: 65, fullAt: 35 },
  /** Median home value over median household income (the "median multiple"). */
  priceToIncome: { zeroAt: 7, fullAt: 3 },
  /** Share of owners with a mortgage paying 30% or more of income on owner costs, %. */
  ownerCostBurden: { zeroAt: 45, fullAt: 15 },
  /** Units authorized in the year per 1,000 existing housing units. */
  permitsPerThousand: { zeroAt: 2, fullAt: 20 },
  /** Rental vacancy rate, %. */
  rentalVacancyRate: { zeroAt: 2, fullAt: 8 },
} as const satisfies Record<string, Threshold>;

export type ThresholdKey = keyof typeof THRESHOLDS;

/** What each threshold rests on: the published convention or the national benchmark behind its numbers. The methodology page shows it. */
export const THRESHOLD_BASIS: Record<ThresholdKey, string> = {
  rentToIncome:
    'The 30 % cost-burden line (HUD, and the Census Bureau in table B25070): a median renter household paying 30 % of its income in rent scores 50, half way. At 20 % rent takes a modest share (100); at 40 % it is deep in burden (0).',
  rentBurden:
    "The share of renter households above the 30 % line. Nationally about half of renter households are cost-burdened (Harvard Joint Center for Housing Studies, The State of the Nation's Housing), so 50 % scores 50; 35 % scores 100 and 65 % scores 0.",
  priceToIncome:
    'The median multiple as Demographia rates it: 3.0 and under is affordable (100), 5.1 and over severely unaffordable, so 5.0 scores 50. At 5.0 the payment on a 30-year loan at 6 % for 90 % of the price takes about 32 % of median income, the 30 % line; at 7.0 it takes about 45 % (0).',
  ownerCostBurden:
    'The 30 % line applied to owners with a mortgage (ACS B25091). Nationally about three in ten mortgaged owners are above it, so 30 % scores 50; 15 % scores 100 and 45 % scores 0.',
  permitsPerThousand:
    'The pace of new housing: the United States authorizes roughly 10 new units a year per 1,000 existing homes (about 1.4 to 1.9 million a year on some 145 million homes), so 10 scores 44. 2 per 1,000 barely replaces what is lost (0); 20, twice the national pace, is rapid growth (100).',
  rentalVacancyRate:
    'The national rental vacancy rate has run between about 6 % and 8 % over the past two decades (Census Bureau, Housing Vacancies and Homeownership); below 5 % a rental market is tight. 2 % is very tight (0); 8 %, the upper end of the national range, is loose (100).',
};

/** A score is a weighted sum of thresholded inputs, or of other scores (the composites); weights sum to 1. */
export const WEIGHTS = {
  renterAffordability: { rentToIncome: 0.6, rentBurden: 0.4 },
  ownerAffordability: { priceToIncome: 0.6, ownerCostBurden: 0.4 },
  affordability: { renterAffordability: 0.5, ownerAffordability: 0.5 },
  supply: { permitsPerThousand: 0.7, rentalVacancyRate: 0.3 },
  overall: { affordability: 0.5, supply: 0.5 },
} as const;

export type ScoreKey = keyof typeof WEIGHTS;
/** Every score, each after the scores it combines: the order they are computed and listed in. */
export const SCORE_KEYS = Object.keys(WEIGHTS) as ScoreKey[];

export type Values = Readonly<Record<string, number | undefined>>;

/** Half-up rounding to an integer score. */
const toScore = (x: number): number => Math.round(Number(x.toFixed(9)));

export interface ScoreInputs {
  rentToIncome?: number;
  priceToIncome?: number;
  permitsPerThousand?: number;
}

/** A ratio of two metrics, only when both are finite and the denominator positive. */
function ratio(numerator: number | undefined, denominator: number | undefined): number | undefined {
  if (numerator === undefined || denominator === undefined || !Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator <= 0)
    return undefined;
  return numerator / denominator;
}

/** The derived ratios the scores read, shown on the methodology page's worked example. */
export function scoreInputs(v: Values): ScoreInputs {
  const out: ScoreInputs = {};
  const rent = ratio(v['medianGrossRent'], v['medianRenterIncome']);
  if (rent !== undefined) out.rentToIncome = rent * 12 * 100;
  const price = ratio(v['medianHomeValue'], v['medianHouseholdIncome']);
  if (price !== undefined) out.priceToIncome = price;
  const permits = ratio(v['permits'], v['housingUnits']);
  if (permits !== undefined) out.permitsPerThousand = permits * 1000;
  return out;
}

const isThreshold = (key: string): key is ThresholdKey => key in THRESHOLDS;

/**
 * Integer scores 0-100. Each is the weighted sum of its terms: a thresholded input (a derived ratio or a metric), or
 * an already computed score. A score with any term missing or not finite is omitted, never 0, never NaN.
 */
export function computeScores(v: Values): Scores {
  const inputs = scoreInputs(v) as Record<string, number | undefined>;
  const scores: Record<string, number> = {};
  for (const key of SCORE_KEYS) {
    let sum = 0;
    let complete = true;
    for (const [term, weight] of Object.entries(WEIGHTS[key] as Record<string, number>)) {
      const value = isThreshold(term) ? (inputs[term] ?? v[term]) : scores[term];
      if (value === undefined || !Number.isFinite(value)) {
        complete = false;
        break;
      }
      sum += weight * (isThreshold(term) ? scale(value, THRESHOLDS[term]) : value);
    }
    if (complete) scores[key] = toScore(sum);
  }
  return scores as Scores;
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
