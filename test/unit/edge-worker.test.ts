// The edge Worker's own decisions, in memory over the manifest and the table's bytes: which representation and file each answer takes, what it adds for Cloudflare, what a HEAD, a 304 and a bug send.
import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { assetParts, edgeAssetFiles, edgeData, type EdgeData } from '../../src/artifact/edge-data.ts';
import { EDGE_ASSETS_DIR, EDGE_WORKER_FILE } from '../../src/artifact/edge.ts';
import { buildManifest } from '../../src/artifact/manifest.ts';
import { artifactFiles } from '../../src/artifact/write.ts';
import { InvariantError } from '../../src/contract/errors.ts';
import { PATHS } from '../../src/contract/paths.ts';
import { cloudflareCoding, createEdgeWorker, type EdgeEnv } from '../../src/runtimes/edge-worker.ts';
import type { Route } from '../../src/routes/route-table.ts';
import { buildTable } from '../support/data.ts';
import { assetsOf } from '../support/edge-assets.ts';

const table = buildTable();
const manifest = buildManifest(table);
const data = edgeData(manifest);

const routeAt = (path: string): Route => {
  const route = table.routes.get(path);
  if (route === undefined) throw new Error(`no route ${path}`);
  return route;
};

/** The artifact's files, in memory: its assets folder is what the Worker's binding serves. */
const files = artifactFiles(table);

interface Answer {
  status: number;
  /** `name: value`, names in lower case, sorted. */
  headers: string[];
  body: Buffer;
  /** The URLs the Worker asked the assets binding for. */
  assets: string[];
}

/**
 * One request to a Worker over `data` and `files`, or what `over` gives instead; `cf` is Cloudflare's copy of the
 * client's Accept-Encoding, where it gives one.
 */
async function ask(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  cf?: string,
  over: { data?: EdgeData; files?: ReadonlyMap<string, Buffer> } = {},
): Promise<Answer> {
  const assets: string[] = [];
  const res = await createEdgeWorker(over.data ?? data).fetch(
    { method, url: `${table.baseUrl}${target}`, headers: new Headers(headers), ...(cf === undefined ? {} : { cf: { clientAcceptEncoding: cf } }) },
    assetsOf(over.files ?? files, assets),
  );
  return { status: res.status, headers: lines([...res.headers.entries()]), body: Buffer.from(await res.arrayBuffer()), assets };
}

const lines = (headers: Iterable<readonly [string, string]>): string[] => [...headers].map(([k, v]) => `${k.toLowerCase()}: ${v}`).sort();

/** The headers of a route's 200 in one coding, from the table: its own, the coding (not for identity), ETag and length. */
function okLines(path: string, encoding: 'identity' | 'gzip' | 'br', extra: string[] = []): string[] {
  const route = routeAt(path);
  const v = route[encoding];
  if (v === undefined) throw new Error(`${path} has no ${encoding}`);
  const coding = encoding === 'identity' ? [] : [`content-encoding: ${encoding}`];
  return [...lines(route.headers), ...coding, `etag: ${v.etag}`, `content-length: ${v.body.length}`, ...extra].sort();
}

/** The one file a route's representation is read from, as the manifest names it. */
const fileOf = (path: string, encoding: 'identity' | 'gzip' | 'br'): string =>
  manifest.routes.find((r) => r.path === path)?.variants.find((v) => v.encoding === encoding)?.file ?? '';

/** The assets binding reads the path of an absolute URL. */
const assetPaths = (answer: Answer): string[] => answer.assets.map((u) => new URL(u).pathname);

const problemCode = (a: Answer): string => (JSON.parse(a.body.toString('utf8')) as { code: string }).code;

describe("a route's 200", () => {
  test('each coding: the route headers, its ETag and length, and the bytes of the file the manifest names', async () => {
    for (const [accept, encoding] of [
      [undefined, 'identity'],
      ['gzip', 'gzip'],
      ['br', 'br'],
    ] as const) {
      const a = await ask('GET', '/api/markets', accept === undefined ? {} : { 'Accept-Encoding': accept });
      const label = `Accept-Encoding ${accept ?? '(none)'}`;
      assert.equal(a.status, 200, label);
      assert.deepEqual(a.headers, okLines('/api/markets', encoding), label);
      assert.ok(a.body.equals((routeAt('/api/markets')[encoding] as { body: Buffer }).body), `${label}: the bytes`);
      assert.deepEqual(assetPaths(a), [`/${fileOf('/api/markets', encoding)}`], `${label}: one file read`);
    }
  });

  test('a HEAD: the same headers, no body, and no file read', async () => {
    const a = await ask('HEAD', '/api/markets/us-tx-austin/csv', { 'Accept-Encoding': 'gzip' });
    assert.equal(a.status, 200);
    assert.deepEqual(a.headers, okLines('/api/markets/us-tx-austin/csv', 'gzip'));
    assert.equal(a.body.length, 0);
    assert.deepEqual(a.assets, []);
  });

  test('the query string is not part of the path', async () => {
    const a = await ask('GET', '/api/markets/us-tx-austin?format=csv&x=1');
    assert.equal(a.status, 200);
    assert.deepEqual(a.headers, okLines('/api/markets/us-tx-austin', 'identity'));
  });
});

describe('304', () => {
  const path = '/api/markets';
  const kept = (encoding: 'identity' | 'gzip' | 'br', extra: string[] = []): string[] =>
    [
      ...lines(
        routeAt(path).headers.filter(([k]) =>
          ['cache-control', 'vary', 'access-control-allow-origin', 'access-control-expose-headers', 'x-content-type-options'].includes(k.toLowerCase()),
        ),
      ),
      `etag: ${(routeAt(path)[encoding] as { etag: string }).etag}`,
      ...extra,
    ].sort();

  test("If-None-Match with the chosen representation's ETag: 304, the headers a 304 keeps, no body, no file read", async () => {
    const a = await ask('GET', path, { 'If-None-Match': routeAt(path).identity.etag });
    assert.equal(a.status, 304);
    assert.deepEqual(a.headers, kept('identity'));
    assert.equal(a.body.length, 0);
    assert.deepEqual(a.assets, []);
    // Another representation's ETag does not match this one.
    assert.equal((await ask('GET', path, { 'If-None-Match': (routeAt(path).gzip as { etag: string }).etag })).status, 200);
  });

  test('If-Modified-Since: 304 from the build time on, 200 before it; If-None-Match, when sent, decides alone', async () => {
    const lastModified = Date.parse(table.lastModified);
    assert.equal((await ask('GET', path, { 'If-Modified-Since': table.lastModified })).status, 304);
    assert.equal((await ask('GET', path, { 'If-Modified-Since': new Date(lastModified + 1000).toUTCString() })).status, 304);
    assert.equal((await ask('GET', path, { 'If-Modified-Since': new Date(lastModified - 1000).toUTCString() })).status, 200);
    assert.equal((await ask('GET', path, { 'If-Modified-Since': 'not a date' })).status, 200);
    assert.equal((await ask('GET', path, { 'If-None-Match': '"other"', 'If-Modified-Since': table.lastModified })).status, 200);
  });

  test('a 304 names its coding only where Cloudflare would add one', async () => {
    const gzip = (routeAt(path).gzip as { etag: string }).etag;
    // The client's coding, as Cloudflare reads it, is gzip: the 304 says gzip, as the 200 would.
    assert.deepEqual((await ask('GET', path, { 'Accept-Encoding': 'gzip', 'If-None-Match': gzip }, 'gzip')).headers, kept('gzip', ['content-encoding: gzip']));
    // Nothing Cloudflare reads as a coding: nothing added.
    assert.deepEqual((await ask('GET', path, { 'If-None-Match': routeAt(path).identity.etag })).headers, kept('identity'));
    assert.deepEqual((await ask('GET', path, { 'Accept-Encoding': 'x-gzip', 'If-None-Match': gzip }, 'x-gzip')).headers, kept('gzip'));
  });
});

describe("Cloudflare's compression, kept off the route bytes", () => {
  test('how Cloudflare reads Accept-Encoding', () => {
    const cases: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ['', undefined],
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['gzip, br', 'gzip'],
      ['br;q=1.0, gzip;q=0.8, *;q=0.1', 'br'],
      ['gzip;q=0.5, br', 'br'],
      ['gzip;q=0, br;q=0', 'identity'],
      ['identity', 'identity'],
      ['identity;q=0, gzip', 'gzip'],
      ['identity;q=0', 'refuse'],
      ['*', 'identity'],
      ['deflate', 'identity'],
      ['x-gzip', undefined],
      [';;;', undefined],
      // The runtime reads coding names in lower case only: `GZIP` is no element it reads, so br is its pick here.
      ['GZIP', undefined],
      ['GZIP, br;q=0.5', 'br'],
      ['gzip;q=0x5, br;q=0.1', 'br'],
    ];
    for (const [header, want] of cases) assert.equal(cloudflareCoding(header), want, JSON.stringify(header));
  });

  test("Cloudflare's reading: spaces around `;`, `*;q=0` refusing identity, a coding it does not make passed over", () => {
    const cases: [string, string][] = [
      ['gzip; q=0.5, br;q=0.1', 'gzip'],
      ['gzip ;q=0.5, br;q=0.1', 'gzip'],
      ['*;q=0', 'refuse'],
      ['gzip;q=0, *;q=0', 'refuse'],
      ['deflate, gzip;q=0.5', 'gzip'],
      ['zstd, br;q=0.5', 'br'],
    ];
    for (const [header, want] of cases) assert.equal(cloudflareCoding(header), want, JSON.stringify(header));
  });

  test('an identity answer says so exactly for the types Cloudflare compresses: JSON, HTML, CSS, plain text, XML', async () => {
    const compresses = new Set(['application/json', 'text/html', 'text/css', 'text/plain', 'application/xml']);
    // gzip is acceptable, but less so than identity: identity goes out, where Cloudflare would pick gzip.
    const accept = 'gzip;q=0.001';
    const types = new Map<string, string>();
    for (const route of table.routes.values()) types.set(route.contentType.split(';')[0] ?? '', route.path);
    assert.deepEqual([...types.keys()].sort(), ['application/json', 'application/xml', 'application/zip', 'text/css', 'text/csv', 'text/html', 'text/plain']);
    for (const [type, path] of types) {
      const a = await ask('GET', path, { 'Accept-Encoding': accept }, accept);
      assert.deepEqual(a.headers, okLines(path, 'identity', compresses.has(type) ? ['content-encoding: identity'] : []), `${type} (${path})`);
    }
  });

  test('the coding Cloudflare would pick is sent when the route has it; identity answers of its types say so; 304s name their coding', async () => {
    const worker = createEdgeWorker(data);
    const env = assetsOf(files);
    const get = (path: string, headers: Record<string, string>): Promise<Response> =>
      worker.fetch(
        { method: 'GET', url: `http://localhost:3000${path}`, headers: new Headers(headers), cf: { clientAcceptEncoding: headers['Accept-Encoding'] ?? '' } },
        env,
      );
    // A tie between gzip and br: the embedded server sends br, Cloudflare would recode it to gzip, so gzip goes out.
    assert.equal((await get('/api/markets', { 'Accept-Encoding': 'gzip, br' })).headers.get('content-encoding'), 'gzip');
    // `*`: Cloudflare strips a coding it did not pick, so identity goes out, without a header to say so.
    assert.equal((await get('/api/markets', { 'Accept-Encoding': '*' })).headers.get('content-encoding'), null);
    // gzip is acceptable but less so than identity: identity, stated, so Cloudflare does not compress it itself.
    assert.equal((await get('/api/markets', { 'Accept-Encoding': 'gzip;q=0.001' })).headers.get('content-encoding'), 'identity');
    // CSV is not a type Cloudflare compresses: nothing stated.
    assert.equal((await get('/api/markets/us-tx-austin/csv', { 'Accept-Encoding': 'gzip;q=0.001' })).headers.get('content-encoding'), null);
    // The client's own Accept-Encoding is the one in cf.clientAcceptEncoding (the header is Cloudflare's rewrite).
    const rewritten = await worker.fetch(
      {
        method: 'GET',
        url: 'http://localhost:3000/api/markets',
        headers: new Headers({ 'Accept-Encoding': 'br, gzip' }),
        cf: { clientAcceptEncoding: 'identity' },
      },
      env,
    );
    assert.equal(rewritten.headers.get('content-encoding'), null);
    const etag = table.routes.get('/api/markets')?.gzip?.etag ?? '';
    const revalidated = await get('/api/markets', { 'Accept-Encoding': 'gzip', 'If-None-Match': etag });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.headers.get('content-encoding'), 'gzip');
    assert.equal(revalidated.headers.get('etag'), etag);
  });

  test("Cloudflare's pick, when the route lacks it or the client refuses it in the server's reading: identity, stated", async () => {
    // /robots.txt has br only. Cloudflare takes the tie as gzip and would recode br, so identity goes out, stated.
    assert.deepEqual([routeAt('/robots.txt').gzip === undefined, routeAt('/robots.txt').br === undefined], [true, false], '/robots.txt: br only');
    const robots = await ask('GET', '/robots.txt', { 'Accept-Encoding': 'gzip, br' }, 'gzip, br');
    assert.deepEqual(robots.headers, okLines('/robots.txt', 'identity', ['content-encoding: identity']));
    assert.deepEqual(assetPaths(robots), [`/${fileOf('/robots.txt', 'identity')}`]);
    // Without `cf`, the Accept-Encoding header is taken as the client's: the same answer.
    assert.deepEqual((await ask('GET', '/robots.txt', { 'Accept-Encoding': 'gzip, br' })).headers, robots.headers);
    // `q=1x5` is q=1 to Cloudflare and a refusal to the server's reading, which picks gzip: br is refused, gzip would
    // be recoded, so identity.
    const refused = 'br;q=1x5, gzip;q=0.5, identity;q=0.1';
    assert.equal(cloudflareCoding(refused), 'br');
    assert.deepEqual(
      (await ask('GET', '/api/markets', { 'Accept-Encoding': refused }, refused)).headers,
      okLines('/api/markets', 'identity', ['content-encoding: identity']),
    );
    // Cloudflare's pick is the one the route has and the client accepts: sent, as is.
    const br = await ask('GET', '/api/markets', { 'Accept-Encoding': 'gzip' }, 'br, gzip;q=0.8');
    assert.deepEqual(br.headers, okLines('/api/markets', 'br'));
    assert.deepEqual(assetPaths(br), [`/${fileOf('/api/markets', 'br')}`]);
  });

  test('Cloudflare refusing every coding, or asking for identity: identity, stated for the types it compresses', async () => {
    assert.ok(routeAt('/healthz').gzip === undefined && routeAt('/healthz').br === undefined, '/healthz: identity only');
    for (const [cf, stated] of [
      ['identity;q=0', ['content-encoding: identity']],
      ['gzip', ['content-encoding: identity']],
      ['identity', []],
    ] as const) {
      const a = await ask('GET', '/healthz', { 'Accept-Encoding': cf }, cf);
      assert.deepEqual(a.headers, okLines('/healthz', 'identity', [...stated]), cf);
    }
    // The server's own pick would be br here (a tie with identity); Cloudflare stops at identity and would strip br.
    assert.deepEqual((await ask('GET', '/api/markets', { 'Accept-Encoding': 'br' }, 'identity, br')).headers, okLines('/api/markets', 'identity'));
    // Nothing acceptable to Cloudflare: identity, stated (Cloudflare answers 415 itself).
    assert.deepEqual(
      (await ask('GET', '/api/markets', { 'Accept-Encoding': 'br' }, 'identity;q=0')).headers,
      okLines('/api/markets', 'identity', ['content-encoding: identity']),
    );
  });
});

describe('answers that are not a route', () => {
  test('an unknown page: the HTML 404 page from its file; HEAD reads no file; Cloudflare told it is identity', async () => {
    const page = await ask('GET', '/no-such-page');
    const pageLines = lines([
      ['Content-Type', 'text/html; charset=utf-8'],
      ...Object.entries(manifest.notFoundPage.headers),
      ['Content-Length', String(table.notFoundPage.length)],
    ]);
    assert.equal(page.status, 404);
    assert.deepEqual(page.headers, pageLines);
    assert.ok(page.body.equals(table.notFoundPage), "the 404 page's bytes");
    assert.deepEqual(assetPaths(page), [`/${manifest.notFoundPage.file}`]);
    const head = await ask('HEAD', '/no-such-page');
    assert.equal(head.status, 404);
    assert.deepEqual(head.headers, pageLines);
    assert.equal(head.body.length, 0);
    assert.deepEqual(head.assets, []);
    assert.deepEqual((await ask('GET', '/no-such-page', { 'Accept-Encoding': 'gzip' }, 'gzip')).headers, [...pageLines, 'content-encoding: identity'].sort());
  });

  test('an unknown market and an unknown API path: problem documents; a HEAD has the length and no body', async () => {
    const market = await ask('GET', '/api/markets/us-zz-nope');
    assert.equal(market.status, 404);
    assert.equal(problemCode(market), 'market_not_found');
    assert.ok(market.headers.includes('content-type: application/problem+json'), market.headers.join('; '));
    assert.ok(market.headers.includes(`content-length: ${market.body.length}`), market.headers.join('; '));
    assert.deepEqual(market.assets, []);
    const head = await ask('HEAD', '/api/markets/us-zz-nope');
    assert.deepEqual(head.headers, market.headers);
    assert.equal(head.body.length, 0);
    assert.equal(problemCode(await ask('GET', '/api/nope')), 'not_found');
  });

  test('a bad target is 400 whatever the method; another method is 405 with Allow and a body; OPTIONS on a route is the preflight', async () => {
    const bad = await ask('GET', '/api/markets/%zz');
    assert.equal(bad.status, 400);
    assert.equal(problemCode(bad), 'bad_request');
    const badHead = await ask('HEAD', '/api/markets/%zz');
    assert.equal(badHead.status, 400);
    assert.equal(badHead.body.length, 0);
    assert.equal((await ask('POST', '/api/markets/%zz')).status, 400);
    for (const path of ['/api/markets/us-tx-austin', '/api/nope']) {
      const post = await ask('POST', path);
      assert.equal(post.status, 405, path);
      assert.ok(post.headers.includes('allow: GET, HEAD'), path);
      assert.equal(problemCode(post), 'method_not_allowed', path);
    }
    const preflight = await ask('OPTIONS', '/api/markets/us-tx-austin', { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' });
    assert.equal(preflight.status, 204);
    assert.ok(preflight.headers.includes('access-control-allow-methods: GET, HEAD'), preflight.headers.join('; '));
    assert.ok(!preflight.headers.some((h) => h.startsWith('content-encoding:')), preflight.headers.join('; '));
    assert.equal(preflight.body.length, 0);
    const stated = await ask('OPTIONS', '/api/markets/us-tx-austin', { 'Accept-Encoding': 'br' }, 'br');
    assert.deepEqual(stated.headers, [...preflight.headers, 'content-encoding: identity'].sort());
    assert.equal((await ask('OPTIONS', '/api/nope')).status, 404);
  });
});

describe('a bug', () => {
  test('a missing asset is a 500 problem, never other bytes', async () => {
    const worker = createEdgeWorker(data);
    const empty: EdgeEnv = { ASSETS: { fetch: () => Promise.resolve(new Response(null, { status: 404 })) } };
    const error = console.error;
    console.error = () => undefined;
    try {
      const res = await worker.fetch({ method: 'GET', url: `${table.baseUrl}/api/markets`, headers: new Headers() }, empty);
      assert.equal(res.status, 500);
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(((await res.json()) as { code: string }).code, 'internal_server_error');
    } finally {
      console.error = error;
    }
  });

  test('an assets binding that answers 404 with a body, or 200 with none, is a 500, never its bytes', async () => {
    const errors = mock.method(console, 'error', () => undefined);
    try {
      for (const [status, body] of [
        [404, 'Not Found'],
        [200, null],
      ] as const) {
        const env: EdgeEnv = { ASSETS: { fetch: () => Promise.resolve(new Response(body, { status })) } };
        const res = await createEdgeWorker(data).fetch({ method: 'GET', url: `${table.baseUrl}/api/markets`, headers: new Headers() }, env);
        assert.equal(res.status, 500, `${status} ${body}`);
        assert.equal(((await res.json()) as { code: string }).code, 'internal_server_error');
      }
      assert.equal(errors.mock.callCount(), 2);
    } finally {
      errors.mock.restore();
    }
  });

  test('the 500: its whole head and body, one log line naming the fault, no body for a HEAD, no other route touched', async () => {
    const errors = mock.method(console, 'error', () => undefined);
    try {
      const missing = structuredClone(data);
      const route = missing.routes['/api/markets'];
      assert.ok(route, 'a route at /api/markets');
      route.v = route.v.filter(([encoding]) => encoding !== 'identity');
      const get = await ask('GET', '/api/markets', {}, undefined, { data: missing });
      assert.equal(get.status, 500);
      assert.deepEqual(JSON.parse(get.body.toString('utf8')), {
        type: 'about:blank',
        title: 'Internal server error',
        status: 500,
        detail: 'Internal server error.',
        code: 'internal_server_error',
      });
      assert.deepEqual(
        get.headers,
        lines([
          ['Content-Type', 'application/problem+json'],
          ['Cache-Control', 'no-store'],
          ['Access-Control-Allow-Origin', '*'],
          ['Access-Control-Expose-Headers', 'ETag, Link, Content-Disposition'],
          ['X-Content-Type-Options', 'nosniff'],
          ['Content-Length', String(get.body.length)],
        ]),
      );
      assert.equal(errors.mock.callCount(), 1);
      assert.match(String(errors.mock.calls[0]?.arguments[0]), /^internal error: Error: \/api\/markets has no identity representation\n/);
      const head = await ask('HEAD', '/api/markets', {}, undefined, { data: missing });
      assert.equal(head.status, 500);
      assert.deepEqual(head.headers, get.headers);
      assert.equal(head.body.length, 0);
      // Other routes are not touched by one route's fault.
      assert.equal((await ask('GET', '/api/markets/us-tx-austin', {}, undefined, { data: missing })).status, 200);
      // A file the assets binding does not have: the log says which, and what the binding answered.
      const file = fileOf('/api/markets/us-tx-austin', 'identity');
      const lacking = new Map([...files].filter(([name]) => name !== `${EDGE_ASSETS_DIR}/${file}`));
      const gone = await ask('GET', '/api/markets/us-tx-austin', {}, undefined, { files: lacking });
      assert.equal(gone.status, 500);
      assert.deepEqual(gone.headers, get.headers);
      assert.equal(errors.mock.callCount(), 3);
      assert.equal(String(errors.mock.calls[2]?.arguments[0]).split('\n')[0], `internal error: Error: the assets binding answered 404 for ${file}`);
    } finally {
      errors.mock.restore();
    }
  });
});

describe('what the Worker is told of the build (edgeData)', () => {
  test('each distinct body is one asset file, shared by the routes that serve it; variants identity first; header sets once', () => {
    const variants = Object.values(data.routes).flatMap((r) => r.v);
    const files = edgeAssetFiles(data);
    assert.ok(files.size < variants.length, `${files.size} files for ${variants.length} variants`);
    // The current snapshot's documents, archived under its date with the very same bytes, are read from one file.
    const vintage = data.routes[PATHS.vintageIndex(table.snapshotDate)];
    assert.ok(vintage !== undefined, 'the vintage index of the current snapshot');
    assert.deepEqual(vintage.v, data.routes[PATHS.index]?.v);
    for (const [path, route] of Object.entries(data.routes)) {
      const encodings = route.v.map(([encoding]) => encoding);
      assert.deepEqual(
        encodings,
        ['identity', 'gzip', 'br'].filter((e) => encodings.includes(e as never)),
        `${path}: ${encodings.join()}`,
      );
      assert.equal(encodings[0], 'identity', path);
      // Within the asset size limit, a variant says nothing of parts.
      assert.ok(
        route.v.every((v) => v.length === 4),
        `${path}: no part length`,
      );
    }
    const sets = data.headerSets.map((set) => JSON.stringify(set));
    assert.equal(new Set(sets).size, sets.length, 'no header set twice');
    const used = new Set(Object.values(data.routes).map((r) => r.h));
    assert.deepEqual(
      [...used].sort((a, b) => a - b),
      [...sets.keys()],
      "every header set is some route's",
    );
    assert.ok(sets.length < Object.keys(data.routes).length / 2, `${sets.length} header sets for ${Object.keys(data.routes).length} routes`);
  });

  test('a part length is a whole number of bytes; a body of exactly that length is one file', () => {
    for (const partBytes of [0, -1, 1.5, Number.NaN, Infinity])
      assert.throws(
        () => edgeData(manifest, partBytes),
        (e: unknown) => e instanceof InvariantError && e.message === `partBytes ${partBytes} is not a positive whole number`,
        String(partBytes),
      );
    assert.ok(
      Object.values(edgeData(manifest, 1).routes).every((r) => r.v.every((v) => v[4] === 1)),
      'one byte: every body in parts',
    );
    const robots = routeAt('/robots.txt').identity.body.length;
    const [identity] = edgeData(manifest, robots).routes['/robots.txt']?.v ?? [];
    assert.deepEqual(identity?.slice(3), [robots], 'a body of exactly the part length keeps its one file');
    assert.deepEqual(
      assetParts('a.csv', 2 * 4096, 4096).map((p) => [p.file, p.start, p.end]),
      [
        ['a.csv.part1', 0, 4096],
        ['a.csv.part2', 4096, 8192],
      ],
      'an exact multiple: no empty last part',
    );
  });
});

describe('a body over the asset size limit', () => {
  // Cloudflare's limit is 25 MiB a file (ASSET_SIZE_LIMIT); 16 KiB parts split the 69 longest representations of the 16 markets.
  const PART = 16 * 1024;
  const split = edgeData(manifest, PART);
  const splitFiles = artifactFiles(table, { edgePartBytes: PART });

  test('is stored in parts no longer than the limit, which hold its bytes in order, and nothing else changes', () => {
    let stored = 0;
    for (const [file, parts] of edgeAssetFiles(split)) {
      const body = files.get(`${EDGE_ASSETS_DIR}/${file}`);
      assert.ok(body !== undefined, `${file} is an asset of the unsplit build`);
      assert.equal(parts.length, Math.max(1, Math.ceil(body.length / PART)), `${file}: ${body.length} bytes`);
      const read = parts.map((p) => splitFiles.get(`${EDGE_ASSETS_DIR}/${p.file}`));
      assert.ok(
        read.every((b) => b !== undefined && b.length <= PART),
        `${file}: every part is there, at most ${PART} bytes`,
      );
      assert.ok(Buffer.concat(read as Buffer[]).equals(body), `${file}: its parts, in order, are its bytes`);
      if (parts.length > 1) {
        stored += 1;
        assert.ok(!splitFiles.has(`${EDGE_ASSETS_DIR}/${file}`), `${file}: not also stored whole`);
      }
    }
    assert.ok(stored > 10, `${stored} bodies stored in parts`);
    // Only the assets change: every other file of the artifact but the Worker (which carries the part length) is the same.
    const others = (m: ReadonlyMap<string, Buffer>): string[] => [...m.keys()].filter((f) => !f.startsWith(`${EDGE_ASSETS_DIR}/`) && f !== EDGE_WORKER_FILE);
    assert.deepEqual(others(splitFiles), others(files));
    for (const f of others(files)) assert.ok(splitFiles.get(f)?.equals(files.get(f) as Buffer), f);
    // A body within the limit keeps its file and is not split.
    assert.deepEqual(assetParts('a.json', PART, PART), [{ file: 'a.json', start: 0, end: PART }]);
    assert.deepEqual(assetParts('a.json', PART + 1), [{ file: 'a.json', start: 0, end: PART + 1 }]);
    assert.deepEqual(
      assetParts('a.json', 2 * PART + 1, PART).map((p) => [p.file, p.start, p.end]),
      [
        ['a.json.part1', 0, PART],
        ['a.json.part2', PART, 2 * PART],
        ['a.json.part3', 2 * PART, 2 * PART + 1],
      ],
    );
  });

  test('is sent as one answer: the head and bytes of the whole file, its parts read in order', async () => {
    let stored = 0;
    for (const [path, route] of Object.entries(split.routes)) {
      for (const [encoding, file, , bytes, partBytes] of route.v) {
        // A body within the limit is read from its one file, as the tests above read it.
        if (partBytes === undefined) continue;
        stored += 1;
        const label = `${path} ${encoding}`;
        const body = routeAt(path)[encoding]?.body;
        const headers: Record<string, string> = encoding === 'identity' ? {} : { 'Accept-Encoding': encoding };
        const got = await ask('GET', path, headers, undefined, { data: split, files: splitFiles });
        assert.equal(got.status, 200, label);
        assert.deepEqual(got.headers, okLines(path, encoding), label);
        assert.ok(body !== undefined && got.body.equals(body), `${label}: the bytes`);
        assert.deepEqual(
          assetPaths(got),
          assetParts(file, bytes, partBytes).map((p) => `/${p.file}`),
          `${label}: the files read`,
        );
        const head = await ask('HEAD', path, headers, undefined, { data: split, files: splitFiles });
        assert.deepEqual([head.status, head.headers, head.body.length, head.assets], [200, okLines(path, encoding), 0, []], `HEAD ${label}`);
      }
    }
    assert.ok(stored > 50, `${stored} representations in parts`);
  });

  test("a body in one file is the binding's own stream, passed on as it is (the runtime keeps its length)", async () => {
    const streams: (ReadableStream | null)[] = [];
    const env: EdgeEnv = {
      ASSETS: {
        fetch: async (input: string) => {
          const res = await assetsOf(splitFiles).ASSETS.fetch(input);
          streams.push(res.body);
          return res;
        },
      },
    };
    const worker = createEdgeWorker(split);
    const whole = await worker.fetch({ method: 'GET', url: `${table.baseUrl}/robots.txt`, headers: new Headers() }, env);
    assert.equal(streams.length, 1);
    assert.equal(whole.body, streams[0], 'the same stream');
    const parted = await worker.fetch({ method: 'GET', url: `${table.baseUrl}${PATHS.bulkSeriesCsv}`, headers: new Headers() }, env);
    assert.ok(Buffer.from(await parted.arrayBuffer()).equals(routeAt(PATHS.bulkSeriesCsv).identity.body), 'the parts, whole');
    assert.ok(streams.length > 2 && !streams.includes(parted.body), 'parts go through a stream of their own');
  });

  test('a missing first part is a 500; a missing later part cuts the answer short, logged, never other bytes', async () => {
    const errors = mock.method(console, 'error', () => undefined);
    try {
      const body = routeAt(PATHS.bulkSeriesCsv).identity.body;
      const parts = assetParts(`${EDGE_ASSETS_DIR}/${fileOf(PATHS.bulkSeriesCsv, 'identity')}`, body.length, PART);
      assert.ok(parts.length >= 3, `${parts.length} parts`);
      const without = (file: string): Map<string, Buffer> => new Map([...splitFiles].filter(([name]) => name !== file));
      const first = await ask('GET', PATHS.bulkSeriesCsv, {}, undefined, { data: split, files: without(parts[0]?.file ?? '') });
      assert.equal(first.status, 500);
      assert.equal(errors.mock.callCount(), 1);
      const res = await createEdgeWorker(split).fetch(
        { method: 'GET', url: `${table.baseUrl}${PATHS.bulkSeriesCsv}`, headers: new Headers() },
        assetsOf(without(parts[1]?.file ?? '')),
      );
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-length'), String(body.length));
      // What arrives is the first part, then the body errors: a client sees a short answer, not a wrong one.
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const got: Uint8Array[] = [];
      await assert.rejects(async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          got.push(value);
        }
      });
      assert.ok(Buffer.concat(got).equals(body.subarray(0, PART)), `${Buffer.concat(got).length} bytes before the cut`);
      assert.equal(errors.mock.callCount(), 2);
      assert.equal(
        String(errors.mock.calls[1]?.arguments[0]),
        `answer cut short: the assets binding answered 404 for ${parts[1]?.file.slice(EDGE_ASSETS_DIR.length + 1)}`,
      );
    } finally {
      errors.mock.restore();
    }
  });
});
