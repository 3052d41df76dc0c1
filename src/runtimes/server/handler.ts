// The request handler: checks the request, finds its answer (a route variant, a 304, a preflight, a problem) and writes it; returns what it sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { notModified } from '../../protocol/conditional.ts';
import { ALLOW } from '../../protocol/headers.ts';
import { chooseEncoding } from '../../protocol/negotiation.ts';
import { UNPARSABLE_REASON, badRequestProblem, methodProblem, problem } from '../../protocol/problems.ts';
import { HOST_COUNT_REASON, HOST_VALUE_REASON, ORIGIN_FORM_REASON, http09Target, validHost } from '../../protocol/request-target.ts';
import { judgeRequest } from '../../protocol/verdict.ts';
import type { RouteTable } from '../../routes/route-table.ts';
import { logged, type LogLine, type Sent } from './access-log.ts';
import { Answers, INTERNAL_ERROR, PREFLIGHT, problemAnswer, type Answer, type Flat, type PreparedRoute } from './answers.ts';
import { readFacts, repeatedReason, type RequestFacts } from './request-facts.ts';

export interface HandlerOptions {
  /** Where access-log lines go; no log without it. */
  logLine?: LogLine;
  /** Request line and headers, in bytes as sent (less the spaces around header values); larger requests get 431. */
  maxHeaderSize?: number;
  /** Where a file of dist/ refused at its first read is named (stderr by default). */
  warn?: (line: string) => void;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The request listener, plus the switch a shutdown flips so answers close their connections, the listener for a
 * request that expects 100-continue, and what the listener asks when the parser fails on a connection or hands it
 * over: was its request already answered before its body had arrived, and is an answer still going out on it?
 */
export type Handler = Listener & {
  setDraining(): void;
  /** A request with `Expect: 100-continue`: its final answer at once, without the interim 100. */
  continued: Listener;
  answeredBeforeBody(socket: Socket): boolean;
  /** The answer on this connection that node has not finished with yet (its 'finish' not emitted), if any. */
  answering(socket: Socket): ServerResponse | undefined;
};

const NOTHING: Sent = { bytes: 0, encoding: 'identity' };

/**
 * Writes the status line and headers. HTTP/1.1 connections persist unless a side says otherwise (RFC 9112 9.3), so
 * node's `Connection: keep-alive` and non-standard `Keep-Alive` lines are left out of answers that keep the connection
 * (about 50 bytes and two string builds less on every answer); `Connection: close` still goes out whenever the server
 * will close. node closes the connection after a final answer to `Expect: 100-continue` sent without the interim 100,
 * as the client may still send the body; for a request that declares none (`continued`), an answer that says
 * `Connection: keep-alive` keeps it.
 */
function writeHead(req: IncomingMessage, res: ServerResponse, status: number, head: Flat, continued: boolean): void {
  if (res.shouldKeepAlive && req.httpVersionMinor === 1) res.removeHeader('connection');
  res.writeHead(status, continued && res.shouldKeepAlive ? [...head, ...KEEP_ALIVE] : head);
}
const KEEP_ALIVE: Flat = ['Connection', 'keep-alive'];

function send(req: IncomingMessage, res: ServerResponse, answer: Answer, continued: boolean): Sent {
  writeHead(req, res, answer.status, answer.head, continued);
  if (req.method === 'HEAD') {
    res.end();
    return NOTHING;
  }
  res.end(answer.body);
  return { bytes: answer.body.length, encoding: 'identity' };
}

function serve(req: IncomingMessage, res: ServerResponse, route: PreparedRoute, facts: RequestFacts, answers: Answers, continued: boolean): Sent {
  const chosen = chooseEncoding(route, answers.accept(facts.acceptEncoding));
  if (chosen.refused !== undefined) return send(req, res, chosen.refused, continued);
  const encoding = chosen.variant.encoding;
  if (notModified(facts, chosen.variant.etag, route.lastModifiedMs)) {
    writeHead(req, res, 304, chosen.notModified, continued);
    res.end();
    return { bytes: 0, encoding };
  }
  writeHead(req, res, 200, chosen.ok, continued);
  if (req.method === 'HEAD') {
    res.end();
    return { bytes: 0, encoding };
  }
  res.end(chosen.body);
  return { bytes: chosen.body.length, encoding };
}

const CHUNKED_ONLY = /^\s*chunked\s*$/i;

/**
 * What is wrong with a request's version and headers, checked after its size and before its target, for every method
 * (CONNECT included): the version, Host, then the framing as nginx takes it. nginx refuses each of these before its
 * configuration runs.
 */
export function headerFault(req: IncomingMessage, facts: RequestFacts): string | undefined {
  if (req.httpVersionMajor !== 1) return UNPARSABLE_REASON;
  if (facts.hosts > 1 || (facts.hosts === 0 && req.httpVersionMinor === 1)) return HOST_COUNT_REASON;
  if (facts.host !== undefined && !validHost(facts.host)) return HOST_VALUE_REASON;
  // HTTP/1.0 has no chunked coding (RFC 9112 6.1): nginx refuses a body framed by Transfer-Encoding there.
  if (facts.transferEncoding !== undefined && req.httpVersionMinor === 0) return 'An HTTP/1.0 request has no Transfer-Encoding.';
  if (facts.repeated !== undefined) return repeatedReason(facts.repeated);
  // chunked alone, as nginx takes it (it refuses any other coding); no body is read.
  if (facts.transferEncoding !== undefined && !CHUNKED_ONLY.test(facts.transferEncoding)) return 'The request has a Transfer-Encoding other than chunked.';
  return undefined;
}

export function createHandler(table: RouteTable, options: HandlerOptions = {}): Handler {
  const maxHeaderSize = options.maxHeaderSize ?? Number.POSITIVE_INFINITY;
  const answers = new Answers(table, options.warn);
  /** Set while shutting down: every answer then closes its connection, so draining ends. */
  let draining = false;
  /**
   * Connections whose request announced a body that has not all arrived: its answer is sent at once, and if the body
   * then turns out malformed or too slow, the connection is closed without a second answer. Only requests with a
   * body are tracked.
   */
  const bodyPending = new WeakSet<Socket>();
  /** The last answer begun on each connection: node writes a connection's answers in order, so it is the last to finish. */
  const latest = new WeakMap<Socket, ServerResponse>();
  const awaitBody = (req: IncomingMessage): void => {
    const socket = req.socket;
    bodyPending.add(socket);
    req.once('end', () => bodyPending.delete(socket));
  };

  const badRequest = (req: IncomingMessage, res: ServerResponse, detail: string): Sent => {
    // The framing of what follows cannot be trusted: answer, then close.
    res.shouldKeepAlive = false;
    return send(req, res, problemAnswer(badRequestProblem(table.baseUrl, detail)), false);
  };

  const handle = (req: IncomingMessage, res: ServerResponse, continued: boolean): Sent => {
    if (draining) res.shouldKeepAlive = false;
    latest.set(req.socket, res);
    const target = req.url as string;
    const method = req.method as string;
    const facts = readFacts(req.rawHeaders);
    if (facts.framed) awaitBody(req);
    // The request line ("GET /x HTTP/1.1" and CRLF), the header lines and the blank line. node's parser has let through
    // what it counts (names, values and the target), which leaves out up to three bytes a line: 5,000 lines of "a:"
    // are 20 KB as sent and 5 KB as it counts.
    // HTTP/0.9 has no status line to answer with (nginx would send a bare body): no answer, the connection closes. Before
    // the size: nginx reads no header after such a line (node's parser does).
    if (req.httpVersionMajor === 0) {
      if (!http09Target(target)) return badRequest(req, res, ORIGIN_FORM_REASON);
      req.socket.destroy();
      return NOTHING;
    }
    if (method.length + target.length + 12 + facts.headerBytes + 2 > maxHeaderSize) {
      res.shouldKeepAlive = false;
      return send(req, res, problemAnswer(problem(table.baseUrl, 'headers_too_large')), false);
    }
    const fault = headerFault(req, facts);
    if (fault !== undefined) return badRequest(req, res, fault);
    const verdict = judgeRequest(method, target, answers.route, answers.classify);
    switch (verdict.kind) {
      case 'route':
        return serve(req, res, verdict.route, facts, answers, continued);
      case 'not_found':
        return send(req, res, answers.notFound(verdict.path), continued);
      case 'preflight':
        res.writeHead(204, continued && res.shouldKeepAlive ? [...PREFLIGHT, ...KEEP_ALIVE] : PREFLIGHT);
        res.end();
        return NOTHING;
      case 'bad_request':
        return badRequest(req, res, verdict.reason);
      case 'method_not_allowed':
        // nginx refuses TRACE before its configuration runs, with a problem that cannot name the path, and closes the
        // connection: so does this server, with the same problem.
        if (method === 'TRACE') {
          res.shouldKeepAlive = false;
          return send(req, res, problemAnswer(methodProblem(table.baseUrl, undefined), [ALLOW]), false);
        }
        return send(req, res, problemAnswer(methodProblem(table.baseUrl, method, verdict.path), [ALLOW]), continued);
    }
  };

  const guarded =
    (continued: boolean) =>
    (req: IncomingMessage, res: ServerResponse): Sent => {
      try {
        return handle(req, res, continued);
      } catch (error) {
        return fail(req, res, error);
      }
    };
  const listenerOf = (answer: (req: IncomingMessage, res: ServerResponse) => Sent): Listener =>
    options.logLine === undefined ? (req, res) => void answer(req, res) : logged(answer, options.logLine);
  const setDraining = (): void => {
    draining = true;
  };
  const answeredBeforeBody = (socket: Socket): boolean => bodyPending.has(socket);
  // An answer node has not let go of yet still holds its socket (node detaches it once 'finish' is emitted); one queued
  // behind another has not all gone to the socket yet.
  const answering = (socket: Socket): ServerResponse | undefined => {
    const res = latest.get(socket);
    return res !== undefined && (res.socket !== null || !res.writableFinished) ? res : undefined;
  };
  return Object.assign(listenerOf(guarded(false)), { setDraining, continued: listenerOf(guarded(true)), answeredBeforeBody, answering });
}

/** Last resort for a bug: log it, answer a 500 problem once, keep the process alive. */
function fail(req: IncomingMessage, res: ServerResponse, error: unknown): Sent {
  process.stderr.write(`internal error: ${(error as Error).stack ?? String(error)}\n`);
  if (res.headersSent) {
    res.end();
    return NOTHING;
  }
  res.writeHead(500, INTERNAL_ERROR.head);
  if (req.method === 'HEAD') {
    res.end();
    return NOTHING;
  }
  res.end(INTERNAL_ERROR.body);
  return { bytes: INTERNAL_ERROR.body.length, encoding: 'identity' };
}
