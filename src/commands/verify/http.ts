// The probe `verify` sends its requests through (not the typed client the package exports): raw bytes (no automatic decompression), bounded concurrency, a deadline and a size limit on every request, each body hashed as it streams.
import { createHash } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ENDPOINT_LIST, pathAt, type EndpointId } from '../../contract/endpoints.ts';
import { MARKETS_ASSUMED, answerCeiling, ceilingWords, type AnswerKind } from '../../contract/untrusted.ts';

export interface Fetched {
  url: string;
  method: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent, still compressed if the server compressed them; empty when the request asked only for their hash (`keep`). */
  body: Buffer;
  /** How many bytes the body had, and their SHA-256 (hex), counted as they arrived: kept or not. */
  bytes: number;
  sha256: string;
}

export interface FetchOptions {
  method?: string;
  headers?: Record<string, string>;
  /**
   * Whether the body is kept (default true), or only counted and hashed as it streams; a function decides from the
   * answer's headers (keep a page's HTML, hash the rest).
   */
  keep?: boolean | ((headers: IncomingHttpHeaders) => boolean);
}

export interface Probe {
  /** The deployment's BASE_URL: what its links and `$id`s are built from, and what the checks hold them to. */
  readonly baseUrl: string;
  /** Where the requests go: the BASE_URL, or the same machine by another name (http://127.0.0.1:3000 for http://localhost:3000). */
  readonly address: string;
  /** The most of one answer's body it reads, in bytes, whatever its kind. */
  readonly maxBytes: number;
  /**
   * The markets the index lists, once read: each kind of answer is refused past what it can be at that many
   * (src/contract/untrusted.ts), MARKETS_ASSUMED until then.
   */
  markets: number;
  /** The most bytes an answer at this path (below the base URL) may have, and why: its kind's ceiling, or its file's size in a build's manifest. */
  limitOf(path: string): { bytes: number; words: string };
  /** `target` is a path below the base URL (a record's path) or an absolute URL. */
  fetch(target: string, options?: FetchOptions): Promise<Fetched>;
  close(): void;
}

export interface ProbeOptions {
  concurrency?: number;
  /** The time each request may take from being sent to the end of its answer's body (default 10 s). */
  timeoutMs?: number;
  /** The most of one answer's body the probe reads (default MAX_ANSWER_BYTES): past it, or declared past it, the request fails. */
  maxBytes?: number;
  /** Send the requests here instead of to the base URL (same paths); the base URL stays what links are checked against. */
  address?: string;
  /** The size of each route's largest file, by path, from a build's manifest: no answer at that path may be larger. */
  sizes?: ReadonlyMap<string, number>;
}

/** A record's answer kind is its id: an endpoint without a ceiling in untrusted.ts does not compile here. */
const ceilingOf = (id: EndpointId): AnswerKind => id;

/** Every endpoint's path as a pattern (a market id or a date matches one segment), most literal first; pages and anything else are `page`. */
const KINDS: readonly { pattern: RegExp; kind: AnswerKind }[] = (() => {
  const segment = '\u0000';
  const paths = ENDPOINT_LIST.map(([id, record]): [EndpointId, string] => [id, pathAt(record, segment, segment)]);
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll(segment, '[^/]+');
  return (
    paths
      // Fewer segments left open first, then the longer literal: /api/vintages/{date}/markets/csv before …/markets/{id}.
      .sort(([, a], [, b]) => a.split(segment).length - b.split(segment).length || b.length - a.length)
      .map(([id, path]) => ({ pattern: new RegExp(`^${escape(path)}$`), kind: ceilingOf(id) }))
  );
})();

/** The kind of answer a path of the service gives (`page` for a page, or any path no endpoint has). */
export const kindOfPath = (path: string): AnswerKind => KINDS.find((k) => k.pattern.test(path))?.kind ?? 'page';

/** One header as a string (repeated headers joined the way HTTP allows), or undefined. */
export const headerValue = (res: Fetched, name: string): string | undefined => {
  const value = res.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * The most of one answer's body verify reads (`--max-bytes`). At a thousand synthetic markets the largest document is
 * the bulk series CSV, 33 MB (the download 16.7 MB, the Data Package 10.1 MB): twice that, so a deployment of that size
 * passes, while one that serves larger bodies (or streams without end) is cut at the limit, never read whole. A body
 * verify keeps is at most this long, and at most `concurrency` of them are read at once.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export function createProbe(baseUrl: string, options: ProbeOptions = {}): Probe {
  const address = options.address ?? baseUrl;
  const concurrency = options.concurrency ?? 8;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? MAX_ANSWER_BYTES;
  const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: concurrency }), https: new HttpsAgent({ keepAlive: true, maxSockets: concurrency }) };
  let active = 0;
  const waiting: (() => void)[] = [];
  const acquire = async (): Promise<void> => {
    if (active < concurrency) {
      active += 1;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) active -= 1;
    else next();
  };

  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const limitOf = (path: string): { bytes: number; words: string } => {
    const listed = options.sizes?.get(path);
    const ceiling = { bytes: Math.min(maxBytes, answerCeiling(kindOfPath(path), probe.markets)), words: ceilingWords(kindOfPath(path), probe.markets) };
    if (listed !== undefined && listed < ceiling.bytes) return { bytes: listed, words: `more than its file in the manifest (${listed} bytes)` };
    return ceiling.bytes < maxBytes ? ceiling : { bytes: maxBytes, words: `more than the limit of ${maxBytes} bytes (--max-bytes)` };
  };
  /** An answer's limit: by its path below the base URL's; a URL elsewhere (never asked for by the checks) only --max-bytes. */
  const limitAt = (url: URL): { bytes: number; words: string } => {
    const ours = url.href.startsWith(address) || url.href.startsWith(baseUrl);
    const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) || '/' : url.pathname;
    return ours ? limitOf(path) : { bytes: maxBytes, words: `more than the limit of ${maxBytes} bytes (--max-bytes)` };
  };

  const once = (url: URL, method: string, headers: Record<string, string>, keep: NonNullable<FetchOptions['keep']>): Promise<Fetched> =>
    new Promise((resolve, reject) => {
      // A deadline for the whole exchange, not an idle timer: a server that sends a byte now and then is cut at it too.
      const deadline = setTimeout(() => req.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
      const fail = (error: Error): void => {
        clearTimeout(deadline);
        reject(error);
      };
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, { method, headers, agent: url.protocol === 'https:' ? agents.https : agents.http }, (res) => {
        const declared = method === 'HEAD' ? 0 : Number(res.headers['content-length'] ?? 0);
        const limit = limitAt(url);
        if (declared > limit.bytes) {
          req.destroy(new Error(`the answer declares ${declared} bytes, ${limit.words}`));
          return;
        }
        const kept = typeof keep === 'function' ? keep(res.headers) : keep;
        const chunks: Buffer[] = [];
        const hash = createHash('sha256');
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > limit.bytes) {
            req.destroy(new Error(`the answer is ${limit.words}`));
            return;
          }
          hash.update(chunk);
          if (kept) chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(deadline);
          const body = Buffer.concat(chunks);
          chunks.length = 0;
          resolve({ url: url.href, method, status: res.statusCode ?? 0, headers: res.headers, body, bytes: received, sha256: hash.digest('hex') });
        });
        res.on('error', fail);
      });
      req.on('error', fail);
      req.end();
    });

  /** A path or a URL of the deployment, as the request is sent: at the address. */
  const routed = (target: string): URL => {
    const absolute = /^https?:\/\//.test(target) ? target : baseUrl + target;
    const ours = absolute === baseUrl || absolute.startsWith(`${baseUrl}/`);
    return new URL(ours ? address + absolute.slice(baseUrl.length) : absolute);
  };

  const probe: Probe = {
    baseUrl,
    address,
    maxBytes,
    markets: MARKETS_ASSUMED,
    limitOf,
    async fetch(target, { method = 'GET', headers = {}, keep = true } = {}) {
      const url = routed(target);
      await acquire();
      try {
        return await once(url, method, headers, keep);
      } catch (error) {
        throw new Error(`${method} ${url.href}: ${(error as Error).message}`);
      } finally {
        release();
      }
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
  return probe;
}
