// Names, meanings and inputs of the scores, read from the methodology so the pages cannot drift from it.
import type { Scores } from '../../contract/schemas.ts';
import { METRICS, SCORE_KEYS, WEIGHTS, computeScores, metricDefinition, type ScoreKey, type ThresholdKey } from '../../methodology/methodology.ts';
import { formatPercent } from './format.ts';

export type { ScoreKey, ThresholdKey };

/** The scores in the order the methodology computes them: the parts first, then the scores that combine them. */
export { SCORE_KEYS };

const SCORE_LABELS: Record<ScoreKey, string> = {
  renterAffordability: 'Renter affordability',
  ownerAffordability: 'Owner affordability',
  affordability: 'Affordability (renters and owners)',
  supply: 'Supply',
  overall: 'Overall',
};

export const scoreLabel = (key: string): string => SCORE_LABELS[key as ScoreKey] ?? key.charAt(0).toUpperCase() + key.slice(1);

export const scoreOf = (scores: Scores | Record<string, number | undefined>, key: ScoreKey): number | undefined =>
  (scores as Record<string, number | undefined>)[key];

const weight = (w: number): string => formatPercent(w * 100);
const label = (metricId: string): string => metricDefinition(metricId)?.label ?? metricId;

/** What each thresholded input measures; the numbers stay in THRESHOLDS. */
export const THRESHOLD_LABELS: Record<ThresholdKey, string> = {
  rentToIncome: 'Rent-to-income ratio: twelve months of median gross rent as a share of median renter household income, %',
  rentBurden: `${label('rentBurden')}, %`,
  priceToIncome: 'Price-to-income ratio (median multiple): median home value over median household income',
  ownerCostBurden: `${label('ownerCostBurden')}, %`,
  permitsPerThousand: 'New housing units authorized in the year per 1,000 existing housing units',
  rentalVacancyRate: `${label('rentalVacancyRate')}, %`,
};

/** One sentence per score: what a high value means and how it is weighted. */
export function scoreMeaning(key: ScoreKey): string {
  switch (key) {
    case 'renterAffordability': {
      const w = WEIGHTS.renterAffordability;
      return `Higher means easier for renters: ${weight(w.rentToIncome)} from rent relative to renter household income, ${weight(w.rentBurden)} from the share of rent-burdened renter households.`;
    }
    case 'ownerAffordability': {
      const w = WEIGHTS.ownerAffordability;
      return `Higher means easier for owners and buyers: ${weight(w.priceToIncome)} from home value relative to household income, ${weight(w.ownerCostBurden)} from the share of cost-burdened owners with a mortgage.`;
    }
    case 'affordability': {
      const w = WEIGHTS.affordability;
      return `What renters and owners both pay: ${weight(w.renterAffordability)} renter affordability, ${weight(w.ownerAffordability)} owner affordability.`;
    }
    case 'supply': {
      const w = WEIGHTS.supply;
      return `Higher means more room in the housing stock: ${weight(w.permitsPerThousand)} from new units authorized per 1,000 existing units, ${weight(w.rentalVacancyRate)} from the rental vacancy rate.`;
    }
    case 'overall': {
      const w = WEIGHTS.overall;
      return `Combines the two headline scores: ${weight(w.affordability)} affordability, ${weight(w.supply)} supply.`;
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
  renterAffordability: '#2f7d6d',
  ownerAffordability: '#7a5195',
  affordability: '#1d6a8a',
  supply: '#a8541a',
  overall: '#3f3d8f',
};
