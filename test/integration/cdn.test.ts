// The CDN files (Netlify / Cloudflare Pages `_headers` and `_redirects`, S3 objects, CloudFront functions) checked against the manifest for every route.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { artifactFiles } from '../../src/artifact/write.ts';
import { buildManifest, SITE_DIR, type Manifest } from '../../src/artifact/manifest.ts';
import {
  CLOUDFLARE_PAGES_HEADER_RULES,
  CLOUDFRONT_FUNCTION_LIMIT,
  CLOUDFRONT_REQUEST_FILE,
  CLOUDFRONT_RESPONSE_FILE,
  HEADERS_FILE,
  REDIRECTS_FILE,
  S3_OBJECTS_FILE,
  S3_UPLOAD_FILE,
  type S3Object,
} from '../../src/artifact/cdn.ts';
import { ENDPOINT_LIST } from '../../src/contract/endpoints.ts';
import { RESERVED_MARKET_SEGMENTS, marketIdOf } from '../../src/protocol/request-target.ts';
import { synthetic } from '../support/upstream/index.ts';
import { buildTable } from '../support/data.ts';
import { buildWorld } from '../world/world.ts';

const table = buildTable();
const manifest: Manifest = buildManifest(table);
const files = artifactFiles(table);
const text = (file: string): string => {
  const bytes = files.get(file);
  assert.ok(bytes, `the artifact has ${file}`);
  return bytes.toString('utf8');
};
const CDN_OWNED = new Set(['etag', 'content-length', 'content-encoding']);
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Reads `_headers` the way Netlify and Cloudflare Pages do: a path line, then indented `Name: value` lines. */
function parseHeaders(source: string): Map<string, [string, string][]> {
  const rules = new Map<string, [string, string][]>();
  let current: [string, string][] | undefined;
  for (const line of source.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      assert.ok(!rules.has(line.trim()), `one rule for ${line}`);
      current = [];
      rules.set(line.trim(), current);
      continue;
    }
    const colon = line.indexOf(':');
    assert.ok(current !== undefined && colon > 0, `a header line inside a rule: ${line}`);
    current.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** Reads `_redirects` and answers a path the way Netlify does: the first matching rule wins, `:name` is one segment, `*` the rest. */
function redirects(source: string): { rules: [string, string, number][]; resolve: (path: string) => [string, number] | undefined } {
  const rules = source
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l): [string, string, number] => {
      const [from = '', to = '', status = ''] = l.trim().split(/\s+/);
      return [from, to, Number(status)];
    });
  const matches = (pattern: string, path: string): boolean =>
    new RegExp(
      `^${pattern
        .split('/')
        .map((seg) => (seg === '*' ? '.*' : seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}$`,
    ).test(path);
  return { rules, resolve: (path) => rules.find(([from]) => matches(from, path))?.slice(1) as [string, number] | undefined };
}

describe('_headers (Netlify, Cloudflare Pages)', () => {
  const rules = parseHeaders(text(HEADERS_FILE));

  test('every route has one exact rule with every header of the manifest but those the CDN computes', () => {
    for (const route of manifest.routes) {
      const rule = rules.get(route.path);
      assert.ok(rule, `a rule for ${route.path}`);
      const want = Object.entries(route.headers).filter(([k]) => !CDN_OWNED.has(k.toLowerCase()));
      assert.deepEqual(rule, want, route.path);
    }
  });

  test('no rule for anything but a route, and no wildcard that would add a header twice', () => {
    assert.deepEqual([...rules.keys()].sort(), manifest.routes.map((r) => r.path).sort());
  });

  test("over Cloudflare Pages' 100 rules (every route, with the vintages and series), the file says so and names the edge Worker", () => {
    assert.ok(rules.size > CLOUDFLARE_PAGES_HEADER_RULES, `${rules.size} rules`);
    assert.match(
      text(HEADERS_FILE),
      new RegExp(
        `^# ${rules.size} rules: Netlify reads them all, Cloudflare Pages only the first 100, so on Cloudflare deploy the edge Worker \\(dist/edge/\\) instead\\.$`,
        'm',
      ),
    );
  });
});

describe('_redirects (Netlify, Cloudflare Pages)', () => {
  const { rules, resolve } = redirects(text(REDIRECTS_FILE));

  test('every route resolves to its own file with 200, and the file is in the artifact', () => {
    for (const route of manifest.routes) {
      const target = resolve(route.path);
      if (`/${route.file}` === route.path) {
        assert.equal(target, undefined, `${route.path} is its own file: no rule`);
        continue;
      }
      assert.deepEqual(target, [`/${route.file}`, 200], route.path);
      assert.ok(files.has(join(SITE_DIR, route.file)), `${route.file} exists`);
    }
  });

  test('unknown API paths answer the problem bodies with 404, other paths fall through to 404.html', () => {
    const problem = (name: string): string => `/${manifest.problems.find((p) => p.file.endsWith(`/${name}`))?.file ?? ''}`;
    assert.deepEqual(resolve('/api/markets/us-xx-nowhere'), [problem('market-not-found.json'), 404]);
    assert.deepEqual(resolve('/api/markets/us-xx-nowhere/csv'), [problem('market-not-found.json'), 404]);
    assert.deepEqual(resolve('/api/nope'), [problem('not-found.json'), 404]);
    assert.deepEqual(resolve('/api'), [problem('not-found.json'), 404]);
    assert.equal(resolve('/no-such-page'), undefined);
    for (const [, to] of rules) assert.ok(files.has(join(SITE_DIR, to.slice(1))), `${to} exists`);
    const market = JSON.parse(text(join(SITE_DIR, problem('market-not-found.json').slice(1)))) as Record<string, unknown>;
    assert.equal(market.code, 'market_not_found');
    assert.deepEqual(market.knownMarketIds, [...table.marketIds].sort());
    assert.equal(JSON.parse(text(join(SITE_DIR, problem('not-found.json').slice(1)))).code, 'not_found');
    assert.ok(
      files.get(join(SITE_DIR, manifest.notFoundPage.file))?.equals(table.notFoundPage),
      'files.get(join(SITE_DIR, manifest.notFoundPage.file))?.equals(table.notFoundPage)',
    );
  });
  test('every market path of the records (a new one too) answers as the embedded server does: market_not_found for an unknown id, not_found with a bulk segment in its place', () => {
    const problem = (name: string): string => `/${manifest.problems.find((p) => p.file.endsWith(`/${name}`))?.file ?? ''}`;
    const routes = new Set(manifest.routes.map((r) => r.path));
    const marketRecords = ENDPOINT_LIST.flatMap(([, r]) => (r.scope === 'market' ? [r] : []));
    assert.ok(marketRecords.length >= 4, `${marketRecords.length} market paths`);
    for (const record of marketRecords) {
      const unknown = record.path('us-xx-nowhere');
      assert.equal(marketIdOf(unknown), 'us-xx-nowhere', `the server reads ${unknown} as a market path`);
      assert.deepEqual(resolve(unknown), [problem('market-not-found.json'), 404], unknown);
      for (const segment of RESERVED_MARKET_SEGMENTS) {
        const bulk = record.path(segment);
        if (routes.has(bulk)) continue;
        assert.equal(marketIdOf(bulk), undefined, `the server reads ${bulk} as no market`);
        assert.deepEqual(resolve(bulk), [problem('not-found.json'), 404], bulk);
      }
    }
  });
});

describe('S3 behind CloudFront', () => {
  const list = JSON.parse(text(S3_OBJECTS_FILE)) as { objects: S3Object[] };

  test('one object per route, keyed by its path, with the identity bytes and every header as metadata or response header', () => {
    for (const route of manifest.routes) {
      const key = route.path === '/' ? 'index.html' : route.path.slice(1);
      const objects = list.objects.filter((o) => o.key === key);
      assert.equal(objects.length, 1, key);
      const o = objects[0] as S3Object;
      const body = files.get(o.file);
      assert.ok(body, o.file);
      assert.equal(o.sha256, sha(body));
      assert.ok(body.equals(table.routes.get(route.path)?.identity.body ?? Buffer.alloc(0)), `${key}: identity bytes`);
      const served = {
        'Content-Type': o.metadata.ContentType,
        'Cache-Control': o.metadata.CacheControl,
        ...(o.metadata.ContentDisposition === undefined ? {} : { 'Content-Disposition': o.metadata.ContentDisposition }),
        ...o.responseHeaders,
      };
      const want = Object.fromEntries(Object.entries(route.headers).filter(([k]) => !CDN_OWNED.has(k.toLowerCase())));
      assert.deepEqual(Object.fromEntries(Object.entries(served).sort()), Object.fromEntries(Object.entries(want).sort()), key);
    }
  });

  test('the upload script puts every object with its metadata and is valid sh', () => {
    const script = text(S3_UPLOAD_FILE);
    for (const o of list.objects) {
      const disposition = o.metadata.ContentDisposition === undefined ? '' : ` --content-disposition '${o.metadata.ContentDisposition}'`;
      assert.ok(
        script.includes(
          `--key '${o.key}' --body '${o.file}' --content-type '${o.metadata.ContentType}' --cache-control '${o.metadata.CacheControl}'${disposition} >/dev/null\n`,
        ),
        `${o.key}: its line puts the object with its type, cache rule and (when it has one) attachment name, and nothing else`,
      );
    }
    const dir = mkdtempSync(join(tmpdir(), 'mp-s3-'));
    try {
      writeFileSync(join(dir, 'upload.sh'), script);
      execFileSync('sh', ['-n', join(dir, 'upload.sh')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** A viewer event as CloudFront Functions (JavaScript runtime 2.0) receive it. */
  const viewerEvent = (
    eventType: 'viewer-request' | 'viewer-response',
    method: string,
    uri: string,
    response?: Record<string, unknown>,
  ): Record<string, unknown> => ({
    version: '1.0',
    context: { distributionDomainName: 'd111111abcdef8.cloudfront.net', distributionId: 'EDFDVBD6EXAMPLE', eventType, requestId: 'test' },
    viewer: { ip: '198.51.100.11' },
    request: {
      method,
      uri,
      querystring: { utm: { value: 'x' } },
      headers: { host: { value: 'data.example.org' }, 'accept-encoding': { value: 'gzip, br' } },
      cookies: {},
    },
    ...(response === undefined ? {} : { response }),
  });
  /** Runs a function's code as CloudFront does: its own global scope, no network, no modules, no timers. */
  const load = (file: string): ((event: unknown) => Record<string, unknown>) => {
    const code = text(file);
    assert.ok(Buffer.byteLength(code) <= CLOUDFRONT_FUNCTION_LIMIT, `${file}: ${Buffer.byteLength(code)} bytes, within CloudFront's 10 KB`);
    assert.doesNotMatch(code, /\b(?:import|require|fetch|setTimeout|XMLHttpRequest)\b/, `${file}: nothing the runtime lacks`);
    return runInNewContext(`${code}; handler`, Object.create(null) as object) as (event: unknown) => Record<string, unknown>;
  };
  /** What S3 answers for a key: the object's status 200 with its stored metadata, as CloudFront hands it to viewer-response. */
  const s3Answer = (uri: string): Record<string, unknown> => {
    const o = list.objects.find((x) => `/${x.key}` === uri || (uri === '/index.html' && x.key === 'index.html'));
    assert.ok(o, `an S3 object for ${uri}`);
    const headers: Record<string, { value: string }> = {
      'content-type': { value: o.metadata.ContentType },
      'cache-control': { value: o.metadata.CacheControl },
      etag: { value: `"${o.sha256.slice(0, 32)}"` },
      'last-modified': { value: manifest.lastModified },
    };
    if (o.metadata.ContentDisposition !== undefined) headers['content-disposition'] = { value: o.metadata.ContentDisposition };
    return { statusCode: 200, statusDescription: 'OK', headers, cookies: {} };
  };

  test('the CloudFront functions, run on recorded viewer events for every route, error and method, answer what the manifest says', () => {
    const request = load(CLOUDFRONT_REQUEST_FILE);
    const response = load(CLOUDFRONT_RESPONSE_FILE);
    const answer = (
      method: string,
      path: string,
    ): { uri: string; statusCode: number; statusDescription: string; headers: Record<string, { value: string }> } => {
      const forwarded = request(viewerEvent('viewer-request', method, path)) as { uri: string; method: string };
      assert.equal(forwarded.method, method, `${method} ${path}: the method is passed on`);
      const res = response(viewerEvent('viewer-response', method, forwarded.uri, s3Answer(forwarded.uri))) as {
        statusCode: number;
        statusDescription: string;
        headers: Record<string, { value: string }>;
      };
      return { uri: forwarded.uri, ...res };
    };
    // GET and HEAD, and OPTIONS (a preflight CloudFront passes to the origin when the behaviour allows it): the same object.
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      for (const route of manifest.routes) {
        const res = answer(method, route.path);
        assert.equal(res.statusCode, 200, `${method} ${route.path}`);
        for (const [k, v] of Object.entries(route.headers)) {
          if (CDN_OWNED.has(k.toLowerCase())) continue;
          assert.equal(res.headers[k.toLowerCase()]?.value, v, `${method} ${route.path}: ${k}`);
        }
      }
      const errors: [string, string][] = [
        ['/api/markets/us-xx-nowhere', 'market-not-found.json'],
        ['/api/markets/us-xx-nowhere/csv', 'market-not-found.json'],
        ['/api/nope', 'not-found.json'],
        ['/api', 'not-found.json'],
        // As the embedded server: only /healthz itself is an API path, its neighbours are pages.
        ['/healthz/x', '404.html'],
        ['/no-such-page', '404.html'],
        ['/api/markets/us-tx-austin/', 'not-found.json'],
        ['/_problems/not-found.json', '404.html'],
        ['/404.html', '404.html'],
        // The page of `/` is stored as index.html; asked for by that name it is no route, as on the embedded server.
        ['/index.html', '404.html'],
        // A bulk document's segment is no market id: an unknown path under it is not_found, not market_not_found.
        ['/api/markets/series', 'not-found.json'],
      ];
      for (const [path, file] of errors) {
        const entry = [manifest.notFoundPage, ...manifest.problems].find((e) => e.file.split('/').pop() === file);
        assert.ok(entry, file);
        const res = answer(method, path);
        assert.equal(res.statusCode, 404, `${method} ${path}`);
        assert.equal(res.uri, `/${entry.file}`, `${method} ${path}: the error body it answers`);
        assert.equal(res.statusDescription, 'Not Found', `${method} ${path}: the status line's reason`);
        for (const [k, v] of Object.entries(entry.headers)) assert.equal(res.headers[k.toLowerCase()]?.value, v, `${method} ${path}: ${k}`);
        assert.equal(res.headers.etag, undefined, `${method} ${path}: no ETag on an error`);
        assert.equal(res.headers['last-modified'], undefined, `${method} ${path}: no Last-Modified on an error`);
      }
    }
  });

  test('beyond 10 KB (about 250 markets: the tables grow with the markets, not the routes) the functions are left out, and the S3 note says why', () => {
    const big = artifactFiles(buildWorld({ baseUrl: 'https://data.example.org', ...synthetic(300) }));
    assert.equal(big.has(CLOUDFRONT_REQUEST_FILE), false);
    assert.equal(big.has(CLOUDFRONT_RESPONSE_FILE), false);
    assert.match(String(big.get(S3_OBJECTS_FILE)), /over the 10 KB CloudFront Functions limit/);
  });
});
