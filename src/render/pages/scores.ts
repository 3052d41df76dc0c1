// Names, meanings and inputs of the scores, read from the methodology so the pages cannot drift from it.
import type { Scores } from '../../contract.ts';
import { METRICS, THRESHOLDS, WEIGHTS, computeScores, metricDefinition } from '../../methodology.ts';
import { formatPercent } from './format.ts';

export type ScoreKey = keyof typeof WEIGHTS;

/** The scores in the order the methodology weighs them: the parts first, then overall. */
export const SCORE_KEYS = Object.keys(WEIGHTS) as ScoreKey[];

export const scoreLabel = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);

export const scoreOf = (scores: Scores | Record<string, number | undefined>, key: ScoreKey): number | undefined =>
  (scores as Record<string, number | undefined>)[key];

const weight = (w: number): string => formatPercent(w * 100);
const label = (metricId: string): string => metricDefinition(metricId)?.label ?? metricId;

export type ThresholdKey = keyof typeof THRESHOLDS;

/** What each thresholded input measures; the numbers stay in THRESHOLDS. */
export const THRESHOLD_LABELS: Record<ThresholdKey, string> = {
  rentToIncome: 'Rent-to-income ratio: twelve months of median gross rent as a share of median household income, %',
  rentBurden: `${label('rentBurden')}, %`,
  permitsPerThousand: 'New housing units authorized in the year per 1,000 existing housing units',
  rentalVacancyRate: `${label('rentalVacancyRate')}, %`,
};

/** One sentence per score: what a high value means and how it is weighted. */
export function scoreMeaning(key: ScoreKey): string {
  switch (key) {
    case 'affordability': {
      const w = WEIGHTS.affordability;
      return `Higher means easier for renters: ${weight(w.rentToIncome)} from rent relative to household income, ${weight(w.rentBurden)} from the share of rent-burdened renter households.`;
    }
    case 'supply': {
      const w = WEIGHTS.supply;
      return `Higher means more room in the housing stock: ${weight(w.permitsPerThousand)} from new units authorized per 1,000 existing units, ${weight(w.rentalVacancyRate)} from the rental vacancy rate.`;
    }
    case 'overall': {
      const w = WEIGHTS.overall;
      return `Combines the two: ${weight(w.affordability)} affordability, ${weight(w.supply)} supply.`;
    }
  }
}

/**
 * Which metrics each score needs, found by asking computeScores itself: with every metric present
 * it returns every score, and a score that disappears when one metric is removed depends on it.
 */
export function scoreDependencies(): Record<ScoreKey, string[]> {
  const all = Object.fromEntries(METRICS.map((m) => [m.id, 1]));
  const deps = Object.fromEntries(SCORE_KEYS.map((k) => [k, [] as string[]])) as Record<ScoreKey, string[]>;
  for (const m of METRICS) {
    const without = computeScores({ ...all, [m.id]: undefined });
    for (const key of SCORE_KEYS) if (scoreOf(without, key) === undefined) deps[key].push(m.id);
  }
  return deps;
}

/** Fill colours of the score charts; each passes 3:1 against white, and charts also label every bar. */
export const SCORE_COLORS: Record<ScoreKey, string> = {
  affordability: '#1d6a8a',
  supply: '#a8541a',
  overall: '#3f3d8f',
};
