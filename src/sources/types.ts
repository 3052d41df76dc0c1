// What every source adapter produces: the source's attribution and typed observations with their origin.
import type { Boundary as ScopeBoundary, Source } from '../contract.ts';
import type { MarketDefinition } from '../markets.ts';

/** Which boundary a value describes (the contract's geographyScope boundary, before the metrics are known). */
export type Boundary = Omit<ScopeBoundary, 'metrics'>;

/** One value for one market, already rounded to the upstream's published precision. */
export interface Observation {
  marketId: string;
  metricId: string;
  value: number;
  asOf: string;
  sourceId: string;
  boundary: Boundary;
  origin: { file: string; line: number };
}

/** A metric a market's row leaves without a value (a null, an annotation sentinel, a `-`), and why; the data-status page shows it. */
export interface MissingValue {
  marketId: string;
  metricId: string;
  /** In words a reader understands, naming what the file said: `the Census API marks the estimate as not available (-666666666)`. */
  reason: string;
  /** The file and line that said it; no line when the value is missing because no row exists. */
  origin: { file: string; line?: number };
}

export interface SourceLoad {
  source: Source;
  observations: Observation[];
  /** Values a market's rows lack, with the reason; the metric is then missing from the profile and its coverage. */
  missing: MissingValue[];
  /** Rows of places (or series) that are not markets: skipped, and counted. */
  skipped: number;
  /** Which values are illustrative rather than published, as retrieval.json says; absent when every value is the agency's. */
  illustrative?: string;
}

/** One file `market-profiles fetch` downloads from the agency, and where under the fixtures root it is written. */
export interface RemoteFile {
  /** Path relative to the fixtures root; one of the adapter's `files`. */
  file: string;
  /** The agency's own address. */
  url: string;
}

/** Reads one fixture file by its path relative to the fixtures root. Injected so tests run in memory. */
export type ReadFixture = (path: string) => string;

export interface SourceAdapter {
  sourceId: string;
  /** Fixture files this adapter reads, relative to the fixtures root. */
  files: readonly string[];
  /** What `fetch` downloads; every other file of `files` is written by fetch itself (retrieval.json). */
  remote: readonly RemoteFile[];
  /** The vintage the files hold (a survey year, the latest quarter, the ACS period), read from the files themselves: fetch records it. */
  vintageOf?(read: ReadFixture): string;
  load(read: ReadFixture, markets: readonly MarketDefinition[]): SourceLoad;
}
