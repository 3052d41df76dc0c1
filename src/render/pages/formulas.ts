// The score formulas and the freshness bounds as data for the pages, read off the methodology module itself.
import type { Freshness, Source, UpdateFrequency } from '../../contract/schemas.ts';
import { EXPECTED_INTERVAL_DAYS, THRESHOLDS, WEIGHTS, scale, scoreInputs, sourceFreshness, type Values } from '../../methodology/methodology.ts';
import { SCORE_KEYS, THRESHOLD_LABELS, scoreLabel, type ScoreKey, type ThresholdKey } from './scores.ts';

export interface Term {
  /** A threshold key (an input scaled to 0-100) or a score key (a score already 0-100). */
  key: string;
  weight: number;
  kind: 'threshold' | 'score';
  label: string;
}

const isThreshold = (key: string): key is ThresholdKey => key in THRESHOLDS;

/** The weighted terms of one score, in the methodology's order. */
export function termsOf(score: ScoreKey): Term[] {
  return Object.entries(WEIGHTS[score] as Record<string, number>).map(([key, weight]) => ({
    key,
    weight,
    kind: isThreshold(key) ? 'threshold' : 'score',
    label: isThreshold(key) ? THRESHOLD_LABELS[key] : scoreLabel(key),
  }));
}

/** The scores used as terms of other scores, so a page can show the parts before the whole. */
export const COMPOSITE_SCORES: readonly ScoreKey[] = SCORE_KEYS.filter((k) => termsOf(k).some((t) => t.kind === 'score'));

/** The value a threshold term reads: a derived ratio from scoreInputs, or the metric of the same id. */
export function inputValue(key: string, values: Values): number | undefined {
  const derived = (scoreInputs(values) as Record<string, number | undefined>)[key];
  return derived ?? values[key];
}

export interface WorkedTerm extends Term {
  input: number;
  /** The input on the 0-100 scale (a score term is already on it). */
  scaled: number;
}

export interface WorkedScore {
  key: ScoreKey;
  terms: WorkedTerm[];
  sum: number;
  score: number;
}

/** Recomputes every score term by term with the methodology's own functions, for the worked example. */
export function workScores(values: Values): WorkedScore[] {
  const done = new Map<string, number>();
  const order = [...SCORE_KEYS.filter((k) => !COMPOSITE_SCORES.includes(k)), ...COMPOSITE_SCORES];
  const out: WorkedScore[] = [];
  for (const key of order) {
    const terms: WorkedTerm[] = [];
    for (const t of termsOf(key)) {
      const input = t.kind === 'score' ? done.get(t.key) : inputValue(t.key, values);
      if (input === undefined) break;
      terms.push({ ...t, input, scaled: t.kind === 'score' ? input : scale(input, THRESHOLDS[t.key as ThresholdKey]) });
    }
    if (terms.length !== termsOf(key).length) continue;
    const sum = terms.reduce((acc, t) => acc + t.weight * t.scaled, 0);
    const score = Math.round(Number(sum.toFixed(9)));
    done.set(key, score);
    out.push({ key, terms, sum, score });
  }
  return out;
}

export interface FreshnessBounds {
  frequency: UpdateFrequency;
  interval: number;
  /** Largest release age, in days, that is still fresh, and still aging. */
  freshUpTo: number;
  agingUpTo: number;
}

/** The oldest release age the search asks about: ten years, far beyond any interval, so the search ends by construction. */
export const MAX_RELEASE_AGE_DAYS = 3_660;

/**
 * Finds where sourceFreshness changes its verdict, by asking it, so the table shows the rule that runs. The search is
 * bounded: a rule that never turns aging, or never stale, within MAX_RELEASE_AGE_DAYS stops the build with a message.
 */
export function freshnessBounds(snapshotDate: string, rule: typeof sourceFreshness = sourceFreshness): FreshnessBounds[] {
  const snapshot = Date.parse(`${snapshotDate}T00:00:00Z`);
  return (Object.keys(EXPECTED_INTERVAL_DAYS) as UpdateFrequency[]).map((frequency) => {
    const verdict = (age: number): Freshness => {
      const release = new Date(snapshot - age * 86_400_000).toISOString().slice(0, 10);
      const probe: Source = {
        sourceId: 'probe',
        sourceName: 'probe',
        agency: 'probe',
        datasetName: 'probe',
        sourceUrl: 'https://example.org/',
        confidence: 'high',
        updateFrequency: frequency,
        provenance: 'fixture',
        latestReleaseDate: release,
      };
      return rule(probe, snapshotDate);
    };
    /** The last age, from `from`, at which the verdict is still `kind`. */
    const lastOf = (kind: Freshness, from: number): number => {
      for (let age = from; age < MAX_RELEASE_AGE_DAYS; age += 1) if (verdict(age + 1) !== kind) return age;
      throw new Error(`the freshness rule still says "${kind}" for a ${frequency} source released ${MAX_RELEASE_AGE_DAYS} days before the snapshot`);
    };
    const freshUpTo = lastOf('fresh', 0);
    return { frequency, interval: EXPECTED_INTERVAL_DAYS[frequency], freshUpTo, agingUpTo: lastOf('aging', freshUpTo) };
  });
}
