// The access log's lines on stand-in requests and responses: the fields in order, written once when the answer is flushed or the client went away, and a refused request's line.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { logRefused, logged, stdoutLine, type Sent } from '../../src/runtimes/server/access-log.ts';

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A response with the state `logged` reads; `finished`: already flushed when the handler returns. */
const responseOf = (statusCode: number, finished: boolean): ServerResponse =>
  Object.assign(new EventEmitter(), { statusCode, writableFinished: finished }) as unknown as ServerResponse;
const requestOf = (method: string | undefined, url: string | undefined): IncomingMessage => ({ method, url }) as IncomingMessage;

/** The lines written, parsed, with the time checked and left out (it is the clock's). */
function reader(): { lines: string[]; logLine: (line: string) => void; entries: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  return {
    lines,
    logLine: (line) => lines.push(line),
    entries: () =>
      lines.map((line) => {
        const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
        assert.match(String(time), ISO_TIME, 'an ISO 8601 time in UTC, to the millisecond');
        return rest;
      }),
  };
}

describe('logged: one line per request, from what the handler says it sent', () => {
  // The request's time: the clock read before the handler and when the line is written, 2.5 ms apart.
  beforeEach(() => {
    const readings = [1_000_000n, 3_500_000n];
    mock.method(process.hrtime, 'bigint', () => readings.shift() ?? 0n);
  });
  afterEach(() => mock.restoreAll());

  test('an answer flushed at once: its line at once, its fields in order, the query left out', () => {
    const log = reader();
    const sent: Sent = { bytes: 1234, encoding: 'br' };
    const handle = logged(() => sent, log.logLine);
    handle(requestOf('GET', '/api/markets/us-tx-austin?key=secret'), responseOf(200, true));
    assert.equal(log.lines.length, 1);
    assert.deepEqual(Object.keys(JSON.parse(log.lines[0] ?? '{}') as object), ['time', 'method', 'path', 'status', 'bytes', 'encoding', 'ms']);
    assert.deepEqual(log.entries(), [{ method: 'GET', path: '/api/markets/us-tx-austin', status: 200, bytes: 1234, encoding: 'br', ms: 2.5 }]);
  });

  // The line waits for whichever comes first: the answer flushed ('finish'), or the client gone ('close'); then no more.
  const pending = [
    { first: 'finish', then: 'close', method: 'HEAD', path: '/', status: 304, bytes: 0, encoding: 'identity' },
    { first: 'close', then: 'finish', method: 'GET', path: '/api/openapi.json', status: 200, bytes: 99, encoding: 'gzip' },
  ] as const;
  for (const { first, then, ...line } of pending) {
    test(`an answer still going out: its line on '${first}', once, none more on '${then}'`, () => {
      const log = reader();
      const res = responseOf(line.status, false);
      logged(() => ({ bytes: line.bytes, encoding: line.encoding }), log.logLine)(requestOf(line.method, line.path), res);
      assert.equal(log.lines.length, 0, 'nothing before either event');
      res.emit(first);
      assert.equal(log.lines.length, 1, `written on '${first}'`);
      res.emit(then);
      assert.deepEqual(log.entries(), [{ ...line, ms: 2.5 }]);
    });
  }

  test('the status is read when the line is written, after the handler set it', () => {
    const log = reader();
    const res = responseOf(200, true);
    logged(() => {
      res.statusCode = 404;
      return { bytes: 10, encoding: 'identity' };
    }, log.logLine)(requestOf('GET', '/nowhere'), res);
    assert.equal(log.entries()[0]?.['status'], 404);
  });

  test('a request without a method or a URL is logged with empty ones', () => {
    const log = reader();
    logged(() => ({ bytes: 0, encoding: 'identity' }), log.logLine)(requestOf(undefined, undefined), responseOf(400, true));
    assert.deepEqual(log.entries(), [{ method: '', path: '', status: 400, bytes: 0, encoding: 'identity', ms: 2.5 }]);
  });
});

test('logRefused: the method, no path, the status and bytes, identity, no time taken, and the parser reason', () => {
  const log = reader();
  logRefused(log.logLine, 'GET', 400, 123, 'HPE_INVALID_METHOD');
  assert.deepEqual(Object.keys(JSON.parse(log.lines[0] ?? '{}') as object), ['time', 'method', 'path', 'status', 'bytes', 'encoding', 'ms', 'error']);
  assert.deepEqual(log.entries(), [{ method: 'GET', path: '-', status: 400, bytes: 123, encoding: 'identity', ms: 0, error: 'HPE_INVALID_METHOD' }]);
});

test('stdoutLine: the line and a line feed on stdout, in one write', (t) => {
  const writes: unknown[] = [];
  t.mock.method(process.stdout, 'write', (chunk: unknown) => writes.push(chunk) > 0);
  stdoutLine('{"status":200}');
  t.mock.restoreAll();
  assert.deepEqual(writes, ['{"status":200}\n']);
});
