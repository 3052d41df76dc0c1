// The embedded server's listener: node:http with the limits and timeouts, answers on sockets the parser refused, and a graceful shutdown.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ALLOW, CONTENT_TYPES, UNCACHED_PROBLEM_HEADERS } from '../../protocol/headers.ts';
import { UNPARSABLE_REASON, badRequestProblem, methodProblem, problem, problemText, type ProblemDetails } from '../../protocol/problems.ts';
import { MAX_PATH_LENGTH } from '../../protocol/request-target.ts';
import { compressAll, type RouteTable } from '../../routes/route-table.ts';
import { logRefused, stdoutLine, type LogLine } from './access-log.ts';
import { createHandler, type Handler } from './handler.ts';

export type { AccessLogEntry } from './access-log.ts';

export interface ServerOptions {
  /** One JSON access-log line per request. */
  log?: boolean;
  /** Where access-log lines go; stdout by default. */
  logLine?: LogLine;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** The table being served (built for the bound port when a function was given). */
  table: RouteTable;
  /** Stops accepting, lets requests in flight finish (closing their connections after), then resolves. */
  close(): Promise<void>;
}

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

const TOKEN_METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32} /;

/**
 * Answers on a socket the HTTP parser gave up on (node has no request or response object there), then
 * closes it: after a framing error nothing further on the connection can be trusted.
 */
function clientErrorHandler(table: RouteTable, logLine: LogLine | undefined) {
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
    // 431 and 408 are connection-level answers with no route of their own: type about:blank, as the catalogue says.
    const p: ProblemDetails =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? problem(table.baseUrl, 'headers_too_large')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? problem(table.baseUrl, 'request_timeout')
          : unknownMethod
            ? methodProblem(table.baseUrl, undefined)
            : badRequestProblem(table.baseUrl, UNPARSABLE_REASON);
    const status = p.status;
    const body = Buffer.from(problemText(p));
    const headLines = [
      `HTTP/1.1 ${status} ${p.title}`,
      `Content-Type: ${CONTENT_TYPES.problem}`,
      ...UNCACHED_PROBLEM_HEADERS.map(([k, v]) => `${k}: ${v}`),
      ...(status === 405 ? [`${ALLOW[0]}: ${ALLOW[1]}`] : []),
      `Content-Length: ${body.length}`,
      'Connection: close',
    ].join('\r\n');
    // A HEAD that failed later in parsing still gets no body, so a client's framing stays right.
    const head = `${headLines}\r\n\r\n`;
    const isHead = raw.startsWith('HEAD ');
    socket.end(isHead ? head : Buffer.concat([Buffer.from(head), body]));
    // The request never reached the handler, so this is its one access-log line.
    if (logLine !== undefined)
      logRefused(logLine, TOKEN_METHOD.test(raw) ? raw.slice(0, raw.indexOf(' ')) : '-', status, isHead ? 0 : body.length, error.code ?? 'unknown');
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
  const logLine = options.log ? (options.logLine ?? stdoutLine) : undefined;

  /** Attaches every listener; runs before the event loop turns after listening, so no request arrives first. */
  const attach = (table: RouteTable): { handler: Handler; table: RouteTable } => {
    // Every variant compressed before the first request, not by it.
    compressAll(table);
    const handler = createHandler(table, logLine === undefined ? {} : { logLine });
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
