// What `verify` expects of a deployment: the contract's own column lists, and its endpoints' records (paths, download names), so it checks the deployment against the contract rather than against our own server.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CSV_COLUMNS as CONTRACT_CSV_COLUMNS } from '../../contract/schemas.ts';
import { SERIES_CSV_COLUMNS as CONTRACT_SERIES_CSV_COLUMNS } from '../../contract/series.ts';
import { headerValue, type Fetched } from './http.ts';
import { ENDPOINTS } from '../../contract/endpoints.ts';
import { parseJsonText } from '../../contract/json.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../contract/untrusted.ts';

export const TYPES = {
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
  html: 'text/html; charset=utf-8',
  problem: 'application/problem+json',
  zip: 'application/zip',
} as const;

/** docs/contract.md 2.6 and 2.10: the columns of the market CSVs and of the series CSVs, in order, as the contract defines them. */
export const CSV_COLUMNS = CONTRACT_CSV_COLUMNS.map((c) => c.name);
export const SERIES_CSV_COLUMNS = CONTRACT_SERIES_CSV_COLUMNS.map((c) => c.name);
export const seriesCsvFilename = ENDPOINTS.seriesCsv.attachment;
export const DOWNLOAD_FILENAME = ENDPOINTS.download.attachment;
/** docs/contract.md 2.11: what an archived vintage is served with. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** docs/contract.md 2.11: what the current snapshot's vintage is served with until it is archived (the ordinary rule). */
export const NOT_YET_ARCHIVED = 'public, max-age=300';
/** docs/contract.md 2.11: where the documents of the snapshot of `date` are served, and the names its CSVs are saved under. */
export const VINTAGE = {
  index: ENDPOINTS.vintageIndex.path,
  bulkCsv: ENDPOINTS.vintageBulkCsv.path,
  profile: ENDPOINTS.vintageProfile.path,
  csv: ENDPOINTS.vintageCsv.path,
  bulkCsvFilename: ENDPOINTS.vintageBulkCsv.attachment,
  csvFilename: ENDPOINTS.vintageCsv.attachment,
} as const;
/** docs/contract.md 2.1: the keys of a profile's `links`. */
export const LINK_KEYS = ['html', 'dataStatus', 'methodology', 'dataSources', 'dataCatalog', 'privacy', 'changelog'] as const;
export const marketCsvFilename = ENDPOINTS.marketCsv.attachment;
/** A market id no deployment serves (docs/contract.md 2.2 form, a state code that does not exist). */
export const PROBE_UNKNOWN_MARKET = 'us-zz-verify-unknown';

const STRONG_ETAG = /^"[\x21\x23-\x7e\x80-\xff]*"$/;

/** Faults of one response, collected rather than thrown so one check reports everything wrong with it. */
export class Faults {
  readonly list: string[] = [];
  add(fault: string): void {
    this.list.push(fault);
  }
  /** Adds a fault when `ok` is false; returns `ok` for chaining. */
  expect(ok: boolean, fault: string): boolean {
    if (!ok) this.add(fault);
    return ok;
  }
}

/** The request a fault is about, as the faults name it: `GET /api/markets`. */
export const requestText = (res: Fetched): string => `${res.method} ${new URL(res.url).pathname}`;

/** Status, exact Content-Type, identity bytes, and the headers docs/contract.md 4 puts on every answer. */
export function expectResponse(f: Faults, res: Fetched, status: number, type: string): boolean {
  const ok = f.expect(res.status === status, `${requestText(res)} answered ${res.status}, expected ${status}`);
  const got = headerValue(res, 'content-type');
  f.expect(got === type, `${requestText(res)} has Content-Type ${JSON.stringify(got ?? null)}, expected exactly ${JSON.stringify(type)}`);
  f.expect(
    headerValue(res, 'content-encoding') === undefined,
    `${requestText(res)} is ${headerValue(res, 'content-encoding') ?? ''}-encoded though the request accepted no encoding`,
  );
  f.expect(headerValue(res, 'access-control-allow-origin') === '*', `${requestText(res)} lacks Access-Control-Allow-Origin: *`);
  f.expect(headerValue(res, 'x-content-type-options') === 'nosniff', `${requestText(res)} lacks X-Content-Type-Options: nosniff`);
  f.expect((headerValue(res, 'cache-control') ?? '') !== '', `${requestText(res)} has no Cache-Control`);
  return ok;
}

/** The headers of a 200 from the route table: a strong ETag and Vary: Accept-Encoding. */
export function expectRepresentation(f: Faults, res: Fetched): void {
  const etag = headerValue(res, 'etag');
  f.expect(
    etag !== undefined && STRONG_ETAG.test(etag),
    `${requestText(res)} has ${etag === undefined ? 'no ETag' : `a weak or malformed ETag ${etag}`}, expected a strong one`,
  );
  f.expect(varies(res), `${requestText(res)} lacks Vary: Accept-Encoding`);
}

export const varies = (res: Fetched): boolean =>
  (headerValue(res, 'vary') ?? '').split(',').some((t) => t.trim().toLowerCase() === 'accept-encoding' || t.trim() === '*');

/** A JSON body, parsed; a fault (and undefined) when it is not JSON or nests deeper than any document of the service can. */
export function readJsonBody(f: Faults, res: Fetched): unknown {
  const text = res.body.toString('utf8');
  if (nestsDeeperThan(text)) {
    f.add(`${requestText(res)} nests its JSON more than ${MAX_JSON_DEPTH} levels deep; not read further`);
    return undefined;
  }
  try {
    return parseJsonText(text);
  } catch (error) {
    f.add(`${requestText(res)} is not JSON: ${(error as Error).message}`);
    return undefined;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The identity bytes of a possibly compressed body, or an error saying why they cannot be had. Decompression stops at
 * the identity body's length, so a body that would decompress to gigabytes costs no more than that.
 */
export function decoded(res: Fetched, identityLength: number): Buffer {
  const coding = (headerValue(res, 'content-encoding') ?? 'identity').toLowerCase();
  // zlib takes no limit under 1: an empty identity body allows one byte, which the comparison then finds different.
  const limit = { maxOutputLength: Math.max(1, identityLength) };
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(res.body, limit);
    if (coding === 'br') return brotliDecompressSync(res.body, limit);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new Error(`decompresses to more than the identity body's ${identityLength} bytes`);
    throw new Error(`cannot decompress: ${(error as Error).message}`);
  }
  if (coding === 'identity') return res.body;
  throw new Error(`unknown Content-Encoding ${coding}`);
}
