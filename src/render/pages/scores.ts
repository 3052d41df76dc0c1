// The scores as the pages say them: labels, meanings and formulas written from the methodology's score definitions, so the pages cannot drift from it.
import type { ScoreValues } from '../../methodology/scores.ts';
import {
  DERIVED_INPUTS,
  SCORE_KEYS,
  derivedInput,
  isDerived,
  isScoreKey,
  isThreshold,
  scoreDefinition,
  type DerivedKey,
  type ScoreKey,
  type ThresholdKey,
} from '../../methodology/scores.ts';
import { metricDefinition, type MetricId } from '../../methodology/metrics.ts';
import { formatNumber } from './format.ts';
import { entriesOf } from '../../contract/records.ts';

export type { ScoreKey, ThresholdKey };

/** The scores in the order the methodology computes them: the parts first, then the scores that combine them. */
export { SCORE_KEYS };

/** A score's label; any other key (several keys joined, say) with its first letter raised. */
export const scoreLabel = (key: string): string => (isScoreKey(key) ? scoreDefinition(key).label : key.charAt(0).toUpperCase() + key.slice(1));

export const scoreOf = (scores: ScoreValues, key: ScoreKey): number | undefined => scores[key];

export const scoreColor = (key: ScoreKey): string => scoreDefinition(key).color;

/** What a thresholded input measures: a derived input's own label, or its metric's label and unit. */
export function thresholdLabel(key: ThresholdKey): string {
  if (isDerived(key)) return DERIVED_INPUTS[key].label;
  const metric = metricDefinition(key);
  return `${metric?.label ?? key}, ${metric?.unit ?? ''}`;
}

export type Term = ({ kind: 'threshold'; key: ThresholdKey } | { kind: 'score'; key: ScoreKey }) & { weight: number; label: string };

/** The weighted terms of one score, in the methodology's order. */
export function scoreTerms(score: ScoreKey): Term[] {
  return entriesOf(scoreDefinition(score).weights).map(([key, weight = 0]) =>
    isThreshold(key) ? { key, weight, kind: 'threshold', label: thresholdLabel(key) } : { key, weight, kind: 'score', label: scoreLabel(key) },
  );
}

/** The scores used as terms of other scores, so a page can show the parts before the whole. */
export const COMPOSITE_SCORES: readonly ScoreKey[] = SCORE_KEYS.filter((k) => scoreTerms(k).some((t) => t.kind === 'score'));

/** A derived input's formula with its operands written by `operand`: "12 × median gross rent ÷ median renter household income × 100". */
export function derivation(key: DerivedKey, operand: (metricId: MetricId) => string): string {
  const d = derivedInput(key);
  const before = d.before === undefined ? '' : `${formatNumber(d.before)} × `;
  const after = d.after === undefined ? '' : ` × ${formatNumber(d.after)}`;
  return `${before}${operand(d.numerator)} ÷ ${operand(d.denominator)}${after}`;
}
