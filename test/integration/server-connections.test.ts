// How the embedded server ends connections under attack: descriptors after a 408 or 400, no answer lost to a reset at the close, one answer per request, pipelining behind an Upgrade, the listener's start and close, clients that stop reading.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { startServer, type RunningServer } from '../../src/runtimes/server/listener.ts';
import { startEmbedded } from '../support/embedded.ts';
import { parseResponses } from '../support/http-suite.ts';

/**
 * Limits short enough to watch each timeout happen. The bounds below are generous waits for a condition to become
 * true (never a measured duration): a correct server meets them in a fraction of their length on any machine.
 */
const SHORT = {
  headersTimeoutMs: 300,
  requestTimeoutMs: 600,
  keepAliveTimeoutMs: 300,
  stalledWriteCheckMs: 300,
  timeoutCheckIntervalMs: 50,
  lingeringTimeMs: 600,
  lingeringTimeoutMs: 300,
};
const BOUND_MS = 8_000;
/**
 * Limits no test waits out, for the tests whose subject is not a timeout. A request sent as the connection opens still
 * meets the headers timeout if the process is paused longer than that timeout before it reads it (node checks its
 * timers before it reads): on a busy machine a CI run of 2026-11-25 got a 408 for a request that was whole on the
 * wire, under the 300 ms of SHORT.
 */
const NEVER = 3_600_000;
const PATIENT = { headersTimeoutMs: NEVER, requestTimeoutMs: NEVER, keepAliveTimeoutMs: NEVER, stalledWriteCheckMs: NEVER };

let running: RunningServer;
let host = '';
let port = 0;
/** The same table served without timeouts (PATIENT). */
let patient: RunningServer;
let patientHost = '';
let patientPort = 0;

before(async () => {
  ({ running } = await startEmbedded({ limits: SHORT }));
  const url = new URL(running.url);
  host = url.host;
  port = Number(url.port);
  patient = await startServer(running.table, { host: '127.0.0.1', port: 0 }, { limits: PATIENT });
  patientHost = new URL(patient.url).host;
  patientPort = Number(new URL(patient.url).port);
});
after(async () => {
  await patient.close();
  await running.close();
});

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Polls until `ready()` holds, failing with `what` after BOUND_MS. */
async function until(what: string, ready: () => boolean): Promise<void> {
  for (let waited = 0; !ready(); waited += 20) {
    if (waited >= BOUND_MS) assert.fail(`not within ${BOUND_MS} ms: ${what}`);
    await sleep(20);
  }
}

const descriptors = (): number => readdirSync('/proc/self/fd').length;

/** The kernel's rows for TCP sockets whose local port is `port` (fields: sl local remote st tx_queue:rx_queue … inode). */
function tcpRowsOn(port: number, tables: readonly string[] = ['/proc/self/net/tcp']): string[][] {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return tables.flatMap((table) =>
    readFileSync(table, 'latin1')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f[1]?.endsWith(hex) === true),
  );
}

/** Whether this process holds a listening TCP socket on `port`: its descriptors' socket inodes looked up in the kernel's tables. */
function listeningHere(port: number): boolean {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1];
      if (inode !== undefined) inodes.add(inode);
    } catch {
      // closed since the folder was read
    }
  }
  return tcpRowsOn(port, ['/proc/self/net/tcp', '/proc/self/net/tcp6']).some((f) => f[3] === '0A' && inodes.has(f[9] ?? ''));
}

/** Whether this machine has an IPv6 loopback (the tests on `::1` are skipped, saying why, where it has not). */
const ipv6 = Object.values(networkInterfaces()).some((addresses) => addresses?.some((a) => a.address === '::1') === true);

/** A client that keeps its side open after the server's FIN (allowHalfOpen), as an attacker would; `text` is what it has read. */
function client(first?: string, to = port): { socket: Socket; text: () => string; ended: () => boolean } {
  const socket = connect({ host: '127.0.0.1', port: to, allowHalfOpen: true });
  const chunks: Buffer[] = [];
  let ended = false;
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('end', () => (ended = true));
  socket.on('close', () => (ended = true));
  socket.on('error', () => (ended = true));
  if (first !== undefined) socket.on('connect', () => socket.write(first));
  return { socket, text: () => Buffer.concat(chunks).toString('latin1'), ended: () => ended };
}

/**
 * Clients that keep their side open after the server's answer and FIN, and send nothing more: the server holds no
 * connection and no descriptor of its own once the lingering timeout has passed (300 ms here), and still answers.
 */
async function heldOpen(server: RunningServer, count: number, first: string | undefined, answer: RegExp, what: string): Promise<void> {
  const baseline = descriptors();
  const all = Array.from({ length: count }, () => client(first, Number(new URL(server.url).port)));
  await until('every client has its answer and the FIN after it', () => all.every((c) => c.ended()));
  for (const c of all) assert.match(c.text(), answer, what);
  await until(`the server's connections are closed (${server.connections.open.size} open)`, () => server.connections.open.size === 0);
  await until(`the server's descriptors are gone (${descriptors() - baseline - all.length} left)`, () => descriptors() <= baseline + all.length);
  assert.equal(server.connections.open.size, 0);
  for (const c of all) c.socket.destroy();
  const res = await fetch(`${server.url}/healthz`);
  assert.equal(res.status, 200);
}

describe('descriptors', () => {
  test('silent connections held open by the client: back to the baseline once the 408 is out', async () => {
    // The headers timeout answers 408.
    await heldOpen(running, 150, undefined, /^HTTP\/1\.1 408 /, 'the silent connection got its 408');
  });

  test('refused requests held open by the client: back to the baseline once the 400 is out', async () => {
    // The parser answers 400 as soon as it reads the bytes: a server without the 300 ms timeouts, but with the
    // 300 ms lingering timeout.
    const own = await startServer(running.table, { host: '127.0.0.1', port: 0 }, { limits: { ...PATIENT, lingeringTimeoutMs: 300 } });
    try {
      await heldOpen(own, 50, 'NOT HTTP AT ALL\r\n\r\n', /^HTTP\/1\.1 400 /, 'the refused request got its 400');
    } finally {
      await own.close();
    }
  });
});

describe('the TCP reset problem (RFC 9112 9.6): the connection closes after pipelined requests the server never reads', () => {
  // Each connection closes after an answer, so no timeout comes into it: the server without them.
  // 40 requests of 4 KB behind the one that closes the connection: more than the server reads before it closes.
  const tail = (): string => `GET /${'a/'.repeat(2000)} HTTP/1.1\r\nHost: ${patientHost}\r\n\r\n`.repeat(40);
  const large = (): string => `GET /api/datapackage HTTP/1.1\r\nHost: ${patientHost}\r\n`;

  /** Sends everything at once, reads nothing until the server has had time to close, then reads to the end. */
  async function lateReader(bytes: string): Promise<{ statuses: string[]; first: Buffer | undefined }> {
    const c = client(undefined, patientPort);
    c.socket.pause();
    c.socket.write(bytes);
    // Long enough for the server to answer and close; a correct server delivers everything whenever the client reads.
    await sleep(300);
    c.socket.resume();
    await until('the server closes', () => c.ended());
    c.socket.destroy();
    const text = Buffer.from(c.text(), 'latin1');
    const { responses } = parseResponses(text, [false, false], true);
    return { statuses: [...c.text().matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1] as string), first: responses[0]?.body };
  }
  const datapackage = (): Buffer => {
    const route = running.table.routes.get('/api/datapackage');
    assert.ok(route, 'route');
    return route.identity.body;
  };

  test('a large answer, then a request the parser refuses: the whole answer, then the close', async () => {
    const { statuses, first } = await lateReader(`${large()}\r\nGET /healthz HTTP/1.1\r\nHost: ${patientHost}\r\nContent-Length: -1\r\n\r\n${tail()}`);
    assert.deepEqual(statuses, ['200']);
    assert.ok(first?.equals(datapackage()), 'the answer is whole');
  });

  test('a large answer to Connection: close: the whole answer, then the close', async () => {
    const { statuses, first } = await lateReader(`${large()}Connection: close\r\n\r\n${tail()}`);
    assert.deepEqual(statuses, ['200']);
    assert.ok(first?.equals(datapackage()), 'the answer is whole');
  });

  test('a large answer, then an HTTP/1.0 request: both answers, then the close', async () => {
    const { statuses, first } = await lateReader(`${large()}\r\nGET /healthz HTTP/1.0\r\nHost: ${patientHost}\r\n\r\n${tail()}`);
    assert.deepEqual(statuses, ['200', '200']);
    assert.ok(first?.equals(datapackage()), 'the first answer is whole');
  });

  test('a large answer, then a request the server answers 400: both answers, then the close', async () => {
    const { statuses, first } = await lateReader(`${large()}\r\nGET /a/../b HTTP/1.1\r\nHost: ${patientHost}\r\n\r\n${tail()}`);
    assert.deepEqual(statuses, ['200', '400']);
    assert.ok(first?.equals(datapackage()), 'the first answer is whole');
  });
});

describe("the lingering close: the client's own close ends the connection", () => {
  // After its last answer the server reads on (and throws away) whatever comes, so it sees the client's FIN and lets go
  // at once. A server of its own whose lingering bounds and timeouts never come within the test: only that FIN can end
  // its sockets. The closing request comes behind a large answer still going out, with another request behind it.
  let own: RunningServer;
  before(async () => {
    ({ running: own } = await startEmbedded({ limits: { ...PATIENT, lingeringTimeMs: NEVER, lingeringTimeoutMs: NEVER } }));
  });
  after(() => own.close());
  const closings: [string, string][] = [
    ['Connection: close', 'GET /healthz HTTP/1.1\r\nHost: HOST\r\nConnection: close\r\n\r\n'],
    ['an HTTP/1.0 request', 'GET /healthz HTTP/1.0\r\n\r\n'],
    ['a request the parser refuses', 'GET /healthz HTTP/1.1\r\nHost: HOST\r\nContent-Length: -1\r\n\r\n'],
    ['a request answered 400', 'GET /a/../b HTTP/1.1\r\nHost: HOST\r\n\r\n'],
  ];
  for (const [name, request] of closings) {
    test(`${name}, behind a large answer: the server lets go of the socket when the client closes`, async () => {
      const url = new URL(own.url);
      const bytes = `GET /api/datapackage HTTP/1.1\r\nHost: ${url.host}\r\n\r\n${request.replaceAll('HOST', url.host)}GET /healthz HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`;
      const texts = await Promise.all(
        Array.from(
          { length: 10 },
          () =>
            new Promise<string>((resolve) => {
              const chunks: Buffer[] = [];
              const socket = connect({ host: '127.0.0.1', port: Number(url.port) }, () => socket.write(bytes));
              socket.on('data', (c: Buffer) => chunks.push(c));
              // The server's FIN: everything has come; close this side too.
              socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
            }),
        ),
      );
      for (const text of texts) assert.match(text, /^HTTP\/1\.1 200 /);
      await until(`the server lets go of its sockets (${own.connections.open.size} open)`, () => own.connections.open.size === 0);
    });
  }
});

describe('one answer per request', () => {
  // Each answer is decided as its request is read: the server without timeouts, but where the request timeout is the
  // subject.
  /** Sends `first`, waits for one complete answer, then sends `then`; resolves with everything read once the server closes. */
  async function answerThen(first: string, then: string | undefined, to = patientPort): Promise<{ text: string; closed: boolean }> {
    const c = client(first, to);
    await until('the first answer', () => parseResponses(Buffer.from(c.text(), 'latin1'), [false], false).responses.length === 1);
    if (then !== undefined) c.socket.write(then);
    await until('the server closes', () => c.ended());
    c.socket.destroy();
    return { text: c.text(), closed: c.ended() };
  }

  test('a GET answered before its chunked body turns out malformed: no second answer, the connection closed', async () => {
    const { text } = await answerThen(`GET /healthz HTTP/1.1\r\nHost: ${patientHost}\r\nTransfer-Encoding: chunked\r\n\r\n`, 'zz\r\n');
    assert.deepEqual(
      [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]),
      ['200'],
    );
  });

  test('a request answered before its body, which then stops coming: no 408 after the answer, the connection closed', async () => {
    // The request timeout ends the connection, so it must come; node's headers timeout may not be longer. Both at 2 s,
    // far beyond any pause of the process between the connection and the read, which would answer 408 first.
    const timed = await startServer(
      running.table,
      { host: '127.0.0.1', port: 0 },
      { limits: { ...PATIENT, headersTimeoutMs: 2_000, requestTimeoutMs: 2_000 } },
    );
    try {
      const url = new URL(timed.url);
      const { text } = await answerThen(`POST /healthz HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 10\r\n\r\nab`, undefined, Number(url.port));
      assert.deepEqual(
        [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]),
        ['405'],
      );
    } finally {
      await timed.close();
    }
  });

  test('a body that completes keeps the connection for the next request', async () => {
    const c = client(
      `POST /healthz HTTP/1.1\r\nHost: ${patientHost}\r\nContent-Length: 2\r\n\r\nabGET /healthz HTTP/1.1\r\nHost: ${patientHost}\r\nConnection: close\r\n\r\n`,
      patientPort,
    );
    await until('the server closes after the second answer', () => c.ended());
    assert.deepEqual(
      [...c.text().matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]),
      ['405', '200'],
    );
  });

  test('requests pipelined behind an Upgrade request are answered, in order', async () => {
    const req = (path: string, extra = ''): string => `GET ${path} HTTP/1.1\r\nHost: ${patientHost}\r\n${extra}\r\n`;
    const c = client(
      req('/api/markets/us-tx-austin', 'Connection: Upgrade\r\nUpgrade: websocket\r\n') + req('/api/nope') + req('/healthz', 'Connection: close\r\n'),
      patientPort,
    );
    await until('the server closes after the third answer', () => c.ended());
    const { responses } = parseResponses(Buffer.from(c.text(), 'latin1'), [false, false, false], true);
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 404, 200],
    );
    assert.match(responses[0]?.body.toString() ?? '', /"us-tx-austin"/);
    assert.match(responses[2]?.body.toString() ?? '', /"status": "ok"/);
  });

  // The server without timeouts: the connection ends only because an answer ends it, the Upgrade request's or, when
  // that one keeps the connection, the one to the request behind it (which asks to close).
  for (const [name, line, connection, answers] of [
    ['asks to close (Connection: Upgrade, close)', 'HTTP/1.1', 'Upgrade, close', ['200']],
    ['names close first (Connection: close, Upgrade)', 'HTTP/1.1', 'close, Upgrade', ['200']],
    ['names close in capitals (Connection: Upgrade, CLOSE)', 'HTTP/1.1', 'Upgrade, CLOSE', ['200']],
    ['names close with a space before the next comma (Connection: Upgrade, close , TE)', 'HTTP/1.1', 'Upgrade, close , TE', ['200']],
    ['comes as HTTP/1.0, without keep-alive', 'HTTP/1.0', 'Upgrade', ['200']],
    ['names a token that only contains "close" (Connection: Upgrade, x-close-notify)', 'HTTP/1.1', 'Upgrade, x-close-notify', ['200', '404']],
  ] as const) {
    const outcome = answers.length === 1 ? 'its answer, then the close; nothing behind it is answered' : 'keeps its connection';
    test(`an Upgrade request that ${name}: ${outcome}`, async () => {
      const c = client(
        `GET /healthz ${line}\r\nHost: ${patientHost}\r\nConnection: ${connection}\r\nUpgrade: websocket\r\n\r\n` +
          `GET /api/nope HTTP/1.1\r\nHost: ${patientHost}\r\nConnection: close\r\n\r\n`,
        patientPort,
      );
      await until(`the server closes after answer ${answers.length}`, () => c.ended());
      assert.deepEqual(
        [...c.text().matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]),
        answers,
      );
    });
  }
});

describe('the listener itself', () => {
  test('a table that cannot be built for the bound port: the promise rejects with its error, and the listener is closed', async () => {
    let bound = 0;
    let listening = false;
    const failure = new Error('no table for this port');
    await assert.rejects(
      startServer(
        (boundPort) => {
          bound = boundPort;
          listening = listeningHere(boundPort);
          throw failure;
        },
        { host: '127.0.0.1', port: 0 },
      ),
      (error) => error === failure,
    );
    assert.ok(listening, `the table was asked for the port bound, ${bound}, while the listener was open`);
    // A listener left open would keep `serve` from exiting. Read from this process's own descriptors, not by connecting:
    // a freed port could be taken by a test running beside this one.
    await until('the listener is closed', () => !listeningHere(bound));
  });

  test('close() while a request is still arriving: the connection is cut once the drain timeout has passed, and close() resolves', async () => {
    // No other timeout could end the connection (PATIENT), and it is not idle (a request has begun): only the drain
    // timeout (200 ms here, 10 s in service) ends it.
    const own = await startServer(running.table, { host: '127.0.0.1', port: 0 }, { limits: { ...PATIENT, drainTimeoutMs: 200 } });
    const c = client(`GET / HTTP/1.1\r\nHost: ${new URL(own.url).host}\r\n`, Number(new URL(own.url).port));
    try {
      await until('the server has read the start of the request', () => [...own.connections.open].some((s) => s.bytesRead > 0));
      let closed = false;
      void own.close().then(() => (closed = true));
      await until('close() resolves', () => closed);
      await until('the client sees the close', () => c.ended());
      assert.equal(c.text(), '', 'no answer to a request that never came whole');
    } finally {
      c.socket.destroy();
      await own.close();
    }
  });

  test('a request that comes whole after close() was called: its answer says Connection: close, then the connection ends', async () => {
    const own = await startServer(running.table, { host: '127.0.0.1', port: 0 }, { limits: PATIENT });
    const c = client(`GET /healthz HTTP/1.1\r\nHost: ${new URL(own.url).host}\r\n`, Number(new URL(own.url).port));
    try {
      await until('the server has read the start of the request', () => [...own.connections.open].some((s) => s.bytesRead > 0));
      const closing = own.close();
      c.socket.write('\r\n');
      await until('the server closes after the answer', () => c.ended());
      const { responses } = parseResponses(Buffer.from(c.text(), 'latin1'), [false], true);
      assert.deepEqual(
        responses.map((r) => [r.status, r.headers.filter(([name]) => name.toLowerCase() === 'connection').map(([, value]) => value)]),
        [[200, ['close']]],
      );
      await closing;
    } finally {
      c.socket.destroy();
      await own.close();
    }
  });

  test('on an IPv6 address the URL has the address in brackets, and answers', { skip: ipv6 ? false : 'no IPv6 loopback on this machine' }, async () => {
    const own = await startServer(running.table, { host: '::1', port: 0 }, { limits: PATIENT });
    try {
      assert.match(own.url, /^http:\/\/\[::1\]:\d+$/);
      const res = await fetch(`${own.url}/healthz`);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    } finally {
      await own.close();
    }
  });
});

describe('clients that stop reading', () => {
  /** The server's side of its connections, from /proc/net/tcp: state and bytes not yet acknowledged, by remote port. */
  function serverSide(): { state: string; unacked: number }[] {
    return tcpRowsOn(port)
      .filter((f) => f[3] !== '0A')
      .map((f) => ({ state: f[3] ?? '', unacked: Number.parseInt((f[4] ?? '').split(':')[0] ?? '', 16) }));
  }

  const attack = (connections: number, depth: number): Socket[] =>
    Array.from({ length: connections }, () => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.pause(); // never reads
      socket.on('error', () => undefined);
      socket.on('connect', () => socket.write(`GET / HTTP/1.1\r\nHost: ${host}\r\n\r\n`.repeat(depth)));
      return socket;
    });

  for (const [name, connections, depth] of [
    ['all answers handed to the kernel, then idle (the keep-alive close)', 20, 20],
    ['more answers than the kernel takes (the stalled-write check)', 4, 120],
  ] as const) {
    test(`${name}: once the server closes them, no unsent byte stays behind in the kernel`, async () => {
      // Counted as the server accepts them, not as open at one moment: the first may be closed before the last is in
      // (300 ms of keep-alive), and a connection of the test before may still be lingering.
      let accepted = 0;
      const count = (): void => void (accepted += 1);
      running.server.on('connection', count);
      const sockets = attack(connections, depth);
      try {
        await until('the server has the connections', () => accepted === connections);
        await until('the server has closed them all', () => running.connections.open.size === 0);
        // A FIN on a socket the client does not read leaves its send queue in the kernel (FIN-WAIT-1); an RST does not.
        const left = serverSide().filter((s) => s.unacked > 0);
        assert.deepEqual(left, [], 'no server-side socket still holds bytes');
      } finally {
        running.server.off('connection', count);
        for (const s of sockets) s.destroy();
      }
    });
  }
});

describe('the lingering close, as a client sees it: the answer and the FIN, then the connection is let go at one of its two bounds', () => {
  /**
   * A client that asks for one answer and the close and keeps its side open; once the FIN has come it sends a byte
   * every 20 ms, at once (`sending`) or only when the server has let go of the connection. Either way its writes are
   * then refused by a reset.
   */
  async function closing(limits: { lingeringTimeMs: number; lingeringTimeoutMs: number }, sending: boolean): Promise<void> {
    const own = await startServer(running.table, { host: '127.0.0.1', port: 0 }, { limits: { ...PATIENT, ...limits } });
    const url = new URL(own.url);
    const chunks: Buffer[] = [];
    const seen: string[] = [];
    let drip: NodeJS.Timeout | undefined;
    const socket = connect({ host: '127.0.0.1', port: Number(url.port), allowHalfOpen: true }, () =>
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`),
    );
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => seen.push('FIN'));
    socket.on('error', (error: NodeJS.ErrnoException) => seen.push(error.code ?? 'error'));
    socket.on('close', () => seen.push('closed'));
    try {
      await until('the FIN', () => seen.includes('FIN'));
      if (!sending) await until('the server lets go of the connection', () => own.connections.open.size === 0);
      drip = setInterval(() => socket.write('x'), 20);
      await until('the connection is closed', () => seen.includes('closed'));
      assert.match(Buffer.concat(chunks).toString('latin1'), /^HTTP\/1\.1 200 [^]*"status": "ok"/, 'the whole answer');
      assert.equal(seen[0], 'FIN', 'the FIN came first');
      assert.ok(['ECONNRESET', 'EPIPE'].includes(seen[1] ?? ''), `then a reset (${seen.join(', ')})`);
      await until('the server has let go of the connection', () => own.connections.open.size === 0);
    } finally {
      clearInterval(drip);
      socket.destroy();
      await own.close();
    }
  }

  test('a client that goes on sending is cut at the lingering time', async () => {
    await closing({ lingeringTimeMs: 300, lingeringTimeoutMs: NEVER }, true);
  });

  test('a client that sends nothing more but keeps its side open is let go at the lingering timeout', async () => {
    await closing({ lingeringTimeMs: NEVER, lingeringTimeoutMs: 300 }, false);
  });
});
