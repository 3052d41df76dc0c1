// The edge Worker in this process (no runtime): its answers equal the embedded server's, header for header, for every route and error; the bundle and its limits, at 16 and 1,000 markets; the seeded fuzz on its code.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { synthetic } from '../support/upstream/index.ts';
import { workerdDate } from '../../scripts/edge-run.ts';
import { artifactFiles } from '../../src/artifact/write.ts';
import { ASSET_SIZE_LIMIT, edgeAssetFiles, edgeData } from '../../src/artifact/edge-data.ts';
import { createEdgeWorker, type EdgeEnv, type EdgeWorker } from '../../src/runtimes/edge-worker.ts';
import {
  ASSET_FILE_LIMIT,
  EDGE_ASSETS_DIR,
  EDGE_COMPATIBILITY_DATE,
  EDGE_CONFIG_FILE,
  EDGE_WORKER_FILE,
  WORKER_SCRIPT_LIMIT,
  edgeWorkerScript,
} from '../../src/artifact/edge.ts';
import { buildManifest } from '../../src/artifact/manifest.ts';
import { PATHS } from '../../src/contract/paths.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import type { RunningServer } from '../../src/runtimes/server/listener.ts';
import { assetsOf } from '../support/edge-assets.ts';
import { startEmbedded } from '../support/embedded.ts';
import { checkResponse, exchange, request, type Expected, type RawResponse } from '../support/http-suite.ts';
import { SEED, generator, summary } from '../support/fuzz.ts';
import { buildWorld } from '../world/world.ts';

/** The route table for http://localhost:3000 and the artifact's files from it, built once for the tests that read them. */
let local: { table: RouteTable; files: Map<string, Buffer> } | undefined;
const localBuild = (): { table: RouteTable; files: Map<string, Buffer> } => {
  if (local === undefined) {
    const table = buildWorld({ baseUrl: 'http://localhost:3000' });
    local = { table, files: artifactFiles(table) };
  }
  return local;
};

/** Headers that belong to node's HTTP layer, not to the answer. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const headersOf = (h: Iterable<[string, string]>): string[] =>
  [...h]
    .map(([k, v]): [string, string] => [k.toLowerCase(), v])
    .filter(([k]) => !TRANSPORT.has(k))
    .map(([k, v]) => `${k}: ${v}`)
    .sort();

describe('the edge Worker answers like the embedded server', () => {
  let running: RunningServer;
  let table: RouteTable;
  let worker: EdgeWorker;
  let env: EdgeEnv;
  before(async () => {
    ({ running, table } = await startEmbedded());
    const files = artifactFiles(table);
    worker = createEdgeWorker(edgeData(buildManifest(table)));
    env = assetsOf(files);
  });
  after(() => running.close());

  /** `stated`: the header the Worker adds so that Cloudflare leaves the answer alone (docs/deploy.md, states-content-encoding). */
  const compare = async (method: string, target: string, headers: Record<string, string> = {}, stated: string[] = []): Promise<void> => {
    const label = `${method} ${target} ${JSON.stringify(headers)}`;
    // Raw bytes on the embedded server's side (fetch would add an Accept-Encoding and decode the answer).
    const ex = await exchange(running.url, request(running.url, method, target, headers), [method === 'HEAD']);
    const server = ex.responses[0];
    assert.ok(server, `${label}: the embedded server answered`);
    const edge = await worker.fetch({ method, url: `${table.baseUrl}${target}`, headers: new Headers(headers) }, env);
    assert.equal(edge.status, server.status, `${label}: status`);
    assert.deepEqual(headersOf(edge.headers.entries()), [...headersOf(server.headers), ...stated].sort(), `${label}: exactly the same headers`);
    assert.ok(Buffer.from(await edge.arrayBuffer()).equals(server.body), `${label}: the same bytes`);
  };

  test('every route, in each of its codings, and its 304', async () => {
    for (const route of table.routes.values()) {
      for (const v of [route.identity, route.gzip, route.br]) {
        if (v === undefined) continue;
        // A coding the embedded server and Cloudflare pick alike (the header names one coding).
        const headers: Record<string, string> = v.encoding === 'identity' ? {} : { 'Accept-Encoding': v.encoding };
        await compare('GET', route.path, headers);
        await compare('HEAD', route.path, headers);
        // A 304 names its representation's coding when Cloudflare would otherwise add one.
        const stated = v.encoding === 'identity' ? [] : [`content-encoding: ${v.encoding}`];
        await compare('GET', route.path, { ...headers, 'If-None-Match': v.etag }, stated);
        await compare('GET', route.path, { ...headers, 'If-Modified-Since': table.lastModified }, stated);
      }
    }
  });

  test('errors, methods, preflights and path rules', async () => {
    const targets = [
      '/api/markets/us-zz-nope',
      '/api/markets/us-zz-nope/csv',
      '/api/markets/Not%20Safe',
      '/api/nope',
      '/api',
      '/healthz/x',
      '/no-such-page',
      '/api/markets/%zz',
      '/api/markets%2fus-tx-austin',
      '/api/markets/us%2Dtx%2Daustin',
      '/api/markets/us-tx-austin?x=1',
      '//api/markets',
      `/${'a'.repeat(3000)}`,
    ];
    for (const target of targets) {
      await compare('GET', target);
      await compare('HEAD', target);
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'PROPFIND']) {
      await compare(method, '/api/markets/us-tx-austin');
      await compare(method, '/api/nope');
    }
    await compare('OPTIONS', '/api/markets/us-tx-austin', { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' });
    await compare('OPTIONS', '/api/nope');
  });
});

describe('the Worker bundle and its configuration', () => {
  test('one ES module with no import, the build data inside, and a compatibility date the installed workerd supports', () => {
    const { files } = localBuild();
    const script = String(files.get(EDGE_WORKER_FILE));
    assert.doesNotMatch(script, /^\s*import\s/m, 'no import statement: everything is bundled');
    assert.match(script, /export \{\s*\w+ as default\s*\}/);
    assert.ok(script.includes('"/api/markets/us-tx-austin"'), 'script.includes(\'"/api/markets/us-tx-austin"\')');
    const config = JSON.parse(String(files.get(EDGE_CONFIG_FILE)).replace(/^\/\/.*\n/, '')) as { compatibility_date: string; assets: Record<string, unknown> };
    assert.equal(config.compatibility_date, EDGE_COMPATIBILITY_DATE);
    assert.deepEqual(config.assets, { directory: 'assets', binding: 'ASSETS', run_worker_first: true, html_handling: 'none', not_found_handling: 'none' });
    assert.ok(EDGE_COMPATIBILITY_DATE <= workerdDate(), `compatibility date ${EDGE_COMPATIBILITY_DATE} is after the installed workerd's ${workerdDate()}`);
    // Only route files and the 404 page are assets: not _headers or _redirects, which Wrangler would read as rules.
    const assets = [...files.keys()].filter((f) => f.startsWith(`${EDGE_ASSETS_DIR}/`));
    assert.ok(assets.includes(`${EDGE_ASSETS_DIR}/404.html`), 'assets.includes(`${EDGE_ASSETS_DIR}/404.html`)');
    assert.ok(!assets.some((f) => /_headers|_redirects|_problems/.test(f)), '!assets.some((f) => /_headers|_redirects|_problems/.test(f))');
    for (const file of assets)
      assert.equal(files.get(file), files.get(file.replace(EDGE_ASSETS_DIR, 'site')), `${file} is the site's own Buffer (written once, linked)`);
  });

  test('a thousand synthetic markets stay within the Workers limits: script size, asset count and asset size', () => {
    const table = buildWorld({ baseUrl: 'https://data.example.org', ...synthetic(1000) });
    const manifest = buildManifest(table);
    const data = edgeData(manifest);
    const script = edgeWorkerScript(data);
    const compressed = gzipSync(script).length;
    // The asset files deployed: each distinct body once (routes with the same bytes share one) as its parts, and the 404 page.
    const assetFiles = edgeAssetFiles(data);
    const parts = [...assetFiles.values()].flat();
    const assets = parts.length + 1;
    assert.ok(compressed < 3 * 1024 * 1024, `${compressed} bytes gzipped, under the free plan's 3 MB`);
    assert.ok(compressed < WORKER_SCRIPT_LIMIT, 'compressed < WORKER_SCRIPT_LIMIT');
    assert.ok(assets < ASSET_FILE_LIMIT, `${assets} asset files, under ${ASSET_FILE_LIMIT}`);
    const largest = Math.max(table.notFoundPage.length, ...parts.map((p) => p.end - p.start));
    assert.ok(largest <= ASSET_SIZE_LIMIT, `the largest asset file is ${largest} bytes, over ${ASSET_SIZE_LIMIT}`);
    // The bulk series CSV is over the limit at this size: it is the body stored in parts.
    const series = manifest.routes.find((r) => r.path === PATHS.bulkSeriesCsv)?.variants.find((v) => v.encoding === 'identity');
    assert.ok(series !== undefined && series.bytes > ASSET_SIZE_LIMIT, `the bulk series CSV is ${series?.bytes} bytes`);
    assert.equal(assetFiles.get(series.file)?.length, Math.ceil(series.bytes / ASSET_SIZE_LIMIT));
    console.log(
      `# 1,000 markets: ${manifest.routes.length} routes, ${assets} asset files (the largest ${largest} bytes), Worker ${script.length} bytes (${compressed} gzipped)`,
    );
  });
});

describe("the seeded fuzz on the Worker's own code, in this process", () => {
  // workerd gets the same 20,000 (test/integration/edge.test.ts); here the Worker's code gets them too, as the platform
  // hands them over (the target parsed as a URL, the headers as Headers, or refused by the platform), so a fault of the
  // code is told from one of the platform in front of it.
  test(`seed ${SEED.toString(16)}: 20,000 requests, no 5xx, Content-Length equal to the body, no 200 outside the route table`, async (t) => {
    const { table, files } = localBuild();
    const worker = createEdgeWorker(edgeData(buildManifest(table)));
    const env = assetsOf(files);
    const known = new Map<string, { path: string; encoding: string }>();
    for (const route of table.routes.values()) {
      for (const v of [route.identity, route.gzip, route.br])
        if (v !== undefined) known.set(createHash('sha256').update(v.body).digest('hex'), { path: route.path, encoding: v.encoding });
    }
    const x: Expected = { table, origin: table.baseUrl, baseUrl: table.baseUrl, known };
    const next = generator(table, new URL(table.baseUrl).host, SEED);
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let refused = 0;
    for (let i = 0; i < 20_000; i += 1) {
      const g = next();
      let url: string;
      let headers: Headers;
      try {
        if (!g.target.startsWith('/') || !/^[A-Za-z]+$/.test(g.method) || !/^HTTP\/1\.[01]$/.test(g.version)) throw new Error('the platform decides');
        url = new URL(g.target, table.baseUrl).href;
        headers = new Headers(g.lines.map((l): [string, string] => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
      } catch {
        refused += 1;
        continue;
      }
      const res = await worker.fetch({ method: g.method, url, headers }, env);
      const body = g.head ? Buffer.alloc(0) : Buffer.from(await res.arrayBuffer());
      const raw: RawResponse = { status: res.status, headers: [...res.headers.entries()], body, head: g.head };
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      try {
        assert.ok(res.status < 500, 'no 5xx');
        checkResponse(x, raw, g.label, { statedEncoding: true });
      } catch (error) {
        failures.push(`${g.label}: ${(error as Error).message.split('\n')[0] ?? ''}`);
      }
    }
    t.diagnostic(
      `statuses: ${summary(statuses)}; ${refused} left to the platform (a target that is no path, a method or header no Request can carry, another version)`,
    );
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} bad answers`);
    for (const status of [200, 304, 400, 404, 405]) assert.ok((statuses.get(status) ?? 0) > 0, `some ${status}`);
  });
});
