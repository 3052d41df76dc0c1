// The typed client of the market-profiles service: only `fetch`, so it runs in Node 20 and in browsers. It pins schemaVersion "1", tolerates fields it does not know, hands the caveats back with the data, turns problem+json into errors with their code and revalidates with If-None-Match.
import {
  CSV_COLUMNS,
  DOWNLOAD_NAME,
  KNOWN_MARKET_IDS,
  KNOWN_METRIC_IDS,
  KNOWN_SCORE_IDS,
  SCHEMA_VERSION,
  SERIES_CSV_COLUMNS,
  type AnyMarketId,
  type AnyMetricId,
  type AnyScoreId,
  type CsvColumn,
  type CsvDescriptor,
  type IndexEntry,
  type KnownMarketId,
  type KnownMetricId,
  type KnownScoreId,
  type MarketIndex,
  type MarketProfile,
  type MarketSeries,
  type Metric,
  type Problem,
  type ProblemCode,
  type ProfileMetrics,
  type Scores,
  type SeriesCsvColumn,
  type SeriesCsvDescriptor,
  type SeriesMetric,
  type SeriesMetrics,
  type VintageIndex,
} from './generated/contract.ts';
import { CsvSyntaxError, parseCsv } from './generated/csv-format.ts';
import { PATHS } from './generated/paths.ts';
import { MARKETS_ASSUMED, MAX_JSON_DEPTH, answerCeiling, ceilingWords, nestsDeeperThan, type AnswerKind } from './generated/untrusted.ts';

export type {
  AnyMarketId,
  AnyMetricId,
  AnyScoreId,
  CsvColumn,
  CsvDescriptor,
  IndexEntry,
  KnownMarketId,
  KnownMetricId,
  KnownScoreId,
  MarketIndex,
  MarketProfile,
  MarketSeries,
  Metric,
  ProblemCode,
  ProfileMetrics,
  Scores,
  SeriesCsvColumn,
  SeriesCsvDescriptor,
  SeriesMetric,
  SeriesMetrics,
  VintageIndex,
};
export { KNOWN_MARKET_IDS, KNOWN_METRIC_IDS, KNOWN_SCORE_IDS };

const KNOWN_METRICS: ReadonlySet<string> = new Set(KNOWN_METRIC_IDS);
const KNOWN_MARKETS: ReadonlySet<string> = new Set(KNOWN_MARKET_IDS);
const KNOWN_SCORES: ReadonlySet<string> = new Set(KNOWN_SCORE_IDS);

/** Whether an id (a CSV row's metric_id, a key read from the JSON) is one of the metric ids this client knows. */
export const isKnownMetricId = (id: string): id is KnownMetricId => KNOWN_METRICS.has(id);
/** Whether an id is one of the market ids this client knows (the service may serve markets added since). */
export const isKnownMarketId = (id: string): id is KnownMarketId => KNOWN_MARKETS.has(id);
/** Whether an id is one of the score ids this client knows. */
export const isKnownScoreId = (id: string): id is KnownScoreId => KNOWN_SCORES.has(id);

/** An own property of a map read from JSON, by any key ("constructor" is no metric). */
const own = <T>(map: object, key: string): T | undefined => (Object.hasOwn(map, key) ? (map as Record<string, T>)[key] : undefined);

/**
 * A metric by its id, known to this client or added to the service since (schemaVersion "1" adds metrics without
 * notice; the JSON keeps them): a profile's metric, or a series document's. Undefined where the market has none.
 */
export function metric(document: MarketProfile, id: AnyMetricId): Metric | undefined;
export function metric(document: MarketSeries, id: AnyMetricId): SeriesMetric | undefined;
export function metric(document: MarketProfile | MarketSeries, id: AnyMetricId): Metric | SeriesMetric | undefined {
  return 'profile' in document ? own<Metric>(document.profile.metrics, id) : own<SeriesMetric>(document.metrics, id);
}

/** A score by its id, known to this client or added since: a profile's, or a market's entry in the index. Undefined where it is omitted. */
export function score(scored: MarketProfile | IndexEntry, id: AnyScoreId): number | undefined {
  return own<number>('profile' in scored ? scored.profile.scores : scored.scores, id);
}

/** An RFC 9457 problem as the service answers it, with its stable `code`; extension members it does not know are kept. */
export type ProblemDetails = Problem & Record<string, unknown>;

/** The schemaVersion this client reads (docs/contract.md section 9), generated from the contract; a service answering another is refused. */
export const CLIENT_SCHEMA_VERSION = SCHEMA_VERSION;

/** One CSV row, typed: `value` a number, `live_data` the constant false, `metric_id` a known id or one to check, every other column a string. */
export type CsvRecord = {
  [K in CsvColumn]: K extends 'value'
    ? number
    : K extends 'live_data'
      ? false
      : K extends 'production_mode'
        ? 'static-fixture'
        : K extends 'metric_id'
          ? AnyMetricId
          : string;
};

const COLUMNS: readonly CsvColumn[] = CSV_COLUMNS;

/**
 * One series CSV row, typed: value a number, margin_of_error and dollar_year a number or null (none published, not
 * money), published_as the agency's text or null (the value is exact), illustrative a boolean, metric_id a known id or
 * one to check.
 */
export type SeriesRecord = {
  [K in SeriesCsvColumn]: K extends 'metric_id'
    ? AnyMetricId
    : K extends 'value'
      ? number
      : K extends 'margin_of_error' | 'dollar_year'
        ? number | null
        : K extends 'published_as'
          ? string | null
          : K extends 'illustrative'
            ? boolean
            : K extends 'live_data'
              ? false
              : K extends 'production_mode'
                ? 'static-fixture'
                : string;
};

const SERIES_COLUMNS: readonly SeriesCsvColumn[] = SERIES_CSV_COLUMNS;

export interface Result<T> {
  readonly data: T;
  /**
   * The caveats that come with the data, to show wherever it is shown: a profile's or the index's own, the CSV
   * descriptor's for a CSV; empty for the schemas, the OpenAPI document and the Data Package, which describe data.
   */
  readonly caveats: readonly string[];
  /** The entity tag of what was read, sent back as If-None-Match on the next call for the same URL. */
  readonly etag: string | undefined;
  /** True when the service answered 304 Not Modified and the value is the one read before. */
  readonly revalidated: boolean;
}

/** A CSV read: the typed rows, and the text exactly as served (for a file or a pipe). */
export interface CsvResult extends Result<CsvRecord[]> {
  readonly text: string;
}

/** A series CSV read: the typed rows, and the text exactly as served. */
export interface SeriesCsvResult extends Result<SeriesRecord[]> {
  readonly text: string;
}

/** The one-file download: the zip's bytes, and the file name the service gives it (its Content-Disposition). */
export interface DownloadResult extends Result<Uint8Array> {
  readonly filename: string;
}

/** A JSON Schema, OpenAPI or Data Package document, as served. */
export type JsonDocument = Record<string, unknown>;

/** Any failure of the client; `url` is what it asked for. */
export class MarketProfilesError extends Error {
  constructor(
    message: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MarketProfilesError';
  }
}

/** The service answered an RFC 9457 problem: `code` is the stable machine code (market_not_found, not_found, ...). */
export class ProblemError extends MarketProfilesError {
  readonly code: ProblemCode;
  readonly status: number;
  constructor(
    readonly problem: ProblemDetails,
    url: string,
  ) {
    super(`${problem.code} (${problem.status}): ${problem.detail}`, url);
    this.name = 'ProblemError';
    this.code = problem.code;
    this.status = problem.status;
  }
}

/** The service answered a schemaVersion other than the one this client reads: a breaking change it cannot read safely. */
export class SchemaVersionError extends MarketProfilesError {
  constructor(
    readonly schemaVersion: unknown,
    url: string,
  ) {
    super(
      `${url} has schemaVersion ${JSON.stringify(schemaVersion)}; this client reads schemaVersion "${CLIENT_SCHEMA_VERSION}" only. Use a client for that version.`,
      url,
    );
    this.name = 'SchemaVersionError';
  }
}

/** An answer that is not what the contract promises (another content type, a body that does not parse, a claim of live data). */
export class ResponseError extends MarketProfilesError {
  constructor(
    message: string,
    url: string,
    readonly status: number,
  ) {
    super(message, url);
    this.name = 'ResponseError';
  }
}

export interface ClientOptions {
  /** Where the service is, e.g. https://data.example.org (a path prefix is kept). */
  baseUrl: string;
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch;
  /**
   * Time allowed for each call, in milliseconds, from sending the request to the last byte of the answer; past it the
   * call rejects with a MarketProfilesError. None by default (only fetch's own).
   */
  timeoutMs?: number;
  /**
   * The longest answer read, in bytes as fetch hands them over (after any Content-Encoding is undone); past it the call
   * rejects with a MarketProfilesError and the rest is not read. 256 MiB by default: about eight times the bulk series
   * CSV of a thousand markets. Each kind of answer is refused sooner, past what it can be (a profile at 256 KiB, the
   * bulk CSVs by the markets the last index read lists, 1,000 before one is read): a server cannot make the client
   * hold more than that.
   */
  maxBytes?: number;
}

/** The default of `maxBytes`. */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

export interface MarketProfilesClient {
  readonly baseUrl: string;
  /** The index: every market with its scores, coverage, freshness and links. */
  listMarkets(): Promise<Result<MarketIndex>>;
  /** One market's profile; an unknown id rejects with a ProblemError whose code is market_not_found. */
  getProfile(marketId: AnyMarketId): Promise<Result<MarketProfile>>;
  /** One market's CSV, parsed into typed rows. */
  getMarketCsv(marketId: AnyMarketId): Promise<CsvResult>;
  /** Every market's CSV, parsed into typed rows. */
  getBulkCsv(): Promise<CsvResult>;
  /** The CSV column descriptor; its caveats are those of every CSV. */
  getCsvDescriptor(): Promise<Result<CsvDescriptor>>;
  getProfileSchema(): Promise<Result<JsonDocument>>;
  getIndexSchema(): Promise<Result<JsonDocument>>;
  getOpenApi(): Promise<Result<JsonDocument>>;
  getDataPackage(): Promise<Result<JsonDocument>>;
  /** One market's every observation per metric (period, value, margin of error, illustrative flag, area). */
  getSeries(marketId: AnyMarketId): Promise<Result<MarketSeries>>;
  /** One market's series CSV (long format), parsed into typed rows. */
  getSeriesCsv(marketId: AnyMarketId): Promise<SeriesCsvResult>;
  /** Every market's series CSV, parsed into typed rows. */
  getBulkSeriesCsv(): Promise<SeriesCsvResult>;
  /** Every published snapshot, newest first, with the links to its documents (which never change). */
  listVintages(): Promise<Result<VintageIndex>>;
  /** One market's profile as the snapshot of `snapshotDate` published it. */
  getVintageProfile(snapshotDate: string, marketId: AnyMarketId): Promise<Result<MarketProfile>>;
  /** One market's CSV as the snapshot of `snapshotDate` published it, parsed into typed rows. */
  getVintageCsv(snapshotDate: string, marketId: AnyMarketId): Promise<CsvResult>;
  /**
   * Every JSON and CSV document in one zip, with the file name the service gives it; the caveats are the index's (the
   * zip's README carries them too).
   */
  getDownload(): Promise<DownloadResult>;
}

interface Cached {
  etag: string;
  value: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The rows of a served CSV, each a reader of its cells by column name: columns it does not know are ignored; CSV that is not RFC 4180, or a missing column, is an error. */
function csvCells<C extends string>(text: string, url: string, columns: readonly C[]): { line: number; cell: (column: C) => string }[] {
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (error) {
    throw new ResponseError(`${url} is not RFC 4180 CSV: ${error instanceof CsvSyntaxError ? error.message : String(error)}`, url, 200);
  }
  const [header = [], ...rows] = records;
  const at = new Map(header.map((name, i) => [name, i]));
  for (const column of columns) if (!at.has(column)) throw new ResponseError(`${url} has no column ${column}`, url, 200);
  return rows.map((fields, i) => ({ line: i + 2, cell: (column: C): string => fields[at.get(column) ?? -1] ?? '' }));
}

/** Rows of a served CSV by column name, typed. */
function readRows(text: string, url: string): CsvRecord[] {
  return csvCells(text, url, COLUMNS).map(({ line, cell }) => {
    const value = Number(cell('value'));
    if (cell('value') === '' || !Number.isFinite(value))
      throw new ResponseError(`${url} line ${line}: value ${JSON.stringify(cell('value'))} is not a number`, url, 200);
    if (cell('live_data') !== 'false')
      throw new ResponseError(`${url} line ${line}: live_data is ${JSON.stringify(cell('live_data'))}; this data is never live`, url, 200);
    return {
      market_id: cell('market_id'),
      market_name: cell('market_name'),
      metric_id: cell('metric_id'),
      metric_label: cell('metric_label'),
      value,
      unit: cell('unit'),
      source_id: cell('source_id'),
      updated_date: cell('updated_date'),
      methodology_version: cell('methodology_version'),
      production_mode: 'static-fixture',
      live_data: false,
    };
  });
}

/** Rows of a served series CSV by column name, typed; a cell that is not its type is an error. */
function readSeriesRows(text: string, url: string): SeriesRecord[] {
  return csvCells(text, url, SERIES_COLUMNS).map(({ line, cell }) => {
    const bad = (column: SeriesCsvColumn, what: string): never => {
      throw new ResponseError(`${url} line ${line}: ${column} ${JSON.stringify(cell(column))} is not ${what}`, url, 200);
    };
    const number = (column: SeriesCsvColumn): number => {
      const n = Number(cell(column));
      return cell(column) === '' || !Number.isFinite(n) ? bad(column, 'a number') : n;
    };
    const flag = cell('illustrative');
    if (flag !== 'true' && flag !== 'false') bad('illustrative', 'true or false');
    if (cell('live_data') !== 'false') bad('live_data', 'false; this data is never live');
    return {
      market_id: cell('market_id'),
      metric_id: cell('metric_id'),
      period: cell('period'),
      period_start: cell('period_start'),
      period_end: cell('period_end'),
      value: number('value'),
      unit: cell('unit'),
      dollar_year: cell('dollar_year') === '' ? null : number('dollar_year'),
      margin_of_error: cell('margin_of_error') === '' ? null : number('margin_of_error'),
      published_as: cell('published_as') === '' ? null : cell('published_as'),
      illustrative: flag === 'true',
      source_id: cell('source_id'),
      geography_level: cell('geography_level'),
      geography_code: cell('geography_code'),
      snapshot_date: cell('snapshot_date'),
      updated_date: cell('updated_date'),
      methodology_version: cell('methodology_version'),
      production_mode: 'static-fixture',
      live_data: false,
    };
  });
}

/** The pinned constants of a data document: schemaVersion "1" (refused otherwise) and, where it is stated, liveData false. */
function pinned(doc: unknown, url: string): Record<string, unknown> {
  if (!isObject(doc)) throw new ResponseError(`${url} is not a JSON object`, url, 200);
  if (doc.schemaVersion !== CLIENT_SCHEMA_VERSION) throw new SchemaVersionError(doc.schemaVersion, url);
  if ('liveData' in doc && doc.liveData !== false)
    throw new ResponseError(`${url} claims liveData ${JSON.stringify(doc.liveData)}; this data is never live`, url, 200);
  return doc;
}

const caveatsOf = (doc: Record<string, unknown>, url: string): string[] => {
  if (!Array.isArray(doc.caveats) || !doc.caveats.every((c) => typeof c === 'string') || doc.caveats.length === 0)
    throw new ResponseError(`${url} carries no caveats`, url, 200);
  return doc.caveats;
};

/** A body's bytes, read to at most `maxBytes`: past it the rest is cancelled, unread, and the read rejects with `why`. */
async function bytesWithin(res: Response, maxBytes: number, why: string): Promise<Uint8Array> {
  if (res.body === null) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the answer is ${why}; the rest was not read`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** The file name a Content-Disposition gives (`attachment; filename="housing-markets.zip"`), as a plain name: no folder, nothing hidden. */
function attachmentName(header: string | null): string | undefined {
  const name = /;\s*filename="([^"]*)"/i.exec(header ?? '')?.[1] ?? /;\s*filename=([^;\s]+)/i.exec(header ?? '')?.[1];
  return name !== undefined && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) ? name : undefined;
}

export function createClient(options: ClientOptions): MarketProfilesClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes must be a whole number of bytes, not ${String(options.maxBytes)}`);
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  const cache = new Map<string, Cached>();
  /** The markets the last index read lists: the ceilings of the kinds that grow with them. */
  let markets = MARKETS_ASSUMED;
  /** The most of an answer of a kind read, and why past it it is refused. */
  const limitOf = (kind: AnswerKind): { bytes: number; why: string } => {
    const ceiling = answerCeiling(kind, markets);
    return ceiling < maxBytes ? { bytes: ceiling, why: ceilingWords(kind, markets) } : { bytes: maxBytes, why: `more than maxBytes (${maxBytes} bytes)` };
  };

  /** GETs a path, revalidating what was read before; `parse` turns a 200's body into the value kept and returned. */
  async function get<T>(
    path: string,
    kind: AnswerKind,
    parse: (text: string, url: string, bytes: Uint8Array, headers: Headers) => T,
  ): Promise<{ value: T; etag: string | undefined; revalidated: boolean }> {
    // The download is a zip; the CSV kinds are the ones named …Csv (their descriptors are JSON).
    const type = kind === 'download' ? 'zip' : kind.endsWith('Csv') ? 'csv' : 'json';
    const url = baseUrl + path;
    const cached = cache.get(url);
    // One deadline for the request and the body: a service that sends a byte now and then is cut at it too.
    const signal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
    const failed = (error: unknown): MarketProfilesError => {
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      const reason = signal?.aborted === true ? `no complete answer within ${options.timeoutMs} ms` : (error as Error).message;
      return new MarketProfilesError(`GET ${url} failed: ${reason}${typeof cause === 'string' ? ` (${cause})` : ''}`, url, { cause: error });
    };
    let res: Response;
    try {
      res = await fetcher(url, { headers: cached === undefined ? {} : { 'If-None-Match': cached.etag }, ...(signal === undefined ? {} : { signal }) });
    } catch (error) {
      throw failed(error);
    }
    const contentType = res.headers.get('content-type') ?? '';
    if (res.status === 304 && cached !== undefined) return { value: cached.value as T, etag: cached.etag, revalidated: true };
    const limit = limitOf(kind);
    let bytes: Uint8Array;
    try {
      // Content-Length counts the bytes as sent: past the limit, refused before a byte is read (decompressed, fetch's may be more).
      const declared = Number(res.headers.get('content-encoding') === null ? (res.headers.get('content-length') ?? 0) : 0);
      if (declared > limit.bytes) {
        await res.body?.cancel().catch(() => undefined);
        throw new Error(`the answer declares ${declared} bytes, ${limit.why}`);
      }
      bytes = await bytesWithin(res, limit.bytes, limit.why);
    } catch (error) {
      throw failed(error);
    }
    // Decoded as Response.text() decodes (a zip is never decoded).
    const text = type === 'zip' && res.status === 200 ? '' : new TextDecoder().decode(bytes);
    if (contentType.startsWith('application/problem+json')) {
      let problem: unknown;
      try {
        problem = nestsDeeperThan(text) ? undefined : JSON.parse(text);
      } catch {
        problem = undefined;
      }
      if (isObject(problem) && typeof problem.code === 'string') throw new ProblemError(problem as unknown as ProblemDetails, url);
    }
    if (res.status !== 200) throw new ResponseError(`GET ${url} answered ${res.status}`, url, res.status);
    const expected = type === 'json' ? 'application/json' : type === 'csv' ? 'text/csv' : 'application/zip';
    if (!contentType.startsWith(expected)) throw new ResponseError(`GET ${url} answered ${JSON.stringify(contentType)}, not ${expected}`, url, res.status);
    let value: T;
    try {
      value = parse(text, url, bytes, res.headers);
    } catch (error) {
      if (error instanceof MarketProfilesError) throw error;
      throw new ResponseError(`GET ${url}: ${(error as Error).message}`, url, res.status);
    }
    const etag = res.headers.get('etag') ?? undefined;
    if (etag !== undefined) cache.set(url, { etag, value });
    return { value, etag, revalidated: false };
  }

  /** A JSON text, parsed once it is known to nest no deeper than any document of the service, so nothing done with it recurses without bound. */
  const json = (text: string): unknown => {
    if (nestsDeeperThan(text)) throw new Error(`the JSON nests more than ${MAX_JSON_DEPTH} levels deep, deeper than any document of the service; refused`);
    return JSON.parse(text);
  };
  const document = async (path: string, kind: AnswerKind): Promise<Result<JsonDocument>> => {
    const { value, etag, revalidated } = await get(path, kind, (text, url) => {
      const doc = json(text);
      if (!isObject(doc)) throw new ResponseError(`${url} is not a JSON object`, url, 200);
      return doc;
    });
    return { data: value, caveats: [], etag, revalidated };
  };
  const dataDocument = async <T>(path: string, kind: AnswerKind): Promise<Result<T>> => {
    const { value, etag, revalidated } = await get(path, kind, (text, url) => {
      const doc = pinned(json(text), url);
      return { doc, caveats: caveatsOf(doc, url) };
    });
    return { data: value.doc as T, caveats: value.caveats, etag, revalidated };
  };
  const csv = async (path: string, kind: AnswerKind): Promise<CsvResult> => {
    const descriptor = await dataDocument<CsvDescriptor>(PATHS.csvDescriptor, 'csvDescriptor');
    const { value, etag, revalidated } = await get(path, kind, (text, url) => ({ text, rows: readRows(text, url) }));
    return { data: value.rows, text: value.text, caveats: descriptor.caveats, etag, revalidated };
  };

  /** The index of markets; the kinds that grow with the markets are bounded by the markets it lists from now on. */
  const listMarkets = async (): Promise<Result<MarketIndex>> => {
    const index = await dataDocument<MarketIndex>(PATHS.index, 'index');
    if (Array.isArray(index.data.markets)) markets = index.data.markets.length;
    return index;
  };
  const seriesCsv = async (path: string, kind: AnswerKind): Promise<SeriesCsvResult> => {
    const descriptor = await dataDocument<SeriesCsvDescriptor>(PATHS.seriesCsvDescriptor, 'seriesCsvDescriptor');
    const { value, etag, revalidated } = await get(path, kind, (text, url) => ({ text, rows: readSeriesRows(text, url) }));
    return { data: value.rows, text: value.text, caveats: descriptor.caveats, etag, revalidated };
  };

  return {
    baseUrl,
    getSeries: (id) => dataDocument<MarketSeries>(PATHS.series(encodeURIComponent(id)), 'series'),
    getSeriesCsv: (id) => seriesCsv(PATHS.seriesCsv(encodeURIComponent(id)), 'seriesCsv'),
    getBulkSeriesCsv: () => seriesCsv(PATHS.bulkSeriesCsv, 'bulkSeriesCsv'),
    listVintages: () => dataDocument<VintageIndex>(PATHS.vintages, 'vintages'),
    getVintageProfile: (date, id) => dataDocument<MarketProfile>(PATHS.vintageProfile(encodeURIComponent(date), encodeURIComponent(id)), 'vintageProfile'),
    getVintageCsv: (date, id) => csv(PATHS.vintageCsv(encodeURIComponent(date), encodeURIComponent(id)), 'vintageCsv'),
    getDownload: async () => {
      const index = await listMarkets();
      const { value, etag, revalidated } = await get(PATHS.download, 'download', (_text, _url, bytes, headers) => ({
        bytes,
        // Where the service names no plain file name, the name its records give.
        filename: attachmentName(headers.get('content-disposition')) ?? DOWNLOAD_NAME,
      }));
      return { data: value.bytes, filename: value.filename, caveats: index.caveats, etag, revalidated };
    },
    listMarkets,
    getProfile: (id) => dataDocument<MarketProfile>(PATHS.profile(encodeURIComponent(id)), 'profile'),
    getMarketCsv: (id) => csv(PATHS.marketCsv(encodeURIComponent(id)), 'marketCsv'),
    getBulkCsv: () => csv(PATHS.bulkCsv, 'bulkCsv'),
    getCsvDescriptor: () => dataDocument<CsvDescriptor>(PATHS.csvDescriptor, 'csvDescriptor'),
    getProfileSchema: () => document(PATHS.profileSchema, 'profileSchema'),
    getIndexSchema: () => document(PATHS.indexSchema, 'indexSchema'),
    getOpenApi: () => document(PATHS.openApi, 'openApi'),
    getDataPackage: () => document(PATHS.dataPackage, 'dataPackage'),
  };
}
