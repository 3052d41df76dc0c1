// The embedded server's request handler on stand-in requests and responses: what it writes, what it logs as sent, and what a real socket cannot show (a HEAD's dropped body, a bug's 500, a framing node refuses first).
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, test } from 'node:test';
import { createHandler, type Handler, type HandlerOptions } from '../../src/runtimes/server/handler.ts';
import { captureOutput } from '../support/capture.ts';
import { buildTable } from '../support/data.ts';

const table = buildTable();
const HOST = ['Host', 'localhost:3000'];

/** A response that records what the handler wrote; `failOnBody` throws where a body is written, as a bug would. */
class StandInResponse extends EventEmitter {
  /** The connection while node writes this answer; null once node has let go of it (or before its turn). */
  socket: object | null = {};
  shouldKeepAlive = true;
  headersSent = false;
  writableFinished = false;
  statusCode = 200;
  head: string[] | undefined;
  body: Buffer | undefined;
  heads = 0;
  ends = 0;

  constructor(private readonly failOnBody = false) {
    super();
  }

  removeHeader(): void {}

  writeHead(status: number, head: string[]): this {
    this.heads += 1;
    this.statusCode = status;
    this.head = head;
    this.headersSent = true;
    return this;
  }

  end(body?: Buffer): this {
    if (body !== undefined && this.failOnBody) throw new Error('a bug while writing the body');
    this.ends += 1;
    this.body = body;
    this.writableFinished = true;
    return this;
  }
}

interface StandInRequest extends EventEmitter {
  method: string;
  url: string;
  rawHeaders: string[];
  httpVersionMajor: number;
  httpVersionMinor: number;
  socket: { destroyed: boolean; destroy: () => void };
}

const requestOf = (method: string, url: string, rawHeaders: string[] = HOST, minor = 1): StandInRequest =>
  Object.assign(new EventEmitter(), {
    method,
    url,
    rawHeaders,
    httpVersionMajor: 1,
    httpVersionMinor: minor,
    socket: {
      destroyed: false,
      destroy(): void {
        this.destroyed = true;
      },
    },
  });

/** A handler with its access log read back as objects. */
function handlerWithLog(options: HandlerOptions = {}): { handler: Handler; log: Record<string, unknown>[] } {
  const log: Record<string, unknown>[] = [];
  return { handler: createHandler(table, { ...options, logLine: (line) => log.push(JSON.parse(line) as Record<string, unknown>) }), log };
}

const answer = (handler: Handler, req: StandInRequest, res = new StandInResponse()): StandInResponse => {
  handler(req as unknown as IncomingMessage, res as unknown as ServerResponse);
  return res;
};

/** A member of the problem document the response carries. */
const problemField = (res: StandInResponse, name: 'code' | 'detail'): unknown =>
  (JSON.parse(res.body?.toString('utf8') ?? 'null') as Record<string, unknown> | null)?.[name];

describe('the handler on stand-ins', () => {
  test('a HEAD gets the head of a problem and no body, logged as 0 bytes; the GET gets and logs the body', () => {
    const { handler, log } = handlerWithLog();
    const get = answer(handler, requestOf('GET', '/api/nothing'));
    const head = answer(handler, requestOf('HEAD', '/api/nothing'));
    assert.equal(get.statusCode, 404);
    assert.equal(head.statusCode, 404);
    assert.deepEqual(head.head, get.head, 'the same head');
    assert.equal(head.body, undefined, 'no body written for the HEAD');
    assert.equal(problemField(get, 'code'), 'not_found');
    assert.deepEqual(
      log.map((l) => [l.method, l.status, l.bytes, l.encoding]),
      [
        ['GET', 404, get.body?.length, 'identity'],
        ['HEAD', 404, 0, 'identity'],
      ],
    );
  });

  test('a preflight: 204 with no body, logged as 0 bytes in identity', () => {
    const { handler, log } = handlerWithLog();
    const res = answer(handler, requestOf('OPTIONS', '/api/markets', [...HOST, 'Origin', 'https://example.org', 'Access-Control-Request-Method', 'GET']));
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, undefined);
    assert.deepEqual(
      log.map((l) => [l.status, l.bytes, l.encoding]),
      [[204, 0, 'identity']],
    );
  });

  test('a Transfer-Encoding other than chunked alone, or in HTTP/1.0, is a 400 that closes; chunked alone is read', () => {
    const { handler } = handlerWithLog();
    for (const te of ['chunked, gzip', 'chunkedx', 'gzip', 'gzip, chunked', 'chunked, chunked']) {
      const res = answer(handler, requestOf('GET', '/api/markets', [...HOST, 'Transfer-Encoding', te]));
      assert.equal(res.statusCode, 400, te);
      assert.equal(problemField(res, 'detail'), 'The request has a Transfer-Encoding other than chunked.', te);
      assert.equal(res.shouldKeepAlive, false, `${te}: the connection closes`);
    }
    for (const te of ['chunked', ' chunked ', 'CHUNKED']) {
      const res = answer(handler, requestOf('GET', '/api/markets', [...HOST, 'Transfer-Encoding', te]));
      assert.equal(res.statusCode, 200, te);
    }
  });

  test('a field nginx takes once, sent twice, is a 400 that closes and names the field', () => {
    const { handler } = handlerWithLog();
    for (const name of ['If-None-Match', 'If-Modified-Since', 'Expect', 'Authorization']) {
      const res = answer(handler, requestOf('GET', '/api/markets', [...HOST, name, 'a', name.toLowerCase(), 'b']));
      assert.equal(res.statusCode, 400, name);
      assert.equal(problemField(res, 'detail'), `The request repeats the ${name.toLowerCase()} header, which it may send once.`, name);
      assert.equal(res.shouldKeepAlive, false, `${name}: the connection closes`);
    }
    const lists = answer(handler, requestOf('GET', '/api/markets', [...HOST, 'Accept-Encoding', 'gzip', 'Accept-Encoding', 'br']));
    assert.equal(lists.statusCode, 200, 'a list field repeated is joined');
  });

  test('a request that announces a body is answered before it, and tracked until the body has ended; one without is not', () => {
    const { handler } = handlerWithLog();
    const framed = requestOf('GET', '/api/markets', [...HOST, 'Content-Length', '5']);
    answer(handler, framed);
    assert.equal(handler.answeredBeforeBody(framed.socket as never), true, 'tracked while its body has not ended');
    framed.emit('end');
    assert.equal(handler.answeredBeforeBody(framed.socket as never), false, 'let go once it has');
    const plain = requestOf('GET', '/api/markets');
    answer(handler, plain);
    assert.equal(handler.answeredBeforeBody(plain.socket as never), false, 'a request without a body is not tracked');
  });

  test('the answer node has not finished with is known per connection: written, or queued behind another; none once node lets go of it', () => {
    const { handler } = handlerWithLog();
    const req = requestOf('GET', '/api/markets');
    const socket = req.socket as never;
    assert.equal(handler.answering(socket), undefined, 'nothing answered yet');
    const res = answer(handler, req);
    assert.equal(handler.answering(socket), res, 'written, node still holds the connection for it');
    res.socket = null;
    assert.equal(handler.answering(socket), undefined, 'node has let go of it');
    const queued = Object.assign(new StandInResponse(), { socket: null });
    answer(handler, Object.assign(requestOf('GET', '/api/markets'), { socket: req.socket }), queued);
    queued.writableFinished = false;
    assert.equal(handler.answering(socket), queued, 'queued behind another answer: not all of it has gone to the connection');
  });

  test('a request that expects 100-continue: its answer keeps the connection by saying so; an answer that closes it does not', () => {
    const { handler } = handlerWithLog();
    const kept = new StandInResponse();
    handler.continued(requestOf('GET', '/api/markets') as unknown as IncomingMessage, kept as unknown as ServerResponse);
    assert.equal(kept.statusCode, 200);
    assert.deepEqual(kept.head?.slice(-2), ['Connection', 'keep-alive']);
    const refused = new StandInResponse();
    handler.continued(requestOf('GET', '/a/../b') as unknown as IncomingMessage, refused as unknown as ServerResponse);
    assert.equal(refused.statusCode, 400);
    assert.ok(!(refused.head ?? []).includes('keep-alive'), 'a 400 closes: no keep-alive line');
    const plain = answer(handler, requestOf('GET', '/api/markets'));
    assert.ok(!(plain.head ?? []).includes('Connection'), 'a request without Expect: no Connection line');
  });

  test('once the server is draining, every answer closes its connection', () => {
    const { handler } = handlerWithLog();
    assert.equal(answer(handler, requestOf('GET', '/api/markets')).shouldKeepAlive, true, 'before: kept');
    handler.setDraining();
    const res = answer(handler, requestOf('GET', '/api/markets'));
    assert.equal(res.statusCode, 200);
    assert.equal(res.shouldKeepAlive, false, 'after: closed');
  });

  test('the size limit counts the request line, the header lines and the blank line as sent: 50 bytes fit in 50, not in 49', () => {
    // "GET /api/markets HTTP/1.1\r\n" is 27 bytes, "Host:localhost:3000\r\n" 21 (the space after the colon, which the
    // parser drops, is not counted), the blank line 2.
    assert.equal(answer(createHandler(table, { maxHeaderSize: 51 }), requestOf('GET', '/api/markets')).statusCode, 200);
    assert.equal(answer(createHandler(table, { maxHeaderSize: 50 }), requestOf('GET', '/api/markets')).statusCode, 200);
    const refused = answer(createHandler(table, { maxHeaderSize: 49 }), requestOf('GET', '/api/markets'));
    assert.equal(refused.statusCode, 431);
    assert.equal(problemField(refused, 'code'), 'headers_too_large');
    assert.equal(refused.shouldKeepAlive, false, 'the connection closes');
  });

  test('HTTP/1.0 without Host is served; HTTP/1.1 without Host, or with two, is a 400', () => {
    const { handler } = handlerWithLog();
    assert.equal(answer(handler, requestOf('GET', '/api/markets', [], 0)).statusCode, 200);
    assert.equal(answer(handler, requestOf('GET', '/api/markets', [])).statusCode, 400);
    assert.equal(answer(handler, requestOf('GET', '/api/markets', [...HOST, ...HOST])).statusCode, 400);
  });
});

describe('a bug in the handler', () => {
  const broken = (method: string): StandInRequest => Object.assign(requestOf(method, '/api/markets'), { rawHeaders: undefined as unknown as string[] });

  test('is answered once with a 500 problem that no cache keeps, its stack written to stderr', async () => {
    const { handler, log } = handlerWithLog();
    const { value: res, err: stderr } = await captureOutput(async () => answer(handler, broken('GET')));
    assert.equal(res.statusCode, 500);
    assert.equal(res.heads, 1, 'one head');
    const body = res.body ?? assert.fail('a body');
    assert.deepEqual(res.head, [
      'Content-Type',
      'application/problem+json',
      'Cache-Control',
      'no-store',
      'Access-Control-Allow-Origin',
      '*',
      'Access-Control-Expose-Headers',
      'ETag, Link, Content-Disposition',
      'X-Content-Type-Options',
      'nosniff',
      'Content-Length',
      String(body.length),
    ]);
    assert.equal(problemField(res, 'code'), 'internal_server_error');
    assert.match(stderr, /^internal error: TypeError: .*\n {4}at /, 'the error and its stack');
    assert.deepEqual(
      log.map((l) => [l.status, l.bytes, l.encoding]),
      [[500, body.length, 'identity']],
    );
  });

  test('a HEAD gets the 500 head only, logged as 0 bytes', async () => {
    const { handler, log } = handlerWithLog();
    const { value: res } = await captureOutput(async () => answer(handler, broken('HEAD')));
    assert.equal(res.statusCode, 500);
    assert.equal(res.body, undefined);
    assert.equal(res.ends, 1);
    assert.deepEqual(
      log.map((l) => [l.status, l.bytes, l.encoding]),
      [[500, 0, 'identity']],
    );
  });

  test('after the head was sent, the answer just ends: no second head', async () => {
    const { handler, log } = handlerWithLog();
    const { value: res, err: stderr } = await captureOutput(async () => answer(handler, requestOf('GET', '/api/markets'), new StandInResponse(true)));
    assert.equal(res.heads, 1, 'the 200 head only');
    assert.equal(res.statusCode, 200);
    assert.equal(res.ends, 1, 'ended once, without a body');
    assert.equal(res.body, undefined);
    assert.match(stderr, /^internal error: Error: a bug while writing the body\n/);
    assert.deepEqual(
      log.map((l) => [l.status, l.bytes, l.encoding]),
      [[200, 0, 'identity']],
    );
  });
});
