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

export interface SourceLoad {
  source: Source;
  observations: Observation[];
}

/** Reads one fixture file by its path relative to the fixtures root. Injected so tests run in memory. */
export type ReadFixture = (path: string) => string;

export interface SourceAdapter {
  sourceId: string;
  /** Fixture files this adapter reads, relative to the fixtures root. */
  files: readonly string[];
  load(read: ReadFixture, markets: readonly MarketDefinition[]): SourceLoad;
}
