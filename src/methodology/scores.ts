// The scores, each one definition: the derived inputs, the thresholds with what they rest on, the weights, the words; and the one function that computes them term by term.
import { inMetricOrder, metricDefinition, type MetricId, type Values } from './metrics.ts';
import { InvariantError } from '../contract/errors.ts';
import { ratioValue } from '../sources/derive.ts';
import type { Ratio } from '../sources/source.ts';
import { entriesOf, keysOf, recordOf } from '../contract/records.ts';
import type { Qualifier, ScoreBound } from '../contract/schemas.ts';

/** A ratio of two metrics that a score reads: before × numerator ÷ denominator × after. */
export interface DerivedInput extends Ratio<MetricId> {
  /** What the input measures, as the thresholds table names it. */
  label: string;
  /** What the ratio means, said after its formula on the methodology page; absent where the formula says it. */
  meaning?: string;
}

/**
 * A derived input as DERIVED_INPUTS states it: its ratio, or the metric that publishes the same ratio (a metric with
 * `derived`), whose definition is then the one ratio both are computed from.
 */
type InputDefinition = DerivedInput | (Omit<DerivedInput, keyof Ratio> & { metric: MetricId });

export const DERIVED_INPUTS = {
  rentToIncome: {
    numerator: 'medianGrossRent',
    denominator: 'medianHouseholdIncome',
    before: 12,
    after: 100,
    label: 'Rent-to-income ratio: twelve months of median gross rent as a share of median household income, %',
    meaning: 'a year of the median rent as a percentage of what the median household earns',
  },
  ownerCostsToIncome: {
    numerator: 'medianOwnerCostsWithMortgage',
    denominator: 'medianHouseholdIncome',
    before: 12,
    after: 100,
    label: 'Owner-costs-to-income ratio: twelve months of median owner costs with a mortgage as a share of median household income, %',
    meaning: 'a year of what the median owner with a mortgage pays, as a percentage of what the median household earns',
  },
  priceToIncome: {
    numerator: 'medianHomeValue',
    denominator: 'medianHouseholdIncome',
    label: 'Price-to-income ratio (median multiple): median home value over median household income',
    meaning: 'the "median multiple": how many years of income the median home costs',
  },
  permitsPerThousand: {
    numerator: 'permits',
    denominator: 'housingUnits',
    after: 1000,
    label: 'New housing units authorized in the year per 1,000 existing housing units',
  },
} as const satisfies Record<string, InputDefinition>;

export type DerivedKey = keyof typeof DERIVED_INPUTS;

/** An input's ratio: its own, or that of the metric it names. */
export function inputRatio(input: InputDefinition): DerivedInput {
  if (!('metric' in input)) return input;
  const { metric, ...words } = input;
  const ratio = metricDefinition(metric)?.derived;
  if (ratio === undefined) throw new InvariantError(`a derived input names ${metric}, which is not a metric derived from two others`);
  return { ...words, ...ratio };
}

export const derivedInput = (key: DerivedKey): DerivedInput => inputRatio(DERIVED_INPUTS[key]);
export const DERIVED_KEYS: DerivedKey[] = keysOf(DERIVED_INPUTS);

/** A linear score between two fixed thresholds: `zeroAt` scores 0, `fullAt` scores 100, clamped outside. */
export interface Threshold {
  zeroAt: number;
  fullAt: number;
}

interface ThresholdDefinition extends Threshold {
  /** What the input stands for as a term of a score's meaning: "rent relative to renter household income". */
  phrase: string;
  /** What the numbers rest on: the published convention or the national benchmark behind them. */
  basis: string;
}

/** Each input a score reads, by its key: a derived input's, or a metric's of the same id. */
const THRESHOLD_DEFINITIONS = {
  rentToIncome: {
    zeroAt: 30,
    fullAt: 15,
    phrase: 'rent relative to household income',
    basis:
      "HUD's 30 % line, read the way HUD's income limits read it, as shares of the area's median income: the median rent is affordable (30 % of income or less) to a household earning half the median income when it takes 15 % of the median income (100), to a low-income household at 80 % of the median when it takes 24 % (40), and only to households at the median or above when it takes 30 % (0). Renters typically earn less than the median household, so a ratio near 30 % leaves most of them cost-burdened.",
  },
  ownerCostsToIncome: {
    zeroAt: 45,
    fullAt: 15,
    phrase: 'owner costs with a mortgage relative to household income',
    basis:
      'The 30 % cost-burden line applied to owners: a household at the median income paying the median costs of an owner with a mortgage (which include the principal, unlike rent) at 30 % of its income is at the line and scores 50; at 15 % it scores 100 and at 45 %, deep in burden, 0.',
  },
  priceToIncome: {
    zeroAt: 7,
    fullAt: 3,
    phrase: 'home value relative to household income',
    basis:
      'The median multiple as Demographia rates it: 3.0 and under is affordable (100), 5.1 and over severely unaffordable, so 5.0 scores 50. At 5.0 the payment on a 30-year loan at 6 % for 90 % of the price takes about 32 % of median income, the 30 % line; at 7.0 it takes about 45 % (0).',
  },
  permitsPerThousand: {
    zeroAt: 2,
    fullAt: 20,
    phrase: 'new units authorized per 1,000 existing units',
    basis:
      'The pace of new housing: the United States authorizes roughly 10 new units a year per 1,000 existing homes (about 1.4 to 1.9 million a year on some 145 million homes), so 10 scores 44. 2 per 1,000 barely replaces what is lost (0); 20, twice the national pace, is rapid growth (100).',
  },
  vacancyRate: {
    zeroAt: 5,
    fullAt: 15,
    phrase: 'the share of homes standing vacant',
    basis:
      'Vacant homes of every kind, seasonal ones included, as the decennial census counts them: about one in ten nationally (9.0 % in 2000, 11.4 % in 2010, 9.7 % in 2020), so 10 % scores 50. At 5 %, half the national share, a market has almost no room to move (0); at 15 % it has plenty (100). A share this broad is a coarse signal, which is why it weighs less than permits.',
  },
} as const satisfies Partial<Record<DerivedKey | MetricId, ThresholdDefinition>>;

export type ThresholdKey = keyof typeof THRESHOLD_DEFINITIONS;
export const THRESHOLD_KEYS: ThresholdKey[] = keysOf(THRESHOLD_DEFINITIONS);
export const thresholdDefinition = (key: ThresholdKey): ThresholdDefinition => THRESHOLD_DEFINITIONS[key];

/** The thresholds alone, by input. */
export const THRESHOLDS: Record<ThresholdKey, Threshold> = recordOf(
  THRESHOLD_KEYS.map((k) => [k, { zeroAt: THRESHOLD_DEFINITIONS[k].zeroAt, fullAt: THRESHOLD_DEFINITIONS[k].fullAt }]),
);
/** What each threshold rests on, by input; the methodology page shows it. */
export const THRESHOLD_BASIS: Record<ThresholdKey, string> = recordOf(THRESHOLD_KEYS.map((k) => [k, THRESHOLD_DEFINITIONS[k].basis]));

export const isThreshold = (key: string): key is ThresholdKey => key in THRESHOLD_DEFINITIONS;
export const isDerived = (key: string): key is DerivedKey => key in DERIVED_INPUTS;

/**
 * Every score, each after the scores it combines (the order they are computed and listed in). A score is a weighted sum
 * of thresholded inputs, or of other scores (the composites); weights sum to 1.
 */
const SCORE_DEFINITIONS = [
  {
    key: 'renterAffordability',
    label: 'Renter affordability',
    phrase: 'renter affordability',
    lead: 'Higher means easier for renters',
    color: '#0072b2',
    weights: { rentToIncome: 1 },
  },
  {
    key: 'ownerAffordability',
    label: 'Owner affordability',
    phrase: 'owner affordability',
    lead: 'Higher means easier for owners and buyers',
    color: '#c25400',
    weights: { priceToIncome: 0.7, ownerCostsToIncome: 0.3 },
  },
  {
    key: 'affordability',
    label: 'Affordability (renters and owners)',
    phrase: 'affordability',
    lead: 'What renters and owners both pay',
    color: '#cc79a7',
    weights: { renterAffordability: 0.5, ownerAffordability: 0.5 },
  },
  {
    key: 'supply',
    label: 'Supply',
    phrase: 'supply',
    lead: 'Higher means more room in the housing stock',
    color: '#009e73',
    weights: { permitsPerThousand: 0.7, vacancyRate: 0.3 },
  },
  {
    key: 'overall',
    label: 'Overall',
    phrase: 'overall',
    lead: 'Combines the two headline scores',
    color: '#1b1f24',
    weights: { affordability: 0.5, supply: 0.5 },
  },
] as const;

export type ScoreKey = (typeof SCORE_DEFINITIONS)[number]['key'];

export interface ScoreDefinition {
  key: ScoreKey;
  label: string;
  /** The score as a term of another's meaning: "renter affordability". */
  phrase: string;
  /** How its meaning begins: what a high value means, before the weights. */
  lead: string;
  /**
   * Fill colour of its bars: Okabe and Ito's colour-blind-safe set (blue, vermillion darkened to 4.6:1, reddish purple,
   * bluish green) and the page's ink, each 3:1 or more against white and told apart under the common colour-vision
   * deficiencies (test/unit/pages-charts.test.ts); charts also label every bar.
   */
  color: string;
  /** Each term (a thresholded input or a score computed before it) with its weight, in order. */
  weights: Readonly<Partial<Record<ThresholdKey | ScoreKey, number>>>;
}

export const SCORES: readonly ScoreDefinition[] = SCORE_DEFINITIONS;
export const SCORE_KEYS: readonly ScoreKey[] = SCORES.map((s) => s.key);
const scoreByKey: Record<ScoreKey, ScoreDefinition> = recordOf(SCORES.map((s) => [s.key, s]));
export const scoreDefinition = (key: ScoreKey): ScoreDefinition => scoreByKey[key];
export const isScoreKey = (key: string): key is ScoreKey => Object.hasOwn(scoreByKey, key);

/** The weights of every score's terms, by score. */
export const WEIGHTS: Record<ScoreKey, ScoreDefinition['weights']> = recordOf(SCORES.map((s) => [s.key, s.weights]));

/** A profile's scores, integers 0-100, each omitted when an input is missing. */
export type ScoreValues = Partial<Record<ScoreKey, number>>;

export function scale(value: number, t: Threshold): number {
  const fraction = (value - t.zeroAt) / (t.fullAt - t.zeroAt);
  return Math.min(100, Math.max(0, fraction * 100));
}

/** Half-up rounding to an integer score. */
const toScore = (x: number): number => Math.round(Number(x.toFixed(9)));

export type ScoreInputs = Partial<Record<DerivedKey, number>>;

/**
 * The derived inputs the scores read, shown on the methodology page's worked example: each ratio only when both its
 * metrics are finite and the denominator positive, by the one function a derived metric is computed with (derive.ts).
 */
export function scoreInputs(v: Values): ScoreInputs {
  const out: ScoreInputs = {};
  for (const key of DERIVED_KEYS) {
    const d = derivedInput(key);
    const r = ratioValue(d, v[d.numerator], v[d.denominator]);
    if (r !== undefined) out[key] = r;
  }
  return out;
}

/** The metrics an input reads: the derived ratio's two, or the metric of the same id. */
export const metricsOfInput = (key: ThresholdKey): MetricId[] => {
  if (!isDerived(key)) return [key];
  const d = derivedInput(key);
  return [d.numerator, d.denominator];
};

/** One term of a score: a thresholded input (an input scaled to 0-100) or a score computed before it (already 0-100). */
export type WorkedTerm = ({ kind: 'threshold'; key: ThresholdKey } | { kind: 'score'; key: ScoreKey }) & {
  weight: number;
  input: number;
  /** The input on the 0-100 scale (a score term is already on it). */
  scaled: number;
};

export interface WorkedScore {
  key: ScoreKey;
  terms: WorkedTerm[];
  sum: number;
  score: number;
}

/**
 * Every score term by term, in the order of SCORE_KEYS: a thresholded input (a derived ratio or a metric) or an
 * already computed score. A score with any term missing or not finite is left out, never 0, never NaN.
 */
export function workScores(v: Values): WorkedScore[] {
  const inputs = scoreInputs(v);
  const done = new Map<string, number>();
  const out: WorkedScore[] = [];
  for (const score of SCORES) {
    const terms: WorkedTerm[] = [];
    const entries = entriesOf(score.weights);
    for (const [key, weight = 0] of entries) {
      if (isThreshold(key)) {
        const value = isDerived(key) ? inputs[key] : v[key];
        if (value === undefined || !Number.isFinite(value)) break;
        terms.push({ kind: 'threshold', key, weight, input: value, scaled: scale(value, THRESHOLDS[key]) });
      } else {
        const value = done.get(key);
        if (value === undefined) break;
        terms.push({ kind: 'score', key, weight, input: value, scaled: value });
      }
    }
    if (terms.length !== entries.length) continue;
    const sum = terms.reduce((acc, t) => acc + t.weight * t.scaled, 0);
    const result = toScore(sum);
    done.set(score.key, result);
    out.push({ key: score.key, terms, sum, score: result });
  }
  return out;
}

/** Integer scores 0-100, each the weighted sum of its terms; a score with a term missing is omitted. */
export function computeScores(v: Values): ScoreValues {
  const scores: ScoreValues = {};
  for (const w of workScores(v)) scores[w.key] = w.score;
  return scores;
}

/** Which metrics each score needs, in the methodology's order of metrics: its inputs', and those of the scores it combines. */
export function scoreDependencies(): Record<ScoreKey, MetricId[]> {
  const deps = new Map<ScoreKey, MetricId[]>();
  for (const score of SCORES) {
    const needs = keysOf(score.weights).flatMap((key) => (isThreshold(key) ? metricsOfInput(key) : (deps.get(key) ?? [])));
    deps.set(score.key, inMetricOrder([...new Set(needs)]));
  }
  return recordOf(deps);
}

/**
 * The scores of a market some of whose inputs are open-ended ("4,000+": the true figure is the edge or beyond): each
 * score computed with every such input at its edge, which is one end of the range the true inputs allow, and the
 * range itself, from the scores with each input at its edge or at the far end of its interval (every score is monotone
 * in each input and clamped, so the ends of the range are among these). A score the open inputs cannot move is exact.
 */
export function boundedScores(v: Values, open: ReadonlyMap<MetricId, Qualifier>): { scores: ScoreValues; bounds: Partial<Record<ScoreKey, ScoreBound>> } {
  const atEdges: Partial<Record<MetricId, number>> = { ...v };
  for (const [id, q] of open) atEdges[id] = q.edge;
  const scores = computeScores(atEdges);
  const bounds: Partial<Record<ScoreKey, ScoreBound>> = {};
  if (open.size === 0) return { scores, bounds };
  // The far end of each interval: no figure is above it ("4,000+" read as unbounded) or below it ("100-" read as zero).
  const far = (q: Qualifier): number => (q.bound === 'lower' ? Number.MAX_SAFE_INTEGER : 0);
  const ids = [...open.keys()];
  const seen = new Map<ScoreKey, number[]>();
  for (let mask = 0; mask < 1 << ids.length; mask += 1) {
    const values: Partial<Record<MetricId, number>> = { ...atEdges };
    ids.forEach((id, k) => {
      const q = open.get(id);
      if (q !== undefined && (mask >> k) % 2 === 1) values[id] = far(q);
    });
    const computed = computeScores(values);
    for (const key of SCORE_KEYS) {
      const score = computed[key];
      if (score !== undefined) seen.set(key, [...(seen.get(key) ?? []), score]);
    }
  }
  const needs = scoreDependencies();
  for (const key of SCORE_KEYS) {
    const served = scores[key];
    const all = seen.get(key) ?? [];
    if (served === undefined || all.length === 0) continue;
    const low = Math.min(...all, served);
    const high = Math.max(...all, served);
    if (low === high) continue;
    bounds[key] = {
      ...(served === high ? { bound: 'upper' as const } : served === low ? { bound: 'lower' as const } : {}),
      low,
      high,
      metrics: ids.filter((id) => needs[key].includes(id)),
    };
  }
  return { scores, bounds };
}
