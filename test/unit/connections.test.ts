// How the embedded server ends its connections, on stand-in sockets and node's mock timers: the lingering close and its two bounds, idle and stalled clients, and when a reset is not possible.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, test, type TestContext } from 'node:test';
import { Connections, reset, sweepStalled } from '../../src/runtimes/server/connections.ts';

/** A socket as the server sees one: what it writes and ends, and the events node would emit. */
class StandIn extends EventEmitter {
  destroyed = false;
  writableEnded = false;
  writableFinished = false;
  readableEnded = false;
  writableLength = 0;
  /** What each end() was given (undefined: no bytes). */
  readonly ends: (string | Buffer | undefined)[] = [];
  /** What was pushed into the readable side from outside (the empty push that ends a read). */
  readonly pushed: Buffer[] = [];
  resets = 0;
  resumed = 0;
  destroySoon?: () => void;

  end(bytes?: string | Buffer): this {
    this.ends.push(bytes);
    this.writableEnded = true;
    return this;
  }
  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.emit('close', false);
    return this;
  }
  resetAndDestroy(): this {
    this.resets += 1;
    return this.destroy();
  }
  resume(): this {
    this.resumed += 1;
    return this;
  }
  push(chunk: Buffer): boolean {
    this.pushed.push(chunk);
    return true;
  }
  /** Everything written is in the kernel, and the FIN behind it. */
  finish(): void {
    this.writableFinished = true;
    this.emit('finish');
  }
  /** The client's FIN. */
  clientEnds(): void {
    this.readableEnded = true;
    this.emit('end');
  }
  /** Bytes from the client. */
  clientSends(): void {
    this.emit('data', Buffer.from('GET / HTTP/1.1\r\n\r\n'));
  }
}
const asSocket = (s: StandIn): Socket => s as unknown as Socket;

const TIME_MS = 30_000;
const TIMEOUT_MS = 5_000;

/** A server's connections on stand-ins, its lingering bounds nginx's defaults, on the test's clock. */
interface Server {
  connections: Connections;
  /** A new connection the server tracks. */
  tracked: () => StandIn;
  tick: (ms: number) => void;
}

function setUp(t: TestContext): Server {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const connections = new Connections({ lingeringTimeMs: TIME_MS, lingeringTimeoutMs: TIMEOUT_MS });
  const tracked = (): StandIn => {
    const s = new StandIn();
    connections.track(asSocket(s));
    return s;
  };
  return { connections, tracked, tick: (ms) => t.mock.timers.tick(ms) };
}

/** A connection closed by the server after its last answer, written out with the FIN behind it, the client still open: it lingers. */
function lingering(c: Server): StandIn {
  const s = c.tracked();
  c.connections.closeWhenWritten(asSocket(s));
  s.finish();
  return s;
}

describe('reset', () => {
  test('a connection is reset, unless its FIN waits for room in the kernel (node holds nothing, the end not finished): then closed plainly', () => {
    const open = new StandIn();
    const ended = Object.assign(new StandIn(), { writableEnded: true, writableLength: 10 });
    const finished = Object.assign(new StandIn(), { writableEnded: true, writableFinished: true });
    const waiting = Object.assign(new StandIn(), { writableEnded: true });
    for (const s of [open, ended, finished, waiting]) reset(asSocket(s));
    assert.deepEqual(
      [open, ended, finished, waiting].map((s) => [s.destroyed, s.resets]),
      [
        [true, 1],
        [true, 1],
        [true, 1],
        [true, 0],
      ],
    );
  });
});

test('sweepStalled: a socket is cut after a whole check period with its pending output unchanged, and not before', () => {
  const fake = (writableLength: number): StandIn => Object.assign(new StandIn(), { writableLength });
  const stuck = fake(4096);
  const reading = fake(4096);
  const idle = fake(0);
  const sockets = [stuck, reading, idle];
  const pending = new WeakMap<Socket, number>();
  assert.equal(sweepStalled(sockets.map(asSocket), pending), 0, 'the first check only records');
  reading.writableLength = 1024; // progress
  assert.equal(sweepStalled(sockets.map(asSocket), pending), 1);
  assert.ok(stuck.destroyed, 'stuck.destroyed');
  assert.equal(stuck.resets, 1, 'reset: the kernel drops what it could not deliver');
  assert.ok(!reading.destroyed && !idle.destroyed, '!reading.destroyed && !idle.destroyed');
  reading.writableLength = 0; // drained: forgotten
  assert.equal(sweepStalled([asSocket(reading)], pending), 0);
  reading.writableLength = 1024;
  assert.equal(sweepStalled([asSocket(reading)], pending), 0, 'a new backlog starts a new period');
});

test('sweepStalled: a FIN still waiting behind a full kernel buffer after a whole period: closed, plainly (no reset is possible then)', () => {
  const waiting = Object.assign(new StandIn(), { writableEnded: true });
  const pending = new WeakMap<Socket, number>();
  assert.equal(sweepStalled([asSocket(waiting)], pending), 0, 'the first check only records');
  assert.equal(sweepStalled([asSocket(waiting)], pending), 1);
  assert.ok(waiting.destroyed, 'waiting.destroyed');
  assert.equal(waiting.resets, 0);
});

describe('closing after the last answer', () => {
  test('a socket already destroyed: nothing is written or ended', (t) => {
    const c = setUp(t);
    const s = c.tracked();
    s.destroy();
    c.connections.closeWhenWritten(asSocket(s), 'bytes');
    assert.deepEqual(s.ends, []);
  });

  test('the last bytes go out with the FIN; a socket node has ended already gets nothing written after its end', (t) => {
    const c = setUp(t);
    const s = c.tracked();
    c.connections.closeWhenWritten(asSocket(s), 'last');
    assert.deepEqual(s.ends, ['last']);
    const ended = c.tracked();
    ended.writableEnded = true;
    c.connections.closeWhenWritten(asSocket(ended), 'late');
    assert.deepEqual(ended.ends, []);
  });

  test("node's own close after an answer (destroySoon) is the server's close, once however often it comes", (t) => {
    const c = setUp(t);
    const s = c.tracked();
    s.destroySoon?.();
    c.connections.closeIdle(asSocket(s));
    assert.deepEqual(s.ends, [undefined]);
  });

  test('the socket is let go only once everything is written, at once if the client has closed', (t) => {
    const c = setUp(t);
    const s = c.tracked();
    c.connections.closeWhenWritten(asSocket(s));
    s.readableEnded = true;
    assert.ok(!s.destroyed, 'not before the answer is in the kernel');
    s.finish();
    assert.ok(s.destroyed, 's.destroyed');
    assert.equal(c.connections.open.size, 0);
    const done = c.tracked();
    done.readableEnded = true;
    done.writableFinished = true;
    c.connections.closeWhenWritten(asSocket(done));
    assert.ok(done.destroyed, 'written and closed by the client already: let go at once');
    assert.equal(s.resets + done.resets, 0, 'closed, not reset');
  });

  test('what the client sends after the last request is read and thrown away; its close ends the connection', (t) => {
    const c = setUp(t);
    const s = c.tracked();
    let parsed = 0;
    s.on('data', () => (parsed += 1));
    c.connections.closeWhenWritten(asSocket(s));
    c.connections.drain(asSocket(s));
    s.clientSends();
    assert.equal(parsed, 0, "the parser's listener is gone");
    assert.equal(s.listenerCount('data'), 1, 'one listener that throws the bytes away, however often drained');
    assert.ok(s.resumed > 0, 's.resumed > 0');
    s.finish();
    assert.ok(!s.destroyed, 'the client has not closed: it lingers');
    s.clientEnds();
    assert.ok(s.destroyed, 's.destroyed');
    assert.equal(s.resets, 0, 'closed, not reset');
    assert.equal(c.connections.open.size, 0);
  });

  test('reads start again where node stopped them: an empty push ends the read its stream still counts; none on a stream that has ended', (t) => {
    const c = setUp(t);
    const s = c.tracked();
    c.connections.drain(asSocket(s));
    assert.deepEqual(s.pushed, [Buffer.alloc(0)]);
    const ended = c.tracked();
    ended.readableEnded = true;
    c.connections.drain(asSocket(ended));
    assert.deepEqual(ended.pushed, []);
  });
});

describe('the lingering close: bounded by the lingering timeout and the lingering time', () => {
  test('a client silent for the lingering timeout after the FIN is reset; what it sends counts the timeout again', (t) => {
    const c = setUp(t);
    const s = lingering(c);
    c.tick(TIMEOUT_MS - 1);
    assert.ok(!s.destroyed, 'not before the timeout');
    s.clientSends();
    c.tick(TIMEOUT_MS - 1);
    assert.ok(!s.destroyed, 'the bytes counted the timeout again');
    c.tick(1);
    assert.equal(s.resets, 1);
    assert.equal(c.connections.open.size, 0);
  });

  test('a client that goes on sending is reset at the lingering time', (t) => {
    const c = setUp(t);
    const s = lingering(c);
    for (let waited = 0; waited < TIME_MS - 1_000; waited += 1_000) {
      c.tick(1_000);
      s.clientSends();
    }
    assert.ok(!s.destroyed, 'not before the lingering time');
    c.tick(1_000);
    assert.equal(s.resets, 1);
  });

  test('the lingering counts from the FIN: answers still going out are not cut by it (the stalled-write check watches them)', (t) => {
    const c = setUp(t);
    const s = c.tracked();
    c.connections.closeWhenWritten(asSocket(s));
    c.tick(2 * TIME_MS);
    assert.ok(!s.destroyed, '!s.destroyed');
    s.finish();
    c.tick(TIMEOUT_MS);
    assert.equal(s.resets, 1);
  });

  test("the client's close clears the bounds: nothing happens to the socket after it", (t) => {
    const c = setUp(t);
    const s = lingering(c);
    s.clientEnds();
    c.tick(TIME_MS);
    assert.deepEqual([s.destroyed, s.resets], [true, 0]);
  });
});

describe('idle connections past the keep-alive timeout', () => {
  test('closed like any other: the FIN, and the client closes in turn', (t) => {
    const c = setUp(t);
    const s = c.tracked();
    c.connections.closeIdle(asSocket(s));
    assert.deepEqual(s.ends, [undefined], 'the FIN');
    s.finish();
    s.clientEnds();
    assert.deepEqual([s.destroyed, s.resets], [true, 0]);
  });

  test('a client that does not close (it has not read the answers, or holds the connection): reset after the lingering timeout', (t) => {
    const c = setUp(t);
    const s = c.tracked();
    c.connections.closeIdle(asSocket(s));
    s.finish();
    c.tick(TIMEOUT_MS);
    assert.equal(s.resets, 1);
  });
});

describe('the periodic sweep', () => {
  test('only connections with output waiting are remembered; a stalled one is reset at the second check', (t) => {
    const c = setUp(t);
    const quiet = c.tracked();
    const stalled = Object.assign(c.tracked(), { writableLength: 500 });
    assert.equal(c.connections.sweep(), 0);
    assert.equal(c.connections.sweep(), 1);
    assert.deepEqual([quiet.destroyed, stalled.resets], [false, 1]);
    assert.equal(c.connections.open.size, 1);
  });
});
