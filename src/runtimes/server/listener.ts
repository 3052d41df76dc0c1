// The embedded server's listener: node:http with the limits and timeouts, answers on sockets the parser refused, and a graceful shutdown.
import { ServerResponse, createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ALLOW, CONTENT_TYPES, UNCACHED_PROBLEM_HEADERS } from '../../protocol/headers.ts';
import { UNPARSABLE_REASON, badRequestProblem, methodProblem, problem, problemText, type ProblemDetails } from '../../protocol/problems.ts';
import { LIMITS, type Limits } from '../../protocol/limits.ts';
import { HTTP09_TARGET, http09Target } from '../../protocol/request-target.ts';
import { judgeRequest } from '../../protocol/verdict.ts';
import type { RouteTable } from '../../routes/route-table.ts';
import { compressAll } from '../../routes/variants.ts';
import { logRefused, stdoutLine, type LogLine } from './access-log.ts';
import { Connections } from './connections.ts';
import { createHandler, headerFault, type Handler } from './handler.ts';
import { readFacts } from './request-facts.ts';

export type { AccessLogEntry } from './access-log.ts';

export interface ServerOptions {
  /** One JSON access-log line per request. */
  log?: boolean;
  /** Where access-log lines go; stdout by default. */
  logLine?: LogLine;
  /** Shorter limits, for tests that watch a timeout happen; a running service uses LIMITS. */
  limits?: Partial<Limits>;
  /** Where a file of dist/ refused at its first read is named; stderr by default. */
  warn?: (line: string) => void;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** The table being served (built for the bound port when a function was given). */
  table: RouteTable;
  /** The open connections, for tests that count them. */
  connections: Connections;
  /** Stops accepting, lets requests in flight finish (closing their connections after), then resolves. */
  close(): Promise<void>;
}

/**
 * A request line whose method node's parser does not know, but nginx's would (upper-case letters, "_" and "-"): it
 * gets what the handler would give such a method (the target's 400 if the target is bad, else 405). Any other first
 * word is 400.
 */
const UNKNOWN_METHOD_LINE = /^([A-Z_-]+) +([^ ]+) +HTTP\/1\.[01]\r?$/;
/** The method of a refused request, for its log line: the first word, when it is a token. */
const LOGGED_METHOD = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) /;
/**
 * A request line of two words, method and path, and no version (or `HTTP/0.9`, which node's parser reads alike): HTTP/0.9,
 * which has no status line to answer with. As nginx reads it: a method of upper-case letters, `_` and `-`, and a path;
 * any other such line (`GET  HTTP/1.1`, `get /`) is 400.
 */
const NO_VERSION = new RegExp(`^[A-Z_-]+ +${HTTP09_TARGET}[^\\x00-\\x20\\x7f]*(?: +HTTP/0\\.9)? *\r*$`);

/** The first line of what the parser failed on, when it ends there. */
function firstLine(packet: Buffer | undefined): string | undefined {
  const eol = packet?.indexOf(10) ?? -1;
  return eol === -1 ? undefined : packet?.subarray(0, eol).toString('latin1');
}

/** Writes one problem answer on a raw socket (no request or response object exists there), closing it once written; returns the body bytes sent. */
function refuse(connections: Connections, socket: Socket, p: ProblemDetails, head: boolean): number {
  const body = Buffer.from(problemText(p));
  const headLines = [
    `HTTP/1.1 ${p.status} ${p.title}`,
    `Content-Type: ${CONTENT_TYPES.problem}`,
    ...UNCACHED_PROBLEM_HEADERS.map(([k, v]) => `${k}: ${v}`),
    ...(p.status === 405 ? [`${ALLOW[0]}: ${ALLOW[1]}`] : []),
    `Content-Length: ${body.length}`,
    'Connection: close',
  ].join('\r\n');
  // A HEAD that failed later in parsing still gets no body, so a client's framing stays right.
  const bytes = Buffer.from(`${headLines}\r\n\r\n`);
  connections.closeWhenWritten(socket, head ? bytes : Buffer.concat([bytes, body]));
  return head ? 0 : body.length;
}

/** What the handler would answer a method node's parser does not know: the target's 400 when it is bad, else 405. */
function unknownMethodProblem(baseUrl: string, method: string, target: string): ProblemDetails {
  const verdict = judgeRequest(method, target, () => undefined);
  if (verdict.kind === 'bad_request') return badRequestProblem(baseUrl, verdict.reason);
  return methodProblem(baseUrl, method, verdict.kind === 'method_not_allowed' ? verdict.path : undefined);
}

/**
 * Answers on a socket the HTTP parser gave up on, then closes it: after a framing error nothing further on the
 * connection can be trusted, and nothing more is parsed. A request already answered (its body turned out malformed or
 * too slow) gets no second answer; when an answer to an earlier pipelined request is still going out, the bad request
 * gets none either (the client sends it again on a new connection, RFC 9112 9.3.2), and a request line without a
 * version (HTTP/0.9) gets none at all. Bytes after a request that closes the connection are no request: the answers
 * go out, then the close. Every answer given is delivered before the close (Connections.closeWhenWritten).
 */
function clientErrorHandler(table: RouteTable, logLine: LogLine | undefined, handler: Handler, connections: Connections) {
  return (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE') {
      socket.destroy();
      return;
    }
    connections.drain(socket);
    // Already closing, or about to once the last answer is written (node calls destroySoon then).
    if (!socket.writable || error.code === 'HPE_CLOSED_CONNECTION') return;
    if (handler.answering(socket) !== undefined || handler.answeredBeforeBody(socket)) {
      connections.closeWhenWritten(socket);
      return;
    }
    answerRefused(table, logLine, connections, error, socket);
  };
}

/** The answer to a request the parser refused: 431, 408, the method's 405 or 400, or none for HTTP/0.9. */
function answerRefused(
  table: RouteTable,
  logLine: LogLine | undefined,
  connections: Connections,
  error: NodeJS.ErrnoException & { rawPacket?: Buffer },
  socket: Socket,
): void {
  const line = firstLine(error.rawPacket);
  // The client ended its side before its request was whole (HPE_INVALID_EOF_STATE): as nginx, no answer, the close.
  if (error.code === 'HPE_INVALID_EOF_STATE' || (line !== undefined && NO_VERSION.test(line))) {
    connections.closeWhenWritten(socket);
    return;
  }
  // node's parser knows PRI only as the HTTP/2 preface (`PRI * HTTP/2.0`): any other PRI line is an unknown method, as for nginx.
  const unknown =
    error.code === 'HPE_INVALID_METHOD' || (error.code === 'HPE_INVALID_VERSION' && line?.startsWith('PRI ') === true)
      ? UNKNOWN_METHOD_LINE.exec(line ?? '')
      : null;
  // 431 and 408 are connection-level answers with no route of their own: type about:blank, as the catalogue says.
  const p: ProblemDetails =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? problem(table.baseUrl, 'headers_too_large')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? problem(table.baseUrl, 'request_timeout')
        : unknown !== null
          ? unknownMethodProblem(table.baseUrl, unknown[1] as string, unknown[2] as string)
          : badRequestProblem(table.baseUrl, UNPARSABLE_REASON);
  const method = LOGGED_METHOD.exec(error.rawPacket?.subarray(0, 64).toString('latin1') ?? '')?.[1];
  const bytes = refuse(connections, socket, p, method === 'HEAD');
  // The request never reached the handler, so this is its one access-log line.
  if (logLine !== undefined) logRefused(logLine, method ?? '-', p.status, bytes, error.code ?? 'unknown');
}

/**
 * A request with `Upgrade` (node hands it over as an upgrade whenever a listener exists, and drops what was pipelined
 * behind it when none does) is answered like any other request; then the connection goes back to the HTTP server with
 * the bytes that followed, so every pipelined request gets its answer, in order.
 */
function upgradeHandler(server: Server, handler: Handler, connections: Connections) {
  return (req: IncomingMessage, socket: Socket, head: Buffer): void => {
    // An answer to a request pipelined before this one may still be going out: this one waits its turn.
    const inFlight = handler.answering(socket);
    if (inFlight !== undefined) {
      inFlight.once('finish', () => answer(req, socket, head));
      return;
    }
    answer(req, socket, head);
  };

  function answer(req: IncomingMessage, socket: Socket, head: Buffer): void {
    if (socket.destroyed) return;
    const res = new ServerResponse(req);
    res.shouldKeepAlive = req.complete && req.httpVersionMinor === 1 && !/(?:^|,)\s*close\s*(?:,|$)/i.test(req.headers.connection ?? '');
    res.assignSocket(socket);
    res.once('finish', () => {
      res.detachSocket(socket);
      if (!res.shouldKeepAlive) {
        connections.closeWhenWritten(socket);
        return;
      }
      if (head.length > 0) socket.unshift(head);
      server.emit('connection', socket);
      socket.resume();
    });
    handler(req, res);
  }
}

/**
 * A route table, or a function that builds one for the port actually bound: with port 0 and no BASE_URL the links
 * can only be made once the system has chosen the port.
 */
export type TableSource = RouteTable | ((boundPort: number) => RouteTable);

export function startServer(source: TableSource, listen: { host: string; port: number }, options: ServerOptions = {}): Promise<RunningServer> {
  const limits: Limits = { ...LIMITS, ...options.limits };
  const server = createServer({
    maxHeaderSize: limits.maxHeaderSize,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    insecureHTTPParser: false,
    // Checked in the handler, so the 400 carries a problem document like every other error.
    requireHostHeader: false,
  });
  // No count of header lines apart from their bytes (maxHeaderSize bounds both: at most about 4,000 lines). node's own
  // count (2,000 names and values) silently drops the lines after about the thousandth on Node 20, an If-None-Match or
  // a second Host among them, and refuses 1,000 small headers with 431 on Node 22 and later; nginx answers them.
  server.maxHeadersCount = 0;
  // node waits keepAliveTimeout plus this margin (1 s by default in newer versions) before closing an idle connection.
  (server as Server & { keepAliveTimeoutBuffer?: number }).keepAliveTimeoutBuffer = 0;
  // Not server.setTimeout: node re-arms that per-socket timer on every request, a measurable share of an answer.
  const connections = new Connections(limits);
  server.on('connection', (socket: Socket) => connections.track(socket));
  // The keep-alive timeout: the server, not node, decides how an idle connection ends (see Connections.closeIdle).
  server.on('timeout', (socket: Socket) => connections.closeIdle(socket));
  const stalledCheck = setInterval(() => connections.sweep(), limits.stalledWriteCheckMs);
  stalledCheck.unref();
  server.once('close', () => clearInterval(stalledCheck));
  const logLine = options.log ? (options.logLine ?? stdoutLine) : undefined;

  /** Attaches every listener; runs before the event loop turns after listening, so no request arrives first. */
  const attach = (table: RouteTable): { handler: Handler; table: RouteTable } => {
    // Every variant compressed before the first request, not by it.
    compressAll(table.routes.values());
    const handler = createHandler(table, {
      maxHeaderSize: limits.maxHeaderSize,
      ...(logLine === undefined ? {} : { logLine }),
      ...(options.warn === undefined ? {} : { warn: options.warn }),
    });
    server.on('request', handler);
    server.on('clientError', clientErrorHandler(table, logLine, handler, connections));
    // An Expect other than 100-continue is ignored (RFC 9110 10.1.1 allows it): the answer is the same bytes.
    server.on('checkExpectation', handler);
    // 100-continue gets the final answer at once, without an interim 100 (RFC 9110 10.1.1 allows it; no answer here
    // needs the body), as nginx does. node's own 100, for a request pipelined behind another, went out between the
    // headers and the body of that request's answer. node then closes the connection, as the client may still send the
    // body; a request that declares no body has none to send, so its connection stays open, as on nginx.
    server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) handler.continued(req, res);
      else handler(req, res);
    });
    server.on('upgrade', upgradeHandler(server, handler, connections));
    // CONNECT is not a method of this service: 405 for a path, 400 for the authority form it is meant for (not a path).
    // The checks of any request come first (and on nginx): HTTP/0.9 unanswered, the version and headers, the target's rules.
    server.on('connect', (req: IncomingMessage, socket: Socket) => {
      const target = req.url ?? '';
      if (req.httpVersionMajor === 0 && http09Target(target)) {
        connections.closeWhenWritten(socket);
        return;
      }
      const fault = headerFault(req, readFacts(req.rawHeaders));
      // A path that breaks a rule is 400, any other 405; the authority form it is meant for is no path: 400.
      const verdict = judgeRequest('CONNECT', target, () => undefined);
      refuse(
        connections,
        socket,
        fault !== undefined
          ? badRequestProblem(table.baseUrl, fault)
          : verdict.kind === 'bad_request'
            ? badRequestProblem(table.baseUrl, verdict.reason)
            : methodProblem(table.baseUrl, undefined),
        false,
      );
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
        connections,
        close: () => {
          closing ??= new Promise<void>((done) => {
            handler.setDraining();
            // Keep-alive connections between requests are closed at once; busy ones close after their answer.
            const sweep = setInterval(() => server.closeIdleConnections(), 50);
            const force = setTimeout(() => server.closeAllConnections(), limits.drainTimeoutMs);
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
