// What a source module is (everything about one upstream dataset, in one folder) and what its adapter produces.
import type { Area } from '../contract/geography.ts';
import type { Comparison, Qualifier, Source } from '../contract/schemas.ts';
import { InvariantError } from '../contract/errors.ts';
import type { MarketDefinition } from '../contract/markets.ts';

/** One value for one market, already rounded to the upstream's published precision. */
export interface Observation<M extends string = string> {
  marketId: string;
  metricId: M;
  value: number;
  /** The agency's 90 % margin of error, in the value's unit, where the file gives one. */
  marginOfError?: number;
  /** The value is not the agency's published figure (retrieval.json says which metrics of a fixture are not). */
  illustrative?: true;
  /** The value is an interval's edge, not a figure ("4,000+", written 4001): what the agency published. */
  qualifier?: Qualifier;
  asOf: string;
  sourceId: string;
  /** The area the value describes, with the codes of its level. */
  boundary: Area;
  /** The same metric for the geographies that hold the market's (its state, the nation), where the source publishes them. */
  comparisons?: Comparison[];
  origin: { file: string; line: number };
}

/** A metric a market's row leaves without a value (a null, an annotation sentinel, a `-`), and why; the data-status page shows it. */
export interface MissingValue<M extends string = string> {
  marketId: string;
  metricId: M;
  /** In words a reader understands, naming what the file said: `the Census API marks the estimate as not available (-666666666)`. */
  reason: string;
  /**
   * The file and line that said it; no line when the value is missing because no row exists, which the load refuses
   * (src/sources/checks.ts): only a value the file itself says is absent is published as missing.
   */
  origin: { file: string; line?: number };
}

/** One period of a series: its value (undefined where the source has none, FHFA's "-"), and its margin where published. */
export interface SeriesPoint {
  period: string;
  value: number | undefined;
  /** The agency's 90 % margin of error, where it publishes one. */
  marginOfError?: number;
  qualifier?: Qualifier;
  /** The file has no row for the period though the series runs through it: a row lost, which the load refuses (src/sources/checks.ts). */
  noRow?: true;
}

/** The same metric for an area that holds the market's (its state, the nation), period by period, as the source publishes it. */
export interface ComparisonSeries {
  area: Area;
  points: readonly SeriesPoint[];
}

/**
 * One market's history of a metric (the FHFA index and its change quarter by quarter, the ACS estimates of two
 * non-overlapping periods): the pages' charts, the profile's change and the series documents read it; the profile's
 * JSON and CSV carry the latest value only.
 */
export interface MetricSeries<M extends string = string> {
  marketId: string;
  metricId: M;
  /**
   * The period of the series' first row in the file, a value or not, where the source writes every series from one
   * period on (FHFA: the file's first quarter): the load refuses a market's series that begins later than the others'.
   */
  firstRow?: string;
  /** Periods in a year (4 for quarters): the year-over-year change compares a point with the one this many before. */
  perYear: number;
  /** Periods oldest first (FHFA: consecutive quarters from the first with a value to the latest with one). */
  points: readonly SeriesPoint[];
  /** The same metric for the areas that hold the market's, where the source publishes their series. */
  comparisons?: readonly ComparisonSeries[];
}

/** How a market's value was put together where that is not the plain reading of one row (New York City's permits: five borough rows). */
export interface ValueNote<M extends string = string> {
  marketId: string;
  metricId: M;
  /** One sentence a reader understands. */
  note: string;
}

/** What one load of a source's fixtures gives: its attribution with the fixture's dates, and every market's values. */
export interface SourceLoad<M extends string = string> {
  source: Source;
  /** The vintage the files hold, as retrieval.json records it ("2020-2024", "2025 Q4", "2024"). */
  vintage: string;
  /** The terms the dataset is published under (the source module's). */
  licence: Licence;
  observations: Observation<M>[];
  /** Values a market's rows lack, with the reason; the metric is then missing from the profile and its coverage. */
  missing: MissingValue<M>[];
  /** Rows of places (or series) that are not markets: skipped, and counted. */
  skipped: number;
  /** Which values are illustrative rather than published, as retrieval.json says; absent when every value is the agency's. */
  illustrative?: string;
  /** Each market's history of a metric, where the source has one (empty where it has none): the pages draw them. */
  series: MetricSeries<M>[];
  /** Values put together from more than one row, and how (empty when every value is one row's): the pages say it beside the value. */
  notes: ValueNote<M>[];
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

/** A metric as its source defines it: everything a page, a descriptor or a worked example says of it. */
export interface MetricSpec<M extends string = string> {
  id: M;
  label: string;
  /** Short name for chart rows and column heads where the label does not fit: "Median rent". */
  shortLabel: string;
  /** The metric as a sentence names it, lower case: "median gross rent", "building permits". */
  noun: string;
  unit: string;
  /** The unit as a column head says it, where the unit alone does not ("% on a year earlier"); absent: from the unit. */
  unitWords?: string;
  /** Decimals the upstream publishes the value with; values are rounded to this at ingestion. */
  decimals: number;
  /**
   * The values the metric can take, in its unit, low and high: the load refuses a value outside (a count of a
   * trillion, a negative rent); absent, any finite number.
   */
  range?: readonly [low: number, high: number];
  /** Whether the methodology requires it of every market (coverage counts the required metrics). */
  required: boolean;
  /**
   * False where a difference from its comparisons says nothing: a count of the whole stock (a city always has fewer
   * homes than its state), which is shown beside the state's without a significance verdict. Absent: tested.
   */
  tested?: false;
  /** Money stated in the inflation-adjusted dollars of the period's last year (the ACS 5-year estimates'): each figure says which. */
  dollars?: 'period-end';
  definition: string;
  /** What its margin of error is, or why it has none: the data-status page says it. */
  margin: string;
  /**
   * Computed from two other metrics of the same source rather than read from its files: for each market, each area it
   * is compared with and each period of their series (src/sources/derive.ts). Absent: the adapter reads it.
   */
  derived?: Ratio<NoInfer<M>>;
}

/**
 * A ratio of two metrics: before × numerator ÷ denominator × after (12 × monthly rent ÷ yearly income × 100 is the rent
 * as a percentage of income). The scores' derived inputs are ratios too, computed by the same function (derive.ts).
 */
export interface Ratio<M extends string = string> {
  numerator: M;
  denominator: M;
  before?: number;
  after?: number;
}

/** The terms a dataset is published under: an Open Definition licence id for the Data Package, and the words the pages show. */
export interface Licence {
  /** Open Definition id (`other-pd`, `other-at`, …). */
  id: string;
  terms: string;
}

/** A secret the agency's API takes (never written to a file or a message): the environment variable that holds it and the query parameter it is sent as. */
export interface Credential {
  env: string;
  query: string;
  help: string;
  /** Where to get one, said when the API refuses a request made without it. */
  signup: string;
}

/** Everything about one upstream dataset. One registry (./registry.ts) lists the modules; nothing else names a source id. */
export interface SourceModule<Id extends string = string, M extends string = string> {
  sourceId: Id;
  /**
   * The first period the agency publishes ("1975 Q1"): the load refuses a period that begins before it. Absent, only
   * the retrieval date bounds the periods.
   */
  firstPeriod?: string;
  /** The metrics this source provides, in the order the pages list them. */
  metrics: readonly MetricSpec<M>[];
  /** What every profile citing it says of it (docs/contract.md 2.4), less what its files tell: the dataset's vintage and the dates. */
  attribution: Omit<Source, 'sourceId' | 'datasetName' | 'latestReleaseDate' | 'latestRetrievedAt'>;
  licence: Licence;
  /** Fixture files this adapter reads, relative to the fixtures root. */
  files: readonly string[];
  /** What `fetch` downloads; every other file of `files` is written by fetch itself (retrieval.json). */
  remote: readonly RemoteFile[];
  /**
   * The agency's own origins (`https://www.fhfa.gov`): the only ones, besides the origin asked, a download may be redirected
   * to. `fetch` refuses a redirect anywhere else before it follows it.
   */
  origins: readonly string[];
  /** A secret the agency's API takes with every download, if any. */
  credential?: Credential;
  /** What the agency's terms ask a product whose figures were downloaded from it to say; `fetch` writes it into readFrom. */
  downloadNotice?: string;
  /** The vintage the files hold (a survey year, the latest quarter, the ACS period), read from the files themselves: fetch records it. */
  vintageOf?(read: ReadFixture): string;
  /**
   * Every series the files hold, a market's or not, by its key, with the periods it has a row for, where the source
   * publishes series: fetch refuses a download that takes a period away from one.
   */
  seriesPeriods?(read: ReadFixture): ReadonlyMap<string, ReadonlySet<string>>;
  load(read: ReadFixture, markets: readonly MarketDefinition[]): SourceLoad<M>;
  /**
   * The same source reading only these of its metrics, where what it reads from its files depends on them (the ACS
   * queries ask for the variables their metrics read). Absent: withMetrics drops the others from what the load gives.
   */
  forMetrics?(metrics: readonly MetricSpec<M>[]): SourceModule<Id, M>;
}

/**
 * The source with only these of its metrics, in its own order: what a build with a metric set of its own loads (the
 * test world's, which a new metric of the product leaves as it is). A derived metric needs its two operands in the set.
 */
export function withMetrics<Id extends string, M extends string>(source: SourceModule<Id, M>, ids: Iterable<string>): SourceModule<Id, M> {
  const keep = new Set(ids);
  const metrics = source.metrics.filter((m) => keep.has(m.id));
  for (const m of metrics) {
    const lacking = m.derived === undefined ? undefined : [m.derived.numerator, m.derived.denominator].find((id) => !keep.has(id));
    if (lacking !== undefined) throw new InvariantError(`${source.sourceId}: ${m.id} is derived from ${lacking}, which the metric set leaves out`);
  }
  if (source.forMetrics !== undefined) return source.forMetrics(metrics);
  const kept = <T extends { metricId: string }>(items: readonly T[]): T[] => items.filter((item) => keep.has(item.metricId));
  return {
    ...source,
    metrics,
    load: (read, markets) => {
      const load = source.load(read, markets);
      return { ...load, observations: kept(load.observations), missing: kept(load.missing), series: kept(load.series), notes: kept(load.notes) };
    },
  };
}

/** Declares a source module, keeping its id and metric ids as literal types (the registry's unions are made of them). */
export const defineSource = <const Id extends string, const M extends string>(module: SourceModule<Id, M>): SourceModule<Id, M> => module;
