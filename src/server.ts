// The embedded server: answers from the in-memory route table with precomputed bytes and headers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ALLOW, NOT_FOUND_PAGE_HEADERS, NOT_MODIFIED_KEEP, ORIGIN_FORM_REASON, PREFLIGHT_HEADERS, PROBLEM_HEADERS, UNPARSABLE_REASON, badRequestProblem, marketProblem, methodProblem, notFoundProblem } from './answers.ts';
import type { ProblemDetails } from './render/problem.ts';
import { MAX_PATH_LENGTH, classifyPath } from './request-target.ts';
import { COMMON_HEADERS, CONTENT_TYPES, isApiPath, type Route, type RouteTable, type Variant } from './routes.ts';

/** Limits that keep a slow or hostile client from holding a socket; documented in docs/serving.md. */
export const LIMITS = {
  /** Request line plus headers, in bytes; larger requests get 431. */
  maxHeaderSize: 16 * 1024,
  /** Time allowed to receive the complete request headers (slow-loris guard). */
  headersTimeoutMs: 10_000,
  /** Time allowed to receive the complete request. */
  requestTimeoutMs: 15_000,
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: 5_000,
  /**
   * A connection whose answer cannot be delivered (a client that stops reading) is closed when its pending output
   * has not moved for one whole check period: after 15 to 30 s, like nginx's send_timeout.
   */
  stalledWriteCheckMs: 15_000,
  /** How long a shutdown waits for requests in flight before closing their sockets. */
  drainTimeoutMs: 10_000,
  /** Longer request paths are never a route; they answer 404 without being decoded. */
  maxPathLength: MAX_PATH_LENGTH,
  /** How often the parser checks headersTimeout and requestTimeout. */
  timeoutCheckIntervalMs: 1_000,
} as const;

type Flat = string[];
const flat = (pairs: readonly (readonly [string, string])[]): Flat => pairs.flatMap(([k, v]) => [k, v]);

interface PreparedVariant {
  variant: Variant;
  body: Buffer;
  /** Every header of the 200, flattened once so a response is one writeHead of ready strings. */
  ok: Flat;
  /** The headers a 304 may carry (RFC 9110 15.4.5) plus the common ones. */
  notModified: Flat;
}

interface PreparedRoute {
  identity: PreparedVariant;
  gzip: PreparedVariant | undefined;
  br: PreparedVariant | undefined;
  lastModifiedMs: number;
  preflight: Flat;
}

function prepare(route: Route, lastModifiedMs: number): PreparedRoute {
  const one = (variant: Variant): PreparedVariant => {
    const encoding: [string, string][] = variant.encoding === 'identity' ? [] : [['Content-Encoding', variant.encoding]];
    return {
      variant,
      body: variant.body,
      ok: flat([...route.headers, ...encoding, ['ETag', variant.etag], ['Content-Length', String(variant.body.length)]]),
      notModified: flat([...route.headers.filter(([k]) => NOT_MODIFIED_KEEP.has(k.toLowerCase())), ['ETag', variant.etag]]),
    };
  };
  return {
    identity: one(route.identity),
    gzip: route.gzip === undefined ? undefined : one(route.gzip),
    br: route.br === undefined ? undefined : one(route.br),
    lastModifiedMs,
    preflight: flat(PREFLIGHT_HEADERS),
  };
}

interface Acceptable {
  br: number;
  gzip: number;
  identity: number;
}

const NO_HEADER: Acceptable = { br: 0, gzip: 0, identity: 1 };
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Parses Accept-Encoding into the q-value of each coding we can send (RFC 9110 12.5.3). */
export function parseAcceptEncoding(header: string | undefined): Acceptable {
  if (header === undefined) return NO_HEADER;
  const explicit = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    let q = 1;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq === -1 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const value = param.slice(eq + 1).trim();
      // A malformed q-value is read as a refusal: sending a coding the client did not ask for is the worse error.
      q = QVALUE.test(value) ? Number(value) : 0;
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
  // When nothing is acceptable, identity is still sent (RFC 9110 12.5.3 allows ignoring the header).
  return best;
}

/** Weak comparison (RFC 9110 8.8.3.2): W/ prefixes are ignored, `*` matches any current representation. */
export function ifNoneMatchHits(header: string, etag: string): boolean {
  // The common case: a client echoing the one ETag it was given.
  if (header === etag) return true;
  const bare = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*') return true;
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === bare) return true;
  }
  return false;
}

const MARKET_PATH = /^\/api\/markets\/([^/]+)(\/csv)?$/;

export interface ServerOptions {
  /** One JSON access-log line per request. */
  log?: boolean;
  /** Where access-log lines go; stdout by default. */
  logLine?: (line: string) => void;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** The table being served (built for the bound port when a function was given). */
  table: RouteTable;
  /** Stops accepting, lets requests in flight finish (closing their connections after), then resolves. */
  close(): Promise<void>;
}

/** Access-log fields, in the order they are written; docs/serving.md describes each. */
export interface AccessLogEntry {
  time: string;
  method: string;
  path: string;
  status: number;
  /** Body bytes sent (0 for HEAD, 204 and 304). */
  bytes: number;
  encoding: string;
  ms: number;
}

/**
 * HTTP/1.1 connections persist unless a side says otherwise (RFC 9112 9.3), so node's `Connection: keep-alive` and
 * non-standard `Keep-Alive` lines are left out of answers that keep the connection; `Connection: close` still goes
 * out whenever the server will close. About 50 bytes and two string builds less on every answer.
 */
function quietKeepAlive(req: IncomingMessage, res: ServerResponse): void {
  if (res.shouldKeepAlive && req.httpVersionMinor === 1) res.removeHeader('connection');
}

/** What the handler just sent; read synchronously by the access log right after a request is handled. */
const outcome = { bytes: 0, encoding: 'identity' };

interface RequestFacts {
  acceptEncoding: string | undefined;
  ifNoneMatch: string | undefined;
  ifModifiedSince: string | undefined;
  /** More than one If-Modified-Since: the field must be ignored (RFC 9110 13.1.3). */
  imsInvalid: boolean;
  hosts: number;
  transferEncoding: string | undefined;
}

/** Field names are case-insensitive; the usual spellings are compared first so most requests never lowercase. */
const is = (name: string, canonical: string, lowercase: string): boolean => name === canonical || name === lowercase || name.toLowerCase() === lowercase;
const join = (prev: string | undefined, value: string): string => (prev === undefined ? value : `${prev}, ${value}`);

/** One pass over the raw header list instead of building req.headers, which is most of a request's cost. */
function readFacts(raw: readonly string[]): RequestFacts {
  let acceptEncoding: string | undefined;
  let ifNoneMatch: string | undefined;
  let ifModifiedSince: string | undefined;
  let imsInvalid = false;
  let hosts = 0;
  let transferEncoding: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    switch (name.length) {
      case 4:
        if (is(name, 'Host', 'host')) hosts += 1;
        break;
      case 13:
        if (is(name, 'If-None-Match', 'if-none-match')) ifNoneMatch = join(ifNoneMatch, raw[i + 1] as string);
        break;
      case 15:
        if (is(name, 'Accept-Encoding', 'accept-encoding')) acceptEncoding = join(acceptEncoding, raw[i + 1] as string);
        break;
      case 17:
        if (is(name, 'If-Modified-Since', 'if-modified-since')) {
          if (ifModifiedSince !== undefined) imsInvalid = true;
          ifModifiedSince = raw[i + 1];
        } else if (is(name, 'Transfer-Encoding', 'transfer-encoding')) transferEncoding = join(transferEncoding, raw[i + 1] as string);
        break;
      default:
        break;
    }
  }
  return { acceptEncoding, ifNoneMatch, ifModifiedSince, imsInvalid, hosts, transferEncoding };
}

/** The request listener, plus the switch a shutdown flips so answers close their connections. */
export type Handler = ((req: IncomingMessage, res: ServerResponse) => void) & { setDraining(): void };

export function createHandler(table: RouteTable, options: ServerOptions = {}): Handler {
  const lastModifiedMs = Date.parse(table.lastModified);
  const prepared = new Map<string, PreparedRoute>();
  for (const [path, route] of table.routes) prepared.set(path, prepare(route, lastModifiedMs));
  const knownIds = new Set(table.marketIds);
  const acceptCache = new Map<string, Acceptable>();
  const problemHead = flat([['Content-Type', CONTENT_TYPES.problem], ...PROBLEM_HEADERS]);
  const globalPreflight = flat(PREFLIGHT_HEADERS);
  /** Set while shutting down: every answer then closes its connection, so draining ends. */
  let draining = false;

  const negotiate = (header: string | undefined): Acceptable => {
    if (header === undefined) return NO_HEADER;
    let hit = acceptCache.get(header);
    if (hit === undefined) {
      hit = parseAcceptEncoding(header);
      // Bounded, so a client sending endless distinct headers cannot grow memory.
      if (acceptCache.size >= 256) acceptCache.clear();
      acceptCache.set(header, hit);
    }
    return hit;
  };

  /** A ready answer: status, every header (Content-Length included) and the body a GET gets. */
  interface Answer {
    status: number;
    head: Flat;
    body: Buffer;
  }

  const problemAnswer = (body: ProblemDetails, extra: Flat = []): Answer => {
    const bytes = Buffer.from(`${JSON.stringify(body, null, 2)}\n`);
    return { status: body.status, head: [...problemHead, ...extra, 'Content-Length', String(bytes.length)], body: bytes };
  };

  const send = (req: IncomingMessage, res: ServerResponse, answer: Answer): void => {
    quietKeepAlive(req, res);
    res.writeHead(answer.status, answer.head);
    outcome.encoding = 'identity';
    if (req.method === 'HEAD') {
      outcome.bytes = 0;
      res.end();
    } else {
      outcome.bytes = answer.body.length;
      res.end(answer.body);
    }
  };

  const sendProblem = (req: IncomingMessage, res: ServerResponse, body: ProblemDetails, extra: Flat = []): void => {
    send(req, res, problemAnswer(body, extra));
  };

  const badRequest = (req: IncomingMessage, res: ServerResponse, detail: string): void => {
    // The framing of what follows cannot be trusted: answer, then close.
    res.shouldKeepAlive = false;
    sendProblem(req, res, badRequestProblem(table.baseUrl, detail));
  };

  const notFoundPage: Answer = {
    status: 404,
    head: flat([['Content-Type', CONTENT_TYPES.html], ...NOT_FOUND_PAGE_HEADERS, ['Content-Length', String(table.notFoundPage.length)]]),
    body: table.notFoundPage,
  };

  const notFoundAnswer = (path: string): Answer => {
    if (!isApiPath(path)) return notFoundPage;
    const market = MARKET_PATH.exec(path);
    if (market !== null && market[1] !== undefined && market[1] !== 'csv' && !knownIds.has(market[1])) {
      return problemAnswer(marketProblem(table.baseUrl, market[1], path, table.marketIds));
    }
    return problemAnswer(notFoundProblem(table.baseUrl, path));
  };

  /**
   * Misses repeat (a mistyped id, a probe for /wp-admin), so their answers are kept in bounded maps: by decoded
   * path, and by the raw target so a repeat is not even decoded again. Clearing when full keeps memory bounded
   * whatever a client sends.
   */
  const notFoundCache = new Map<string, Answer>();
  const missCache = new Map<string, Answer>();
  const remember = (cache: Map<string, Answer>, key: string, answer: Answer): void => {
    if (cache.size >= 1024) cache.clear();
    cache.set(key, answer);
  };
  const notFound = (req: IncomingMessage, res: ServerResponse, path: string, raw: string): void => {
    let answer = notFoundCache.get(path);
    if (answer === undefined) {
      answer = notFoundAnswer(path);
      remember(notFoundCache, path, answer);
    }
    remember(missCache, raw, answer);
    send(req, res, answer);
  };

  const serve = (req: IncomingMessage, res: ServerResponse, route: PreparedRoute, facts: RequestFacts): void => {
    const chosen = choose(route, negotiate(facts.acceptEncoding));
    let fresh = false;
    // If-None-Match wins; If-Modified-Since is evaluated only without it (RFC 9110 13.2.2).
    if (facts.ifNoneMatch !== undefined) fresh = ifNoneMatchHits(facts.ifNoneMatch, chosen.variant.etag);
    else if (facts.ifModifiedSince !== undefined && !facts.imsInvalid) {
      const since = Date.parse(facts.ifModifiedSince);
      fresh = !Number.isNaN(since) && route.lastModifiedMs <= since;
    }
    outcome.encoding = chosen.variant.encoding;
    if (fresh) {
      outcome.bytes = 0;
      quietKeepAlive(req, res);
      res.writeHead(304, chosen.notModified);
      res.end();
      return;
    }
    quietKeepAlive(req, res);
    res.writeHead(200, chosen.ok);
    if (req.method === 'HEAD') {
      outcome.bytes = 0;
      res.end();
    } else {
      outcome.bytes = chosen.body.length;
      res.end(chosen.body);
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (draining) res.shouldKeepAlive = false;
    const target = req.url as string;
    const method = req.method as string;
    const facts = readFacts(req.rawHeaders);
    if (facts.hosts > 1 || (facts.hosts === 0 && req.httpVersionMinor === 1)) {
      badRequest(req, res, 'An HTTP/1.1 request carries exactly one Host header.');
      return;
    }
    if (facts.transferEncoding !== undefined && !/(?:^|,)\s*chunked\s*$/i.test(facts.transferEncoding)) {
      badRequest(req, res, 'The request has a Transfer-Encoding whose last coding is not chunked.');
      return;
    }
    if (target.charCodeAt(0) !== 47 /* "/" */) {
      if (method === 'OPTIONS' && target === '*') {
        res.writeHead(204, globalPreflight);
        outcome.bytes = 0;
        res.end();
        return;
      }
      badRequest(req, res, ORIGIN_FORM_REASON);
      return;
    }
    const q = target.indexOf('?');
    const raw = q === -1 ? target : target.slice(0, q);
    let route = prepared.get(raw);
    let path = raw;
    if (route === undefined && (method === 'GET' || method === 'HEAD')) {
      // A repeated miss skips decoding: only targets that were classified as not found are ever kept.
      const known = missCache.get(raw);
      if (known !== undefined) {
        send(req, res, known);
        return;
      }
    }
    if (route === undefined) {
      const verdict = classifyPath(raw);
      if (verdict.kind === 'bad_request') {
        badRequest(req, res, verdict.reason);
        return;
      }
      path = verdict.path;
      route = verdict.kind === 'route' ? prepared.get(path) : undefined;
    }
    if (method === 'GET' || method === 'HEAD') {
      if (route === undefined) notFound(req, res, path, raw);
      else serve(req, res, route, facts);
      return;
    }
    if (method === 'OPTIONS') {
      if (route === undefined) notFound(req, res, path, raw);
      else {
        outcome.bytes = 0;
        res.writeHead(204, route.preflight);
        res.end();
      }
      return;
    }
    sendProblem(req, res, methodProblem(table.baseUrl, method, path), [...ALLOW]);
  };

  const plain = (req: IncomingMessage, res: ServerResponse): void => {
    try {
      handle(req, res);
    } catch (error) {
      fail(res, error);
    }
  };
  const setDraining = (): void => {
    draining = true;
  };
  if (!options.log) return Object.assign(plain, { setDraining });

  const logLine = options.logLine ?? ((line: string) => process.stdout.write(`${line}\n`));
  const logged = (req: IncomingMessage, res: ServerResponse): void => {
    const started = process.hrtime.bigint();
    outcome.bytes = 0;
    outcome.encoding = 'identity';
    plain(req, res);
    const { bytes, encoding } = outcome;
    const write = (): void => {
      const entry: AccessLogEntry = {
        time: new Date().toISOString(),
        method: req.method ?? '',
        path: (req.url ?? '').split('?')[0] ?? '',
        status: res.statusCode,
        bytes,
        encoding,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      };
      logLine(JSON.stringify(entry));
    };
    if (res.writableFinished) write();
    else {
      // 'close' covers a client that went away before the answer was flushed; one line either way.
      let done = false;
      const once = (): void => {
        if (done) return;
        done = true;
        write();
      };
      res.once('finish', once);
      res.once('close', once);
    }
  };
  return Object.assign(logged, { setDraining });
}

/** Last resort for a bug: log it, answer 500 once, keep the process alive. */
function fail(res: ServerResponse, error: unknown): void {
  process.stderr.write(`internal error: ${(error as Error).stack ?? String(error)}\n`);
  if (!res.headersSent) {
    res.writeHead(500, ['Content-Type', CONTENT_TYPES.problem, 'Cache-Control', 'no-store', ...flat(COMMON_HEADERS), 'Content-Length', '0']);
  }
  res.end();
}

const TOKEN_METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32} /;

/**
 * Answers on a socket the HTTP parser gave up on (node has no request or response object there), then
 * closes it: after a framing error nothing further on the connection can be trusted.
 */
function clientErrorHandler(table: RouteTable, logLine: ((line: string) => void) | undefined) {
  return (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (!socket.writable || error.code === 'ECONNRESET' || error.code === 'EPIPE') {
      socket.destroy();
      return;
    }
    if (inFlight?.headersSent === true) {
      // An answer already went out for this request (its body was malformed): no second answer, just close.
      socket.end();
      return;
    }
    const raw = error.rawPacket?.subarray(0, 64).toString('latin1') ?? '';
    const unknownMethod = error.code === 'HPE_INVALID_METHOD' && TOKEN_METHOD.test(raw);
    // 431 and 408 are connection-level answers with no route of their own: type about:blank, as the catalog says.
    const p: ProblemDetails | { type: string; title: string; status: number; detail: string; code: string } =
      error.code === 'HPE_HEADER_OVERFLOW' ? { type: 'about:blank', title: 'Request header fields too large', status: 431, detail: `The request line and headers exceed ${LIMITS.maxHeaderSize} bytes.`, code: 'headers_too_large' } :
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? { type: 'about:blank', title: 'Request timeout', status: 408, detail: `The request was not received within ${LIMITS.requestTimeoutMs / 1000} s.`, code: 'request_timeout' } :
      unknownMethod ? methodProblem(table.baseUrl, undefined) :
      badRequestProblem(table.baseUrl, UNPARSABLE_REASON);
    const status = p.status;
    const body = Buffer.from(`${JSON.stringify(p, null, 2)}\n`);
    const headLines = [
      `HTTP/1.1 ${status} ${p.title}`,
      `Content-Type: ${CONTENT_TYPES.problem}`,
      'Cache-Control: no-store',
      ...COMMON_HEADERS.map(([k, v]) => `${k}: ${v}`),
      ...(status === 405 ? [`${ALLOW[0]}: ${ALLOW[1]}`] : []),
      `Content-Length: ${body.length}`,
      'Connection: close',
    ].join('\r\n');
    // A HEAD that failed later in parsing still gets no body, so a client's framing stays right.
    const head = `${headLines}\r\n\r\n`;
    const isHead = raw.startsWith('HEAD ');
    socket.end(isHead ? head : Buffer.concat([Buffer.from(head), body]));
    if (logLine !== undefined) {
      // The request never reached the handler, so this is its one access-log line; the parser's reason is added.
      const method = TOKEN_METHOD.test(raw) ? raw.slice(0, raw.indexOf(' ')) : '-';
      const entry: AccessLogEntry & { error: string } = { time: new Date().toISOString(), method, path: '-', status, bytes: isHead ? 0 : body.length, encoding: 'identity', ms: 0, error: error.code ?? 'unknown' };
      logLine(JSON.stringify(entry));
    }
  };
}

/**
 * One check period: a socket with output waiting in node (the client is not reading) and the same amount waiting
 * as at the previous check has made no progress for a whole period, and is closed.
 */
export function sweepStalled(sockets: Iterable<Socket>, pending: WeakMap<Socket, number>): number {
  let closed = 0;
  for (const socket of sockets) {
    const waiting = socket.writableLength;
    if (waiting > 0 && pending.get(socket) === waiting) {
      socket.destroy();
      closed += 1;
    }
    if (waiting > 0) pending.set(socket, waiting);
    else pending.delete(socket);
  }
  return closed;
}

/**
 * A route table, or a function that builds one for the port actually bound: with port 0 and no BASE_URL the links
 * can only be made once the system has chosen the port.
 */
export type TableSource = RouteTable | ((boundPort: number) => RouteTable);

export function startServer(source: TableSource, listen: { host: string; port: number }, options: ServerOptions = {}): Promise<RunningServer> {
  const server = createServer({
    maxHeaderSize: LIMITS.maxHeaderSize,
    headersTimeout: LIMITS.headersTimeoutMs,
    requestTimeout: LIMITS.requestTimeoutMs,
    keepAliveTimeout: LIMITS.keepAliveTimeoutMs,
    connectionsCheckingInterval: LIMITS.timeoutCheckIntervalMs,
    insecureHTTPParser: false,
    // Checked in the handler, so the 400 carries a problem document like every other error.
    requireHostHeader: false,
  });
  // Not server.setTimeout: node re-arms that per-socket timer on every request, a measurable share of an answer.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const pending = new WeakMap<Socket, number>();
  const stalledCheck = setInterval(() => sweepStalled(sockets, pending), LIMITS.stalledWriteCheckMs);
  stalledCheck.unref();
  server.once('close', () => clearInterval(stalledCheck));
  const logLine = options.log ? (options.logLine ?? ((line: string) => process.stdout.write(`${line}\n`))) : undefined;

  /** Attaches every listener; runs before the event loop turns after listening, so no request arrives first. */
  const attach = (table: RouteTable): { handler: Handler; table: RouteTable } => {
    const handler = createHandler(table, options);
    server.on('request', handler);
    const reject = clientErrorHandler(table, logLine);
    server.on('clientError', reject);
    // An Expect other than 100-continue is ignored (RFC 9110 10.1.1 allows it): the answer is the same bytes.
    server.on('checkExpectation', handler);
    // CONNECT is not a method of this service; without a listener node would drop the socket silently.
    server.on('connect', (_req: IncomingMessage, socket: Socket) => {
      const error = Object.assign(new Error('CONNECT'), { code: 'HPE_INVALID_METHOD', rawPacket: Buffer.from('CONNECT ') });
      reject(error, socket);
    });
    return { handler, table };
  };
  const ready = typeof source === 'function' ? undefined : attach(source);

  return new Promise((resolve, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(listen.port, listen.host, () => {
      server.off('error', rejectListen);
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : listen.port;
      let attached: { handler: Handler; table: RouteTable };
      try {
        attached = ready ?? attach((source as (boundPort: number) => RouteTable)(port));
      } catch (error) {
        server.close();
        rejectListen(error);
        return;
      }
      const { handler, table } = attached;
      const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
      let closing: Promise<void> | undefined;
      resolve({
        server,
        url: `http://${host}:${port}`,
        table,
        close: () => {
          closing ??= new Promise<void>((done) => {
            handler.setDraining();
            // Keep-alive connections between requests are closed at once; busy ones close after their answer.
            const sweep = setInterval(() => server.closeIdleConnections(), 50);
            const force = setTimeout(() => server.closeAllConnections(), LIMITS.drainTimeoutMs);
            sweep.unref();
            force.unref();
            server.close(() => {
              clearInterval(sweep);
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          });
          return closing;
        },
      });
    });
  });
}
