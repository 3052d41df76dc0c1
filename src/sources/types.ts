// What every source adapter produces: the source's attribution and typed observations with their origin.
import type { MarketDefinition } from '../markets.ts';

export type Confidence = 'high' | 'medium' | 'low';
export type UpdateFrequency = 'monthly' | 'quarterly' | 'annually';

/** Attribution of one upstream dataset, as it appears in a profile's `sources` (spec 2.4). */
export interface SourceRecord {
  sourceId: string;
  sourceName: string;
  agency: string;
  datasetName: string;
  sourceUrl: string;
  confidence: Confidence;
  updateFrequency: UpdateFrequency;
  provenance: 'fixture' | 'live';
  latestReleaseDate?: string;
  latestRetrievedAt?: string;
}

/** Which boundary a value describes, so a profile can say when its metrics mix boundaries. */
export interface Boundary {
  level: 'place' | 'county' | 'cbsa';
  name: string;
  codes: Record<string, string>;
  states: string[];
}

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
  source: SourceRecord;
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
