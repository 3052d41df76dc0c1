// The list of source adapters and the loading stage that runs them: raw fixtures in, observations out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataError, FixtureError } from '../contract/errors.ts';
import type { MarketDefinition } from '../contract/markets.ts';
import { censusAcs5yr } from './census-acs-5yr.ts';
import { censusBps } from './census-bps.ts';
import { fhfaHpi } from './fhfa-hpi.ts';
import type { ReadFixture, SourceAdapter, SourceLoad } from './types.ts';

/** Reads fixtures from a folder on disk: the one side effect of the data-loading run, injected so tests run in memory. */
export function fixtureReader(dir: string): ReadFixture {
  return (path) => {
    try {
      return readFileSync(join(dir, path), 'utf8');
    } catch (error) {
      throw new DataError('unreadable', { file: path }, `cannot read fixture: ${(error as Error).message}`);
    }
  };
}

export const ADAPTERS: readonly SourceAdapter[] = [censusAcs5yr, censusBps, fhfaHpi];

export interface LoadedSources {
  loads: SourceLoad[];
  /** The snapshot date: the latest retrieval among all sources. Every date-dependent output derives from it. */
  snapshotDate: string;
}

export function loadSources(read: ReadFixture, markets: readonly MarketDefinition[], adapters: readonly SourceAdapter[] = ADAPTERS): LoadedSources {
  const loads = adapters.map((adapter) => adapter.load(read, markets));
  const retrieved = loads
    .map((l) => l.source.latestRetrievedAt)
    .filter((d): d is string => d !== undefined)
    .sort();
  const snapshotDate = retrieved.at(-1);
  if (snapshotDate === undefined) {
    throw new FixtureError(
      'missing_field',
      { file: `${adapters[0]?.sourceId ?? 'fixtures'}/retrieval.json` },
      'no source records "latestRetrievedAt", so the snapshot date is unknown',
    );
  }
  return { loads, snapshotDate };
}
