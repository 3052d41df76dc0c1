// What every source adapter produces: the source's attribution and typed observations with their origin.
import type { Boundary as ScopeBoundary, Source } from '../contract/schemas.ts';
import type { MarketDefinition } from '../contract/markets.ts';

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

/**
 * One market's history of a metric, for the pages' charts (the FHFA index quarter by quarter). It never reaches the JSON
 * or CSV, which carry the latest value only.
 */
export interface MetricSeries {
  marketId: string;
  metricId: string;
  /** Periods in a year (4 for quarters): the year-over-year change compares a point with the one this many before. */
  perYear: number;
  /** Consecutive periods, oldest first, from the first with a value to the latest with one; undefined where the source has no value (FHFA's "-"). */
  points: readonly { period: string; value: number | undefined }[];
}

/** How a market's value was put together where that is not the plain reading of one row (New York City's permits: five borough rows). */
export interface ValueNote {
  marketId: string;
  metricId: string;
  /** One sentence a reader understands. */
  note: string;
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
  /** Each market's history of a metric, where the source has one; only the markets' own series, for the pages. */
  series?: MetricSeries[];
  /** Values put together from more than one row, and how; the pages say it beside the value. */
  notes?: ValueNote[];
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
