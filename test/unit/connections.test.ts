// How the embedded server ends its connections, on stand-in sockets with the kernel's table given: the reset node refuses, the lingering close, idle and stalled clients, and what a missing table entry means.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { describe, test, type TestContext } from 'node:test';
import { Connections, kernelQueues, resetConnection, sweepStalled } from '../../src/runtimes/server/connections.ts';

/** node's handle under a socket, as far as the server reads it. */
interface Handle {
  fd?: number;
  reading?: boolean;
  readStart?: () => number;
  close?: (done: () => void) => void;
}

/** A socket as the server sees one: what it writes and ends, and the events node would emit. */
class StandIn extends EventEmitter {
  destroyed = false;
  writableEnded = false;
  writableFinished = false;
  readableEnded = false;
  writableLength = 0;
  /** What each end() was given (undefined: no bytes). */
  readonly ends: (string | Buffer | undefined)[] = [];
  resets = 0;
  resumed = 0;
  _handle: Handle | null = null;

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
  /** Everything written is in the kernel. */
  finish(): void {
    this.writableFinished = true;
    this.emit('finish');
  }
  /** The client's FIN. */
  clientEnds(): void {
    this.readableEnded = true;
    this.emit('end');
  }
}
const asSocket = (s: StandIn): Socket => s as unknown as Socket;

const CHECK_MS = 250;

/** The kernel's table as a test sets it: each socket's queue, or absent; `undefined` for no table at all (not Linux). */
class Table {
  queues: Map<StandIn, number> | undefined = new Map();
  /** The sockets of each read. */
  readonly reads: StandIn[][] = [];
  readonly read = (sockets: Iterable<Socket>): Map<Socket, number> | undefined => {
    const asked = [...sockets] as unknown as StandIn[];
    this.reads.push(asked);
    if (this.queues === undefined) return undefined;
    return new Map(asked.flatMap((s): [Socket, number][] => (this.queues?.has(s) === true ? [[asSocket(s), this.queues.get(s) ?? 0]] : [])));
  };
}

/** A server's connections on stand-ins, with the delivered check and the idle batch on the test's clock. */
interface Server {
  connections: Connections;
  table: Table;
  /** A new connection the server tracks. */
  tracked: () => StandIn;
  /** A new connection past its keep-alive timeout, its kernel queue `queue` (absent from the table if undefined), after the turn that reads it. */
  idle: (queue?: number) => StandIn;
  tick: (ms?: number) => void;
}

function setUp(t: TestContext): Server {
  t.mock.timers.enable({ apis: ['setInterval', 'setImmediate'] });
  const table = new Table();
  const connections = new Connections(CHECK_MS, table.read);
  const tick = (ms = CHECK_MS): void => t.mock.timers.tick(ms);
  const tracked = (): StandIn => {
    const s = new StandIn();
    connections.track(asSocket(s));
    return s;
  };
  const idle = (queue?: number): StandIn => {
    const s = tracked();
    if (queue !== undefined) table.queues?.set(s, queue);
    connections.closeIdle(asSocket(s));
    tick(0);
    return s;
  };
  return { connections, table, tracked, idle, tick };
}

/** A connection closed by the server after its last answer, written out, the client still open: it lingers. */
function lingering(c: Server): StandIn {
  const s = c.tracked();
  c.connections.closeWhenWritten(asSocket(s));
  s.finish();
  return s;
}

describe('resetConnection', () => {
  /** A socket whose reset the kernel refuses: node emits the reset's error and lets go of its handle without closing it. */
  function refusing(withHandle: boolean, syscall = 'reset'): { socket: StandIn; handleClosed: () => boolean; closes: unknown[] } {
    let handleClosed = false;
    const socket = new StandIn();
    socket._handle = withHandle
      ? {
          close(done: () => void) {
            handleClosed = true;
            done();
          },
        }
      : null;
    socket.resetAndDestroy = function (this: StandIn) {
      this._handle = null;
      this.emit('error', Object.assign(new Error(`${syscall} EINVAL`), { code: 'EINVAL', syscall }));
      return this;
    };
    const closes: unknown[] = [];
    socket.on('close', (hadError: unknown) => closes.push(hadError));
    return { socket, handleClosed: () => handleClosed, closes };
  }

  test('a reset the kernel refuses (a FIN waiting behind a full send buffer) still closes the descriptor and the socket', () => {
    const { socket, handleClosed, closes } = refusing(true);
    resetConnection(asSocket(socket));
    assert.ok(handleClosed(), 'the handle node let go of is closed (the descriptor is freed)');
    assert.deepEqual(closes, [false], "the socket's close is emitted, without an error (it leaves the server's set of connections)");
  });

  test('another error during the reset leaves the handle to node', () => {
    const { socket, handleClosed, closes } = refusing(true, 'read');
    resetConnection(asSocket(socket));
    assert.ok(!handleClosed(), '!handleClosed()');
    assert.deepEqual(closes, []);
  });

  test('a refused reset of a socket that had no handle left is no error of the server', () => {
    const { socket, closes } = refusing(false);
    assert.doesNotThrow(() => resetConnection(asSocket(socket)));
    assert.deepEqual(closes, []);
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
  assert.ok(!reading.destroyed && !idle.destroyed, '!reading.destroyed && !idle.destroyed');
  reading.writableLength = 0; // drained: forgotten
  assert.equal(sweepStalled([asSocket(reading)], pending), 0);
  reading.writableLength = 1024;
  assert.equal(sweepStalled([asSocket(reading)], pending), 0, 'a new backlog starts a new period');
});

describe('kernelQueues', { skip: existsSync('/proc/self/net/tcp') ? false : 'the kernel has no /proc/self/net/tcp (not Linux)' }, () => {
  test('a socket without a descriptor is left out, and the table still answers', () => {
    const gone = new StandIn();
    const negative = new StandIn();
    negative._handle = { fd: -1 };
    const none = new StandIn();
    none._handle = {};
    const queues = kernelQueues([gone, negative, none].map(asSocket));
    assert.ok(queues instanceof Map, 'a table, not "the kernel does not say"');
    assert.equal(queues.size, 0);
  });

  test('a descriptor /proc cannot resolve: undefined, as where the kernel does not say', () => {
    const unknown = new StandIn();
    unknown._handle = { fd: 2 ** 30 };
    assert.equal(kernelQueues([asSocket(unknown)]), undefined);
  });
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

  test("node's own close after an answer (destroySoon) is the server's close", (t) => {
    const c = setUp(t);
    const s = c.tracked();
    (s as unknown as { destroySoon: () => void }).destroySoon();
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
  });

  test('what the client sends after the last request is read and thrown away; its close ends the connection', (t) => {
    const c = setUp(t);
    const s = c.tracked();
    let parsed = 0;
    s.on('data', () => (parsed += 1));
    c.connections.closeWhenWritten(asSocket(s));
    c.connections.drain(asSocket(s));
    s.emit('data', Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    assert.equal(parsed, 0, "the parser's listener is gone");
    assert.equal(s.listenerCount('data'), 1, 'one listener that throws the bytes away, however often drained');
    assert.ok(s.resumed > 0, 's.resumed > 0');
    s.finish();
    assert.ok(!s.destroyed, 'the client has not closed: it lingers');
    s.clientEnds();
    assert.ok(s.destroyed, 's.destroyed');
    assert.equal(c.connections.open.size, 0);
  });

  test('a handle the parser stopped reading is started again; one still reading, or without readStart, is left as it is', (t) => {
    const c = setUp(t);
    const starts: string[] = [];
    const stopped = c.tracked();
    stopped._handle = { reading: false, readStart: () => (starts.push('stopped'), 0) };
    const reading = c.tracked();
    reading._handle = { reading: true, readStart: () => (starts.push('reading'), 0) };
    const bare = c.tracked();
    bare._handle = { reading: false };
    const none = c.tracked();
    for (const s of [stopped, reading, bare, none]) assert.doesNotThrow(() => c.connections.drain(asSocket(s)));
    assert.deepEqual(starts, ['stopped']);
    assert.equal(stopped._handle.reading, true);
  });
});

describe('the lingering close: the kernel asked only for connections that outlast a check', () => {
  test('not at the first check; at the second, let go once the kernel has delivered everything', (t) => {
    const c = setUp(t);
    const s = lingering(c);
    c.tick();
    assert.deepEqual(c.table.reads, [], 'a client that has everything closes before the first check: the table is not read');
    c.table.queues?.set(s, 120);
    c.tick();
    assert.deepEqual(c.table.reads, [[s]]);
    assert.ok(!s.destroyed, '120 bytes not delivered yet');
    c.table.queues?.set(s, 0);
    c.tick();
    assert.ok(s.destroyed, 's.destroyed');
    assert.equal(c.connections.open.size, 0);
    c.tick();
    assert.equal(c.table.reads.length, 2, 'no read of the table once nothing lingers (that the check stops, the integration file shows)');
  });

  test('no table (not Linux): let go at the first read', (t) => {
    const c = setUp(t);
    const s = lingering(c);
    c.table.queues = undefined;
    c.tick(2 * CHECK_MS);
    assert.ok(s.destroyed, 's.destroyed');
  });

  test('missing from the table once: kept; twice running: the kernel has let go, and so does the server', (t) => {
    const c = setUp(t);
    const s = lingering(c);
    c.tick(2 * CHECK_MS);
    assert.ok(!s.destroyed, 'missing once (a table read while other sockets change)');
    c.tick();
    assert.ok(s.destroyed, 's.destroyed');
  });

  test('a socket destroyed meanwhile is not looked for again', (t) => {
    const c = setUp(t);
    const s = lingering(c);
    s.destroyed = true; // destroyed; node emits its close later
    c.tick(2 * CHECK_MS);
    c.tick();
    assert.equal(c.table.reads.length, 1, 'let go at the first read, and the check stopped');
  });
});

describe('idle connections past the keep-alive timeout', () => {
  test('a burst is one read of the table; delivered ones close at once, destroyed ones are not asked about', (t) => {
    const c = setUp(t);
    const [a, b, gone] = [c.tracked(), c.tracked(), c.tracked()];
    for (const s of [a, b, gone]) {
      c.table.queues?.set(s, 0);
      c.connections.closeIdle(asSocket(s));
    }
    gone.destroy();
    assert.ok(!a.destroyed, 'at the next turn of the loop, not before');
    c.tick(0);
    assert.deepEqual(c.table.reads, [[a, b]]);
    assert.ok(a.destroyed && b.destroyed, 'a.destroyed && b.destroyed');
  });

  test('a single idle connection is closed too', (t) => {
    const c = setUp(t);
    const s = c.idle(0);
    assert.ok(s.destroyed, 's.destroyed');
  });

  test('no table (not Linux): closed at once, as node would', (t) => {
    const c = setUp(t);
    c.table.queues = undefined;
    const s = c.idle();
    assert.ok(s.destroyed, 's.destroyed');
  });

  test('bytes not delivered: kept without a FIN until the client closes', (t) => {
    const c = setUp(t);
    const s = c.idle(4096);
    assert.ok(!s.destroyed, '!s.destroyed');
    assert.deepEqual(s.ends, [], 'no FIN: it would wait behind the full send buffer');
    s.clientEnds();
    assert.ok(s.destroyed, 's.destroyed');
  });

  test('bytes not delivered, and none acknowledged by the next sweep: reset', (t) => {
    const c = setUp(t);
    const s = c.idle(4096);
    assert.equal(c.connections.sweep(), 1);
    assert.equal(s.resets, 1);
  });

  test('missing from the table at the idle read: kept, and asked again at the next check', (t) => {
    const c = setUp(t);
    const [delivered, missing] = [c.tracked(), c.tracked()];
    for (const s of [delivered, missing]) c.connections.closeIdle(asSocket(s));
    c.tick(0);
    assert.ok(!delivered.destroyed && !missing.destroyed, '!delivered.destroyed && !missing.destroyed');
    c.table.queues?.set(delivered, 0);
    c.tick();
    assert.ok(delivered.destroyed, 'delivered at the next check: let go');
    assert.ok(missing.destroyed, 'missing twice running: let go');
  });
});

describe('the periodic sweep of lingering connections', () => {
  test('nothing lingering: the table is not read', (t) => {
    const c = setUp(t);
    c.tracked();
    assert.equal(c.connections.sweep(), 0);
    assert.deepEqual(c.table.reads, []);
  });

  test('delivered: let go; progress: kept; no progress for a whole period: reset and counted', (t) => {
    const c = setUp(t);
    const [delivered, moving, stuck] = [lingering(c), lingering(c), lingering(c)];
    c.table.queues = new Map([
      [delivered, 0],
      [moving, 900],
      [stuck, 500],
    ]);
    assert.equal(c.connections.sweep(), 0, 'the first sweep records each queue');
    assert.ok(delivered.destroyed, 'delivered.destroyed');
    c.table.queues.set(moving, 400);
    assert.equal(c.connections.sweep(), 1);
    assert.equal(stuck.resets, 1);
    assert.ok(!moving.destroyed, 'the client acknowledged 500 bytes');
    assert.equal(c.connections.sweep(), 1, 'then a whole period without progress');
    assert.equal(moving.resets, 1);
    assert.equal(c.connections.open.size, 0);
  });

  test('missing from the table once: kept; twice running: let go', (t) => {
    const c = setUp(t);
    const s = lingering(c);
    assert.equal(c.connections.sweep(), 0);
    assert.ok(!s.destroyed, '!s.destroyed');
    assert.equal(c.connections.sweep(), 0);
    assert.ok(s.destroyed, 's.destroyed');
    assert.equal(s.resets, 0, 'a plain close: the kernel holds nothing for it');
  });

  test('no queue size is taken for one of the states: queues of 1, 2 and 3 bytes', (t) => {
    const c = setUp(t);
    // 1 byte, then missing: missing once, so kept.
    const one = c.idle(1);
    c.table.queues?.delete(one);
    c.connections.sweep();
    assert.ok(!one.destroyed, 'a queue of 1 byte then missing once: kept');
    // 2 bytes at the first sweep of a closing connection: a period starts, nothing is reset.
    const two = lingering(c);
    c.tick();
    c.table.queues?.set(two, 2);
    c.connections.sweep();
    assert.equal(two.resets, 0, 'a queue of 2 bytes at its first sweep: the period starts');
    // 3 bytes at the idle read, delivered by the next check: let go then.
    const three = c.idle(3);
    c.table.queues?.set(three, 0);
    c.tick();
    assert.ok(three.destroyed, 'a queue of 3 bytes at the idle read, delivered by the next check: let go');
  });
});
