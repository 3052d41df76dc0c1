// The loading stage: every source's adapter over the raw fixtures, and the snapshot date they give; the disk reader is its one side effect.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataError, FixtureError } from '../contract/errors.ts';
import type { MarketDefinition } from '../contract/markets.ts';
import { SOURCES } from './registry.ts';
import type { ReadFixture, SourceLoad, SourceModule } from './source.ts';

/** Reads fixtures from a folder on disk: the one side effect of the data-loading run, injected so tests run in memory. */
export function fixturesOnDisk(dir: string): ReadFixture {
  return (path) => {
    try {
      return readFileSync(join(dir, path), 'utf8');
    } catch (error) {
      throw new DataError('unreadable', { file: path }, `cannot read fixture: ${(error as Error).message}`);
    }
  };
}

export interface LoadedSources {
  loads: SourceLoad[];
  /** The snapshot date: the latest retrieval among all sources. Every date-dependent output derives from it. */
  snapshotDate: string;
}

export function loadSources(read: ReadFixture, markets: readonly MarketDefinition[], sources: readonly SourceModule[] = SOURCES): LoadedSources {
  const loads = sources.map((source) => source.load(read, markets));
  const retrieved = loads
    .map((l) => l.source.latestRetrievedAt)
    .filter((d): d is string => d !== undefined)
    .sort();
  const snapshotDate = retrieved.at(-1);
  if (snapshotDate === undefined) {
    throw new FixtureError(
      'missing_field',
      { file: `${sources[0]?.sourceId ?? 'fixtures'}/retrieval.json` },
      'no source records "latestRetrievedAt", so the snapshot date is unknown',
    );
  }
  return { loads, snapshotDate };
}
