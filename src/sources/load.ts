// The loading stage: every source's adapter over the raw fixtures, held to the load's rules (checks.ts), and the snapshot date they give; the disk reader is its one side effect.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DataError, FixtureError } from '../contract/errors.ts';
import type { MarketDefinition } from '../contract/markets.ts';
import { byId } from '../contract/json.ts';
import { checkedLoad } from './checks.ts';
import { decodeFixture } from './parse.ts';
import { SOURCES } from './registry.ts';
import type { ReadFixture, SourceLoad, SourceModule } from './source.ts';

/** The largest file a source may hold: what `fetch` accepts from an agency, so the build never reads what no download could give. */
export const MAX_FIXTURE_BYTES = 256 * 1024 * 1024;

/**
 * Reads fixtures from a folder on disk: the one side effect of the data-loading run, injected so tests run in memory.
 * A file over MAX_FIXTURE_BYTES is refused before it is read, and one that is not UTF-8 is refused with its line.
 */
export function fixturesOnDisk(dir: string, maxBytes: number = MAX_FIXTURE_BYTES): ReadFixture {
  return (path) => {
    let bytes: Buffer;
    try {
      const size = statSync(join(dir, path)).size;
      if (size > maxBytes) {
        throw new FixtureError(
          'too_large',
          { file: path },
          `the file is ${size} bytes, more than the ${maxBytes} bytes a source may hold; nothing of it was read`,
        );
      }
      bytes = readFileSync(join(dir, path));
    } catch (error) {
      if (error instanceof DataError) throw error;
      throw new DataError('unreadable', { file: path }, `cannot read fixture: ${(error as Error).message}`);
    }
    return decodeFixture(bytes, path);
  };
}

/** A file a source was built from, as the vintage index records it. */
export interface SourceFile {
  file: string;
  bytes: number;
  sha256: string;
}

export interface LoadedSources {
  loads: SourceLoad[];
  /** Per source id, the agency files its load read (those `fetch` downloads), with their sizes and SHA-256, by path. */
  files: ReadonlyMap<string, readonly SourceFile[]>;
  /** The snapshot date: the latest retrieval among all sources. Every date-dependent output derives from it. */
  snapshotDate: string;
  /** The ids of the metrics the sources loaded hold (each module's, which a metric set of its own may have narrowed: withMetrics). */
  metricIds: readonly string[];
}

export function loadSources(read: ReadFixture, markets: readonly MarketDefinition[], sources: readonly SourceModule[] = SOURCES): LoadedSources {
  const files = new Map<string, SourceFile[]>();
  const loads = sources.map((source) => {
    // The fixtures are valid UTF-8 without a byte-order mark (decodeFixture refuses the rest), so the text's UTF-8 bytes are the file's.
    const remote = new Set(source.remote.map((r) => r.file));
    const read_: SourceFile[] = [];
    const load = checkedLoad(
      source,
      (path) => {
        const text = read(path);
        if (remote.has(path) && !read_.some((f) => f.file === path)) {
          const bytes = Buffer.from(text, 'utf8');
          read_.push({ file: path, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
        }
        return text;
      },
      markets,
    );
    files.set(source.sourceId, read_.sort(byId((f) => f.file)));
    return load;
  });
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
  return { loads, files, snapshotDate, metricIds: sources.flatMap((s) => s.metrics.map((m) => m.id)) };
}
