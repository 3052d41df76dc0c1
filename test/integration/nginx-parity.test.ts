// nginx (generated config over dist/) and the embedded server side by side on the same bytes: same answers, case by case (the seeded malformed corpus on the three engines is corpus.test.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeBuild } from '../../src/artifact/write.ts';
import { freePort, startNginx, type NginxRun } from '../../scripts/nginx-run.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { startServer, type RunningServer } from '../../src/runtimes/server/listener.ts';
import { ROWS, ask } from '../support/agreement.ts';
import { exchange, header, request, type RawResponse } from '../support/http-suite.ts';
import { buildWorld } from '../world/world.ts';

const PROFILE = '/api/markets/us-tx-austin';

/** A fixed-seed generator (mulberry32), so every run sends the same headers. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

/** What must agree: status, content type and encoding, Allow, ETag, and the problem's code, instance and market id. */
function essence(res: RawResponse | undefined): Record<string, unknown> {
  if (res === undefined) return { answer: 'none' };
  const out: Record<string, unknown> = {
    status: res.status,
    type: header(res, 'content-type'),
    encoding: header(res, 'content-encoding'),
    allow: header(res, 'allow'),
    etag: header(res, 'etag'),
  };
  if (header(res, 'content-type') === 'application/problem+json' && !res.head) {
    const p = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
    Object.assign(out, { code: p.code, instance: p.instance, marketId: p.marketId });
  }
  return out;
}

describe('nginx answers like the embedded server', () => {
  let dir = '';
  let table: RouteTable;
  let nginx: NginxRun | undefined;
  let embedded: RunningServer | undefined;
  let origins: { nginx: string; embedded: string };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mp-parity-'));
    const [nginxPort, embeddedPort] = [await freePort(), await freePort()];
    const baseUrl = `http://127.0.0.1:${nginxPort}`;
    table = buildWorld({ baseUrl });
    await writeBuild(table, join(dir, 'dist'));
    nginx = await startNginx({ distDir: join(dir, 'dist'), runDir: join(dir, 'run'), host: '127.0.0.1', port: nginxPort });
    embedded = await startServer(table, { host: '127.0.0.1', port: embeddedPort });
    origins = { nginx: nginx.url, embedded: embedded.url };
  });
  after(async () => {
    await nginx?.stop();
    await embedded?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const both = async (payload: string | Buffer | (string | Buffer)[], head = false): Promise<[RawResponse | undefined, RawResponse | undefined]> => {
    const [a, b] = await Promise.all([exchange(origins.nginx, payload, [head]), exchange(origins.embedded, payload, [head])]);
    return [a.responses[0], b.responses[0]];
  };

  test("every row of the agreement table but nginx's platform rows: the same status, headers that matter, code, instance and market id", async () => {
    for (const row of ROWS) {
      if (row.platform?.nginx !== undefined) continue;
      // Both engines get the same bytes, Host included (the embedded server's host would name another port).
      const same = { ...row, send: () => row.send(new URL(origins.nginx).host) };
      const [n, e] = await Promise.all([ask(origins.nginx, same), ask(origins.embedded, same)]);
      assert.deepEqual(n.responses.map(essence), e.responses.map(essence), row.name);
      assert.equal(n.closed, e.closed, `${row.name}: closes`);
    }
  });

  test('the same problem bodies, byte for byte, for unknown paths and refused methods', async () => {
    const targets = [
      '/api/markets/us-xx-nowhere',
      '/api/markets/us-xx-nowhere/csv',
      `/api/markets/${'a'.repeat(140)}`,
      '/api/markets/%20x',
      '/api/nope',
      '/api/',
      '/api',
      `/api/${'b'.repeat(300)}`,
      '/no-such-page',
      '//api/markets',
      '/api//markets/x',
      `/${'c'.repeat(3000)}`,
    ];
    for (const target of targets) {
      for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE']) {
        const [n, e] = await both(request(origins.nginx, method, target), method === 'HEAD');
        assert.ok(n !== undefined && e !== undefined, `${method} ${target}: both answer`);
        assert.equal(n.status, e.status, `${method} ${target}: status`);
        assert.equal(header(n, 'content-type'), header(e, 'content-type'), `${method} ${target}: content type`);
        assert.equal(n.body.toString('utf8'), e.body.toString('utf8'), `${method} ${target}: body`);
        for (const name of ['cache-control', 'allow', 'content-length', 'access-control-allow-origin', 'content-security-policy']) {
          assert.equal(header(n, name), header(e, name), `${method} ${target}: ${name}`);
        }
      }
    }
  });

  test('path rules on the raw target: the same verdict for generated paths', async () => {
    const next = random(7);
    const parts = [
      'api',
      'markets',
      'us-tx-austin',
      'csv',
      '.',
      '..',
      '%2e',
      '%2E%2e',
      '%2f',
      '%5c',
      '%41',
      '%zz',
      '%',
      '%c3%bc',
      '%c0%af',
      '%ed%a0%80',
      '%f4%90%80%80',
      '%01',
      '%7f',
      '%25',
      'a;b',
      '~x',
      '',
      'x.json',
      'US-TX-AUSTIN',
      'healthz',
    ];
    for (let i = 0; i < 300; i += 1) {
      const length = 1 + Math.floor(next() * 4);
      const target = `/${Array.from({ length }, () => pick(next, parts)).join('/')}${next() < 0.2 ? '?q=%zz' : ''}`;
      const [n, e] = await both(request(origins.nginx, 'GET', target));
      assert.deepEqual(essence(n), essence(e), `GET ${target}`);
    }
  });

  test('Accept-Encoding: generated headers choose the same representation on both engines', async () => {
    const next = random(42);
    const codings = ['gzip', 'br', 'identity', '*', 'deflate', 'x-gzip', 'GZIP', 'Br', 'compress'];
    const qs = [
      '',
      ';q=0',
      ';q=0.0',
      ';q=0.5',
      ';q=1',
      ';q=1.0',
      ';q=0.001',
      ';q=0.999',
      ';q=2',
      ';q=abc',
      ';q=',
      ';q=0.',
      ' ;q=0.5',
      ';level=1;q=0.3',
      ';q=0.8;q=0.2',
    ];
    for (let i = 0; i < 300; i += 1) {
      // One element per coding: the embedded server keeps the highest q of repeated codings, nginx the first (documented).
      const same = (c: string): string => c.toLowerCase().replace('x-gzip', 'gzip');
      const chosen = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(next, codings));
      const unique = chosen.filter((c, k) => !chosen.slice(0, k).some((d) => same(d) === same(c)));
      const ae = unique.map((c) => `${c}${pick(next, qs)}`).join(pick(next, [',', ', ', ' , ']));
      for (const path of [PROFILE, '/assets/site.css', '/healthz']) {
        const [n, e] = await both(request(origins.nginx, 'GET', path, { 'Accept-Encoding': ae }));
        assert.deepEqual(essence(n), essence(e), `${path} with Accept-Encoding: ${ae}`);
      }
    }
  });

  test('If-None-Match: generated lists revalidate the same way on both engines', async () => {
    const next = random(99);
    const route = table.routes.get(PROFILE);
    assert.ok(route?.gzip !== undefined, 'route?.gzip !== undefined');
    const tags = [route.identity.etag, route.gzip.etag, `W/${route.identity.etag}`, '"nope"', '*', 'garbage', route.identity.etag.slice(1, -1), ''];
    for (let i = 0; i < 150; i += 1) {
      const inm = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(next, tags)).join(pick(next, [',', ', ']));
      const ae = pick(next, [undefined, 'gzip', 'br']);
      const headers: Record<string, string> = { 'If-None-Match': inm, ...(ae === undefined ? {} : { 'Accept-Encoding': ae }) };
      if (next() < 0.3) headers['If-Modified-Since'] = pick(next, [table.lastModified, 'Thu, 01 Jan 2099 00:00:00 GMT', 'Thu, 01 Jan 1970 00:00:00 GMT']);
      const [n, e] = await both(request(origins.nginx, 'GET', PROFILE, headers));
      assert.deepEqual(essence(n), essence(e), JSON.stringify(headers));
    }
  });
});
