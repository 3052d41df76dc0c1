// The freshness rule: each source's latest release against its update frequency, judged at the snapshot date; and the bounds the rule gives, for the methodology page.
import type { Freshness, Source, UpdateFrequency } from '../contract/schemas.ts';
import { InvariantError } from '../contract/errors.ts';
import { keysOf } from '../contract/records.ts';

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

/** Months between a source's releases, by its update frequency: the next release is the latest plus one interval. */
const INTERVAL_MONTHS: Record<UpdateFrequency, number> = { monthly: 1, quarterly: 3, annually: 12 };

/**
 * When the source's next release is due: its latest release date plus one update interval (a month, a quarter, a year;
 * a day past the end of a shorter month is the month's last day). Agencies' own calendars may differ by days.
 */
export function nextExpectedRelease(source: Pick<Source, 'latestReleaseDate' | 'updateFrequency'>): string | undefined {
  if (source.latestReleaseDate === undefined) return undefined;
  const [year = 0, month = 1, day = 1] = source.latestReleaseDate.split('-').map(Number);
  const months = month - 1 + INTERVAL_MONTHS[source.updateFrequency];
  const y = year + Math.floor(months / 12);
  const m = months % 12;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(day, last))).toISOString().slice(0, 10);
}

/** Whether the next release was due before the snapshot date: judged as of that date, never the reader's day. */
export const isOverdue = (source: Pick<Source, 'latestReleaseDate' | 'updateFrequency'>, snapshotDate: string): boolean => {
  const next = nextExpectedRelease(source);
  return next !== undefined && next < snapshotDate;
};

const RANK: Record<Freshness, number> = { fresh: 0, aging: 1, stale: 2 };

/** A profile is as fresh as its least fresh source. */
export function worstFreshness(values: readonly Freshness[]): Freshness {
  return values.reduce<Freshness>((worst, f) => (RANK[f] > RANK[worst] ? f : worst), 'fresh');
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
 * Finds where sourceFreshness changes its verdict, by asking it, so the methodology page shows the rule that runs. The
 * search is bounded: a rule that never turns aging, or never stale, within MAX_RELEASE_AGE_DAYS stops the build with a message.
 */
export function freshnessBounds(snapshotDate: string, rule: typeof sourceFreshness = sourceFreshness): FreshnessBounds[] {
  const snapshot = Date.parse(`${snapshotDate}T00:00:00Z`);
  return keysOf(EXPECTED_INTERVAL_DAYS).map((frequency) => {
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
      throw new InvariantError(`the freshness rule still says "${kind}" for a ${frequency} source released ${MAX_RELEASE_AGE_DAYS} days before the snapshot`);
    };
    const freshUpTo = lastOf('fresh', 0);
    return { frequency, interval: EXPECTED_INTERVAL_DAYS[frequency], freshUpTo, agingUpTo: lastOf('aging', freshUpTo) };
  });
}
