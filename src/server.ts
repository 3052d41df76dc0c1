// The embedded server: answers from the in-memory route table with precomputed bytes and headers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { marketNotFound, problem, type ProblemDetails } from './render/problem.ts';
import { CACHE_CONTROL, COMMON_HEADERS, CONTENT_TYPES, PAGE_HEADERS, isApiPath, type Route, type RouteTable, type Variant } from './routes.ts';

/** Limits that keep a slow or hostile client from holding a socket; documented in the README. */
export const LIMITS = {
  /** Request line plus headers, in bytes; larger requests get 431. */
  maxHeaderSize: 16 * 1024,
  /** Time allowed to receive the complete request headers. */
  headersTimeoutMs: 10_000,
  /** Time allowed to receive the complete request. */
  requestTimeoutMs: 15_000,
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: 5_000,
  /** A socket with no activity at all (a client that stops reading) is closed after this long. */
  socketTimeoutMs: 60_000,
  /** How long a shutdown waits for requests in flight before closing their sockets. */
  drainTimeoutMs: 10_000,
  maxPathLength: 2048,
} as const;

type Flat = string[];
const flat = (pairs: readonly (readonly [string, string])[]): Flat => pairs.flatMap(([k, v]) => [k, v]);

interface PreparedVariant {
  variant: Variant;
  ok: Flat;
  notModified: Flat;
}

interface PreparedRoute {
  route: Route;
  identity: PreparedVariant;
  gzip?: PreparedVariant;
  br?: PreparedVariant;
  lastModifiedMs: number;
  preflight: Flat;
}

const NOT_MODIFIED_KEEP = new Set(['cache-control', 'vary', 'last-modified', 'access-control-allow-origin', 'access-control-expose-headers', 'x-content-type-options']);

function prepare(route: Route, lastModifiedMs: number): PreparedRoute {
  const one = (variant: Variant): PreparedVariant => {
    const encoding: [string, string][] = variant.encoding === 'identity' ? [] : [['Content-Encoding', variant.encoding]];
    return {
      variant,
      ok: flat([...route.headers, ...encoding, ['ETag', variant.etag], ['Content-Length', String(variant.body.length)]]),
      notModified: flat([...route.headers.filter(([k]) => NOT_MODIFIED_KEEP.has(k.toLowerCase())), ['ETag', variant.etag]]),
    };
  };
  return {
    route,
    identity: one(route.identity),
    ...(route.gzip === undefined ? {} : { gzip: one(route.gzip) }),
    ...(route.br === undefined ? {} : { br: one(route.br) }),
    lastModifiedMs,
    preflight: flat([
      ['Allow', 'GET, HEAD'],
      ['Access-Control-Allow-Methods', 'GET, HEAD'],
      ['Access-Control-Allow-Headers', 'Accept, If-None-Match, If-Modified-Since'],
      ['Access-Control-Max-Age', '86400'],
      ['Cache-Control', CACHE_CONTROL.ok],
      ...COMMON_HEADERS,
      ['Content-Length', '0'],
    ]),
  };
}

interface Acceptable {
  br: number;
  gzip: number;
  identity: number;
}

/** Parses Accept-Encoding into the q-value of each coding we can send (RFC 9110 12.5.3). */
export function parseAcceptEncoding(header: string | undefined): Acceptable {
  if (header === undefined) return { br: 0, gzip: 0, identity: 1 };
  const explicit = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() !== 'q') continue;
      const parsed = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
      q = Number.isNaN(parsed) ? 0 : parsed;
    }
    const key = name === 'x-gzip' ? 'gzip' : name;
    explicit.set(key, Math.max(explicit.get(key) ?? 0, q));
  }
  const star = explicit.get('*');
  const of = (coding: string, fallback: number): number => explicit.get(coding) ?? star ?? fallback;
  return { br: of('br', 0), gzip: of('gzip', 0), identity: of('identity', 1) };
}

/** Highest q wins; on a tie the smaller encoding (br, then gzip, then identity). */
function choose(route: PreparedRoute, accept: Acceptable): PreparedVariant {
  let best: PreparedVariant = route.identity;
  let bestQ = accept.identity;
  if (route.gzip !== undefined && accept.gzip > 0 && accept.gzip >= bestQ) {
    best = route.gzip;
    bestQ = accept.gzip;
  }
  if (route.br !== undefined && accept.br > 0 && accept.br >= bestQ) best = route.br;
  // When nothing is acceptable, identity is still sent (RFC 9110 allows ignoring the header).
  return best;
}

/** Weak comparison (RFC 9110 8.8.3.2): W/ prefixes are ignored, `*` matches any current representation. */
export function ifNoneMatchHits(header: string, etag: string): boolean {
  const bare = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*') return true;
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === bare) return true;
  }
  return false;
}

const CONTROL = /[\u0000-\u001f\u007f]/;
const BAD_ENCODING = /%(?![0-9A-Fa-f]{2})|%2f|%5c|%00/i;
const MARKET_PATH = /^\/api\/markets\/([^/]+)(\/csv)?$/;

export type PathVerdict = { kind: 'route'; path: string } | { kind: 'bad_request'; reason: string } | { kind: 'not_found'; path: string };

/** Decodes a request path once and safely; only an exact canonical path can reach a route. */
export function classifyPath(raw: string): PathVerdict {
  if (raw.length > LIMITS.maxPathLength) return { kind: 'not_found', path: raw };
  if (CONTROL.test(raw)) return { kind: 'bad_request', reason: 'The request target contains a control character.' };
  if (raw.includes('\\')) return { kind: 'bad_request', reason: 'The request target contains a backslash.' };
  if (BAD_ENCODING.test(raw)) return { kind: 'bad_request', reason: 'The request target has malformed percent-encoding, an encoded slash, backslash or NUL.' };
  let path = raw;
  if (raw.includes('%')) {
    try {
      path = decodeURIComponent(raw);
    } catch {
      return { kind: 'bad_request', reason: 'The request target is not valid percent-encoded UTF-8.' };
    }
    if (CONTROL.test(path)) return { kind: 'bad_request', reason: 'The request target contains an encoded control character.' };
  }
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) {
    return { kind: 'bad_request', reason: 'The request target contains a dot segment.' };
  }
  return { kind: 'route', path };
}

export interface ServerOptions {
  log?: boolean;
  /** Where access-log lines go; stdout by default. */
  logLine?: (line: string) => void;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** Stops accepting, lets requests in flight finish, then resolves. */
  close(): Promise<void>;
}

export function createHandler(table: RouteTable, options: ServerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const lastModifiedMs = Date.parse(table.lastModified);
  const prepared = new Map<string, PreparedRoute>();
  for (const [path, route] of table.routes) prepared.set(path, prepare(route, lastModifiedMs));
  const knownIds = new Set(table.marketIds);
  const acceptCache = new Map<string, Acceptable>();

  const negotiate = (header: string | undefined): Acceptable => {
    if (header === undefined) return parseAcceptEncoding(undefined);
    let hit = acceptCache.get(header);
    if (hit === undefined) {
      hit = parseAcceptEncoding(header);
      if (acceptCache.size >= 256) acceptCache.clear();
      acceptCache.set(header, hit);
    }
    return hit;
  };

  const sendProblem = (req: IncomingMessage, res: ServerResponse, body: ProblemDetails, extra: Flat = []): void => {
    const bytes = Buffer.from(`${JSON.stringify(body, null, 2)}\n`);
    res.writeHead(body.status, [
      'Content-Type', CONTENT_TYPES.problem,
      'Cache-Control', CACHE_CONTROL.error,
      ...flat(COMMON_HEADERS),
      ...extra,
      'Content-Length', String(bytes.length),
    ]);
    if (req.method === 'HEAD') res.end();
    else res.end(bytes);
  };

  const notFoundPageHead = flat([
    ['Content-Type', CONTENT_TYPES.html],
    ['Cache-Control', CACHE_CONTROL.error],
    ...COMMON_HEADERS,
    ...PAGE_HEADERS,
    ['Content-Length', String(table.notFoundPage.length)],
  ]);

  const notFound = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    if (!isApiPath(path)) {
      res.writeHead(404, notFoundPageHead);
      if (req.method === 'HEAD') res.end();
      else res.end(table.notFoundPage);
      return;
    }
    const market = MARKET_PATH.exec(path);
    if (market !== null && market[1] !== undefined && market[1] !== 'csv' && !knownIds.has(market[1])) {
      sendProblem(req, res, marketNotFound(table.baseUrl, market[1], path, table.marketIds));
      return;
    }
    sendProblem(req, res, problem(table.baseUrl, 'not_found', 'Nothing is published at this path. Paths are exact and lower case, without a trailing slash; the data catalog lists every endpoint.', path, { catalog: `${table.baseUrl}/data-catalog` }));
  };

  const serve = (req: IncomingMessage, res: ServerResponse, route: PreparedRoute): void => {
    const chosen = choose(route, negotiate(req.headers['accept-encoding']));
    const inm = req.headers['if-none-match'];
    let fresh = false;
    if (inm !== undefined) fresh = ifNoneMatchHits(inm, chosen.variant.etag);
    else {
      const ims = req.headers['if-modified-since'];
      if (ims !== undefined) {
        const since = Date.parse(ims);
        fresh = !Number.isNaN(since) && route.lastModifiedMs <= since;
      }
    }
    if (fresh) {
      res.writeHead(304, chosen.notModified);
      res.end();
      return;
    }
    res.writeHead(200, chosen.ok);
    if (req.method === 'HEAD') res.end();
    else res.end(chosen.variant.body);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const target = req.url ?? '';
    const method = req.method ?? '';
    if (target.charCodeAt(0) !== 47 /* "/" */) {
      sendProblem(req, res, problem(table.baseUrl, 'bad_request', 'The request target must be a path beginning with "/" (origin form).'));
      return;
    }
    const q = target.indexOf('?');
    const raw = q === -1 ? target : target.slice(0, q);
    let route = prepared.get(raw);
    let path = raw;
    if (route === undefined) {
      const verdict = classifyPath(raw);
      if (verdict.kind === 'bad_request') {
        sendProblem(req, res, problem(table.baseUrl, 'bad_request', verdict.reason));
        return;
      }
      path = verdict.path;
      route = raw.startsWith('//') ? undefined : prepared.get(path);
    }
    if (method === 'GET' || method === 'HEAD') {
      if (route === undefined) notFound(req, res, path);
      else serve(req, res, route);
      return;
    }
    if (method === 'OPTIONS' && route !== undefined) {
      res.writeHead(204, route.preflight);
      res.end();
      return;
    }
    if (method === 'OPTIONS') {
      notFound(req, res, path);
      return;
    }
    sendProblem(req, res, problem(table.baseUrl, 'method_not_allowed', `The method ${/^[A-Z-]{1,20}$/.test(method) ? method : 'used'} is not allowed; every path is read-only and answers GET and HEAD.`, path), ['Allow', 'GET, HEAD']);
  };

  if (!options.log) {
    return (req, res) => {
      try {
        handle(req, res);
      } catch (error) {
        fail(res, error);
      }
    };
  }
  const logLine = options.logLine ?? ((line: string) => process.stdout.write(`${line}\n`));
  return (req, res) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logLine(JSON.stringify({
        time: new Date().toISOString(),
        method: req.method,
        path: (req.url ?? '').split('?')[0],
        status: res.statusCode,
        bytes: Number(res.getHeader('content-length') ?? 0),
        encoding: res.getHeader('content-encoding') ?? 'identity',
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      }));
    });
    try {
      handle(req, res);
    } catch (error) {
      fail(res, error);
    }
  };
}

/** Last resort for a bug: log it, answer 500 once, keep the process alive. */
function fail(res: ServerResponse, error: unknown): void {
  process.stderr.write(`internal error: ${(error as Error).stack ?? String(error)}\n`);
  if (!res.headersSent) {
    res.writeHead(500, ['Content-Type', CONTENT_TYPES.problem, 'Cache-Control', 'no-store', ...flat(COMMON_HEADERS)]);
  }
  res.end();
}

/** Writes a problem answer straight onto a socket the HTTP parser gave up on. */
function rejectClient(error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, title] =
    error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request header fields too large'] :
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request timeout'] :
    [400, 'Bad request'];
  const body = Buffer.from(`${JSON.stringify({ type: 'about:blank', title, status, detail: 'The request could not be parsed as HTTP/1.1 within the server\'s limits.', code: status === 400 ? 'bad_request' : status === 431 ? 'headers_too_large' : 'request_timeout' }, null, 2)}\n`);
  const head = [
    `HTTP/1.1 ${status} ${title}`,
    `Content-Type: ${CONTENT_TYPES.problem}`,
    'Cache-Control: no-store',
    ...COMMON_HEADERS.map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${body.length}`,
    'Connection: close',
  ].join('\r\n');
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body]));
}

export function startServer(table: RouteTable, listen: { host: string; port: number }, options: ServerOptions = {}): Promise<RunningServer> {
  const server = createServer({
    maxHeaderSize: LIMITS.maxHeaderSize,
    headersTimeout: LIMITS.headersTimeoutMs,
    requestTimeout: LIMITS.requestTimeoutMs,
    keepAliveTimeout: LIMITS.keepAliveTimeoutMs,
    insecureHTTPParser: false,
  }, createHandler(table, options));
  server.setTimeout(LIMITS.socketTimeoutMs, (socket) => socket.destroy());
  server.on('clientError', rejectClient);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : listen.port;
      const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
      resolve({
        server,
        url: `http://${host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            const force = setTimeout(() => server.closeAllConnections(), LIMITS.drainTimeoutMs);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
