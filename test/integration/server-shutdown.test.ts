// The real `serve` command: graceful shutdown on SIGTERM and SIGINT (a request in flight finishes, exit 0), and links on port 0.
//
// Nothing here waits on a clock. A request is held in flight by sending its headers in two parts; the first part
// rides in the same write as a complete request, so the answer to that one proves the server has read the
// partial one. The rest goes only after the server has said on stdout that it got the signal and is draining.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseResponses, type RawResponse } from '../support/http-suite.ts';
import { commandPath } from '../support/compiled.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Served {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Resolves when stdout has printed a line matching the pattern. */
  waitFor: (pattern: RegExp) => Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function serve(): Promise<Served> {
  const child = spawn(process.execPath, [commandPath(), 'serve', '--port', '0', '--host', '127.0.0.1'], { cwd: ROOT, env: { ...process.env, LOG: '0' } });
  let out = '';
  const waiters: { pattern: RegExp; done: (line: string) => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of [...waiters]) {
      const m = w.pattern.exec(out);
      if (m !== null) {
        waiters.splice(waiters.indexOf(w), 1);
        w.done(m[0]);
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const waitFor = (pattern: RegExp): Promise<string> =>
    new Promise((done, reject) => {
      const m = pattern.exec(out);
      if (m !== null) done(m[0]);
      else {
        waiters.push({ pattern, done });
        void exit.then(() => reject(new Error(`serve exited before printing ${String(pattern)}; stdout: ${out}`)));
      }
    });
  const line = await waitFor(/serving \d+ routes on (http:\/\/\S+)/);
  const url = /(http:\/\/\S+)/.exec(line)?.[1] ?? '';
  return { child, url, waitFor, exit };
}

function open(url: string): Promise<{ socket: Socket; answers: (heads?: boolean[]) => Promise<{ responses: RawResponse[]; closed: boolean }> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    let closed = false;
    const ended = new Promise<void>((done) => {
      socket.on('end', () => {
        closed = true;
        done();
      });
      socket.on('close', () => {
        closed = true;
        done();
      });
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('connect', () =>
      resolve({
        socket,
        // Reads until the server closes the connection: a draining server must close it after the answer.
        answers: async (heads = []) => {
          await ended;
          return { ...parseResponses(Buffer.concat(chunks), heads, true), closed };
        },
      }),
    );
  });
}

/** Writes a complete request and the first part of a second one; resolves once the first is answered. */
async function holdInFlight(socket: Socket, host: string, path: string): Promise<void> {
  const answered = new Promise<void>((done) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('latin1');
      if (/\r\n\r\n[\s\S]*"status": "ok"/.test(seen)) {
        socket.off('data', onData);
        done();
      }
    };
    socket.on('data', onData);
  });
  socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\nGET ${path} HTTP/1.1\r\nHost: ${host}\r\n`);
  await answered;
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal}: a request in flight gets its whole answer, then the process exits 0`, async () => {
    const served = await serve();
    const { socket, answers } = await open(served.url);
    await holdInFlight(socket, new URL(served.url).host, '/api/markets/us-tx-austin/csv');
    served.child.kill(signal);
    await served.waitFor(new RegExp(`${signal}: draining`));
    socket.write('Accept-Encoding: gzip\r\n\r\n');
    const { responses, closed } = await answers();
    assert.equal(responses.length, 2, 'the probe and the request in flight are both answered');
    const res = responses[1] as RawResponse;
    assert.equal(res.status, 200);
    assert.equal(res.headers.find(([k]) => k.toLowerCase() === 'content-encoding')?.[1], 'gzip');
    assert.equal(Number(res.headers.find(([k]) => k.toLowerCase() === 'content-length')?.[1]), res.body.length, 'the whole body');
    assert.ok(closed, 'the connection is closed after the answer');
    assert.deepEqual(await served.exit, { code: 0, signal: null });
  });
}

test('SIGTERM: idle keep-alive connections do not hold the shutdown', async () => {
  const served = await serve();
  const { socket, answers } = await open(served.url);
  const host = new URL(served.url).host;
  // One finished request, and the connection left open (keep-alive) and idle.
  socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  const firstAnswer = new Promise<void>((done) => socket.once('data', () => done()));
  await firstAnswer;
  served.child.kill('SIGTERM');
  const { responses, closed } = await answers();
  assert.equal(responses.length, 1);
  assert.equal(responses[0]?.status, 200);
  assert.ok(closed, 'the server closed the idle connection');
  assert.deepEqual(await served.exit, { code: 0, signal: null });
});

test('after the signal the listener is closed: new connections are refused', async () => {
  const served = await serve();
  const { socket, answers } = await open(served.url);
  await holdInFlight(socket, new URL(served.url).host, '/api/markets');
  served.child.kill('SIGTERM');
  await served.waitFor(/SIGTERM: draining/);
  // The request in flight keeps the process alive, so a refusal here comes from the closed listener.
  await assert.rejects(fetch(`${served.url}/healthz`));
  socket.write('\r\n');
  const { responses } = await answers();
  assert.equal(responses[1]?.status, 200);
  assert.deepEqual(await served.exit, { code: 0, signal: null });
});

test('serve --port 0 without BASE_URL: links follow the port the system chose, not port 0', async () => {
  const served = await serve();
  const port = new URL(served.url).port;
  assert.notEqual(port, '0');
  await served.waitFor(new RegExp(`links use http://localhost:${port}\\)`));
  const body = await (await fetch(`${served.url}/api/markets/us-tx-austin`)).text();
  assert.ok(body.includes(`"http://localhost:${port}/markets/us-tx-austin"`), 'the profile links to its page on the bound port');
  assert.ok(!body.includes('localhost:0'), 'no link names port 0');
  served.child.kill('SIGTERM');
  assert.deepEqual(await served.exit, { code: 0, signal: null });
});
