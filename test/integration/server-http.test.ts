// Runs the shared HTTP contract suite (routes, the agreement table, the seeded fuzz) against the embedded server on a free loopback port, and checks the fuzz's own resend of a cut answer there.
import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../../src/runtimes/server/listener.ts';
import { startEmbedded } from '../support/embedded.ts';
import { CUT_RETRIES, fuzz, type FuzzReport, type Generated } from '../support/fuzz.ts';
import { defineHttpSuite, expectedFor, type Expected } from '../support/http-suite.ts';

defineHttpSuite(
  'embedded server',
  async () => {
    const { running, baseUrl } = await startEmbedded();
    return { baseUrl, stop: () => running.close() };
  },
  { engine: 'embedded' },
);

/** Bytes of an answer the proxy lets through before it closes: inside the first answer's status line and headers. */
const CUT_AFTER = 64;

/**
 * A proxy in front of the server that cuts answers short, as a reset at workerd's close does: on a connection whose
 * first request is for a target with cuts left in `cuts`, the client gets the first CUT_AFTER bytes of the answers,
 * then the close. Every other connection is passed through whole.
 */
function cuttingProxy(upstream: string, cuts: Map<string, number>): Promise<{ origin: string; close: () => Promise<void>; targets: () => string[][] }> {
  const { hostname, port } = new URL(upstream);
  const sockets = new Set<Socket>();
  /** What each connection's client sent, in the order the connections came. */
  const sent: Buffer[][] = [];
  const server = createServer((client) => {
    const up = connect({ host: hostname, port: Number(port) });
    const mine: Buffer[] = [];
    sent.push(mine);
    for (const s of [client, up]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.once('close', () => sockets.delete(s));
    }
    let cut: boolean | undefined;
    let head = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      if (cut === undefined) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n');
        if (end >= 0) {
          const target = head.subarray(0, end).toString('latin1').split(' ')[1] ?? '';
          const left = cuts.get(target) ?? 0;
          cut = left > 0;
          if (cut) cuts.set(target, left - 1);
        }
      }
      mine.push(chunk);
      up.write(chunk);
    });
    let answer = Buffer.alloc(0);
    up.on('data', (chunk: Buffer) => {
      if (cut !== true) {
        client.write(chunk);
        return;
      }
      answer = Buffer.concat([answer, chunk]);
      if (answer.length < CUT_AFTER) return;
      client.end(answer.subarray(0, CUT_AFTER));
      up.destroy();
    });
    up.on('end', () => client.end());
    client.on('end', () => up.end());
    client.on('close', () => up.destroy());
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      assert.ok(address !== null && typeof address === 'object', "address !== null && typeof address === 'object'");
      resolve({
        origin: `http://127.0.0.1:${address.port}`,
        // The target of each request (plain GETs: no body) on each connection.
        targets: () =>
          sent.map((chunks) =>
            Buffer.concat(chunks)
              .toString('latin1')
              .split('\r\n\r\n')
              .filter((r) => r !== '')
              .map((r) => r.split(' ')[1] ?? ''),
          ),
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

describe("the fuzz's resend of an answer a reset cut short (resets-after-refusal), through a proxy that cuts answers", () => {
  const REQUESTS = 20;
  let running: RunningServer;
  let x: Expected;
  let paths: string[] = [];
  before(async () => {
    let baseUrl: string;
    ({ running, baseUrl } = await startEmbedded());
    x = expectedFor(baseUrl);
    paths = [...x.table.routes.keys()].slice(0, REQUESTS);
  });
  after(() => running.close());

  /** The fuzz with `cuts` cuts of the first request's answer: twenty plain GETs of twenty routes, on one connection at a time. */
  const run = async (cuts: number, resetsAfterRefusal: boolean): Promise<{ report: FuzzReport; first: string; connections: string[][] }> => {
    const proxy = await cuttingProxy(running.url, new Map([[paths[0] ?? '', cuts]]));
    try {
      const requests = paths.map((path): Generated => ({
        method: 'GET',
        target: path,
        version: 'HTTP/1.1',
        lines: [`Host: ${new URL(proxy.origin).host}`],
        body: Buffer.alloc(0),
        head: false,
        label: `GET ${path}`,
        alone: false,
      }));
      let i = 0;
      const next = (): Generated => requests[i++] as Generated;
      const report = await fuzz(proxy.origin, { ...x, origin: proxy.origin }, next, { requests: REQUESTS, connections: 1, resetsAfterRefusal });
      return { report, first: requests[0]?.label ?? '', connections: proxy.targets() };
    } finally {
      await proxy.close();
    }
  };

  test('where the engine has the difference, a cut answer is sent again alone and then checked like any other', async () => {
    const { report, connections } = await run(1, true);
    assert.equal(report.cut, 1);
    // Sixteen requests on the connection cut; the cut one again on a connection of its own, no refusal behind it; the rest.
    assert.deepEqual(connections, [paths.slice(0, 16), paths.slice(0, 1), paths.slice(1, 17), paths.slice(17)]);
    assert.deepEqual({ failures: report.failures, unanswered: report.unanswered }, { failures: [], unanswered: [] });
    assert.deepEqual([...report.statuses], [[200, REQUESTS]]);
  });

  test(`a request cut ${CUT_RETRIES + 1} times running is a failure: it is sent again ${CUT_RETRIES} times, no more`, async () => {
    const { report, first } = await run(CUT_RETRIES + 1, true);
    assert.equal(report.cut, CUT_RETRIES);
    assert.equal(report.failures.length, 1);
    assert.ok(report.failures[0]?.startsWith(`${first}: bytes that are no answer: "HTTP/1.1 200 `), report.failures[0]);
    assert.deepEqual(report.unanswered, [first]);
    assert.deepEqual([...report.statuses], [[200, REQUESTS - 1]], 'every other request is answered');
  });

  test('where the engine has no such difference, one cut answer is a failure, never sent again', async () => {
    const { report, first } = await run(1, false);
    assert.equal(report.cut, 0);
    assert.equal(report.failures.length, 1);
    assert.ok(report.failures[0]?.startsWith(`${first}: bytes that are no answer: `), report.failures[0]);
    assert.deepEqual(report.unanswered, [first]);
    assert.deepEqual([...report.statuses], [[200, REQUESTS - 1]]);
  });
});
