// dist/ as a deployable artifact: the path → file mapping, the manifest against the bytes, file times, and engine configs derived from the manifest.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { artifactFiles, writeBuild } from '../../src/artifact/write.ts';
import { buildManifest, fileFor, NOT_FOUND_FILE, readBuild, SITE_DIR } from '../../src/artifact/manifest.ts';
import { startServer, type RunningServer } from '../../src/runtimes/server/listener.ts';
import { cdnFiles } from '../../src/artifact/cdn.ts';
import { nginxFiles, NGINX_HTTP_CONF, NGINX_SERVER_CONF } from '../../src/artifact/nginx.ts';
import fc from 'fast-check';
import { BROKEN_UTF8, COMMON_ACCEPT_ENCODINGS, RULE_PATTERNS } from '../../src/artifact/nginx-maps.ts';
import { nginxSize, nginxTime, quote } from '../../src/artifact/nginx-syntax.ts';
import { classifyPath } from '../../src/protocol/request-target.ts';
import { LIMITS } from '../../src/protocol/limits.ts';
import { buildTable } from '../support/data.ts';

const table = buildTable();
const manifest = buildManifest(table);
const files = artifactFiles(table);
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

describe('the path → file mapping', () => {
  test('a profile is a folder holding index.json, its CSV a folder below it; a dotted last segment is its own file', () => {
    assert.equal(fileFor({ path: '/api/markets/us-tx-austin', kind: 'json' }), 'api/markets/us-tx-austin/index.json');
    assert.equal(fileFor({ path: '/api/markets/us-tx-austin/csv', kind: 'csv' }), 'api/markets/us-tx-austin/csv/index.csv');
    assert.equal(fileFor({ path: '/assets/site.css', kind: 'css' }), 'assets/site.css');
    assert.equal(fileFor({ path: '/', kind: 'html' }), 'index.html');
  });

  test('no file of the site is also a folder of another, and no two routes share a file', () => {
    const names = [...files.keys()].filter((f) => f.startsWith(`${SITE_DIR}/`));
    for (const name of names) assert.ok(!names.some((other) => other.startsWith(`${name}/`)), `${name} is a file and a folder`);
    const mapped = manifest.routes.map((r) => r.file);
    assert.equal(new Set(mapped).size, mapped.length);
  });
});

describe('the manifest', () => {
  test('lists every route with its exact headers, and every variant with the bytes, hash and ETag of its file', () => {
    assert.deepEqual(
      manifest.routes.map((r) => r.path),
      [...table.routes.keys()].sort(),
    );
    for (const entry of manifest.routes) {
      const route = table.routes.get(entry.path);
      assert.ok(route, entry.path);
      assert.deepEqual(entry.headers, Object.fromEntries(route.headers));
      assert.equal(entry.contentType, route.contentType);
      const variants = [route.identity, route.gzip, route.br].filter((v) => v !== undefined);
      assert.deepEqual(
        entry.variants.map((v) => v.encoding),
        variants.map((v) => v.encoding),
      );
      for (const v of entry.variants) {
        const body = files.get(join(SITE_DIR, v.file));
        assert.ok(body, v.file);
        assert.equal(v.bytes, body.length);
        assert.equal(v.sha256, sha(body));
        assert.equal(v.etag, variants.find((x) => x.encoding === v.encoding)?.etag);
      }
    }
  });

  test('names the error bodies written as files, with their hashes', () => {
    assert.equal(manifest.notFoundPage.file, NOT_FOUND_FILE);
    for (const entry of [manifest.notFoundPage, ...manifest.problems]) {
      const body = files.get(join(SITE_DIR, entry.file));
      assert.ok(body, entry.file);
      assert.equal(entry.sha256, sha(body));
      assert.equal(entry.status, 404);
    }
    assert.equal(manifest.lastModified, table.lastModified);
    assert.deepEqual(manifest.marketIds, [...table.marketIds].sort());
  });

  test('is the manifest.json of the artifact', () => {
    assert.deepEqual(JSON.parse(files.get('manifest.json')?.toString('utf8') ?? '{}'), manifest);
  });
});

describe('engine configuration is generated from the manifest', () => {
  test('the nginx and CDN files of the artifact are exactly what the generators make of the manifest', () => {
    for (const [file, textOf] of [...nginxFiles(manifest), ...cdnFiles(manifest)]) assert.equal(files.get(file)?.toString('utf8'), textOf, file);
  });

  test('nginx has one exact location per route: the common request gets its variant file with literal headers, any other its full location', () => {
    const conf = files.get(NGINX_SERVER_CONF)?.toString('utf8') ?? '';
    const bodyOf = (path: string): string => {
      const location = conf.split(`location = ${quote(path)} {`);
      assert.equal(location.length, 2, path);
      return (location[1] ?? '').slice(0, (location[1] ?? '').indexOf('\n}'));
    };
    for (const r of manifest.routes) {
      // No condition in it: OPTIONS and conditional requests were sent to its full location by the server-level check.
      const fast = bodyOf(r.path);
      assert.ok(!fast.includes('if ('), r.path);
      for (const [name, value] of Object.entries(r.headers).filter(([k]) => k !== 'Content-Type'))
        assert.ok(fast.includes(`add_header ${name} ${quote(value)};`), `${r.path} ${name}`);
      const compressed = r.variants.filter((x) => x.encoding !== 'identity');
      if (compressed.length === 0) assert.ok(fast.includes(`try_files "/${r.file}" =500;`), r.file);
      else assert.match(fast, new RegExp(`try_files "/${r.file.replace(/[.]/g, '\\.')}\\$mp_sfx_(?:br_gzip|br|gzip)" =500;`), r.file);
      for (const v of r.variants)
        assert.ok(
          fast.includes(compressed.length === 0 ? `add_header ETag ${quote(v.etag)};` : `set $mp_t_${v.encoding} ${quote(v.etag)};`),
          `${r.path} ${v.encoding}`,
        );
      const full = bodyOf(`/__mp/slow${r.path}`);
      assert.ok(full.startsWith('\n    internal;'), r.path);
      assert.ok(full.includes(`try_files "/${r.file}" =500;`), r.file);
      for (const v of compressed) {
        assert.ok(
          full.includes(`set $mp_file "/${r.file}";`) && full.includes(`if ($mp_enc = ${v.encoding}) {\n        rewrite ^ /__mp/${v.encoding} last;`),
          `${r.path} ${v.encoding}`,
        );
      }
    }
    assert.match(conf, /location = \/__mp\/gzip \{\n {4}internal;[\s\S]*?gzip_static always;[\s\S]*?rewrite \^ \$mp_file break;\n\}/);
    assert.match(conf, /location = \/__mp\/br \{\n {4}internal;[\s\S]*?brotli_static always;[\s\S]*?rewrite \^ \$mp_file break;\n\}/);
  });

  test('the fast path knows the common Accept-Encoding values exactly, each choosing what the embedded server chooses', () => {
    const conf = files.get(NGINX_HTTP_CONF)?.toString('utf8') ?? '';
    const map = conf.slice(conf.indexOf('map $http_accept_encoding $mp_fe_br_gzip {'));
    const choices = Object.fromEntries(COMMON_ACCEPT_ENCODINGS.map((h) => [h, new RegExp(`\\n {4}${quote(h).replace(/[*]/g, '\\*')} (\\w+);`).exec(map)?.[1]]));
    // Worked by hand from RFC 9110 12.5.3 as negotiation.ts reads it: the highest q, ties to br, then gzip, then identity.
    assert.deepEqual(choices, {
      '': 'identity',
      identity: 'identity',
      gzip: 'gzip',
      br: 'br',
      'gzip, deflate': 'gzip',
      'deflate, gzip': 'gzip',
      'gzip, deflate, br': 'br',
      'gzip, deflate, br, zstd': 'br',
      'deflate, gzip, br, zstd': 'br',
      'br, gzip': 'br',
      'gzip, br': 'br',
      'br, deflate, gzip': 'br',
      '*': 'br',
    });
    assert.match(map, /\n {4}default \$mp_enc_br_gzip;\n\}/);
  });

  test('the check that lets the common request skip the server-level rules takes no request any of them would refuse', () => {
    const conf = files.get(NGINX_HTTP_CONF)?.toString('utf8') ?? '';
    const source =
      /map "\$status\|\$http_host\|\$request\|\$http_if_none_match\|\$http_if_modified_since" \$mp_gate \{\n {4}volatile;\n {4}"~(.*)" "";/
        .exec(conf)?.[1]
        ?.replaceAll('\\\\', '\\') ?? assert.fail('no $mp_gate map');
    const fast = new RegExp(source);
    // Character classes aside (a host may hold "(", ")", "*" and "+"), no group is repeated without bound.
    assert.doesNotMatch(source.replace(/\[(?:\\.|[^\]\\])*\]/g, '[]'), /\)(?:[*+]|\{\d*,\})/, 'no group repeated without bound');
    const key = (target: string, { method = 'GET', host = 'data.example.org', version = 'HTTP/1.1', status = '000', inm = '', ims = '' } = {}): string =>
      `${status}|${host}|${method} ${target} ${version}|${inm}|${ims}`;
    for (const target of ['/api/markets/us-tx-austin', '/api/markets/us-tx-austin/csv', '/assets/site.css', '/a.b/c~d_e-f'])
      assert.match(key(target), fast, target);
    assert.match(key('/api/markets', { method: 'HEAD', host: '127.0.0.1:8080', version: 'HTTP/1.0' }), fast, 'HEAD, a host with a port, HTTP/1.0');
    assert.match(key('/api/markets', { host: '', version: 'HTTP/1.0' }), fast, 'HTTP/1.0 without Host');
    assert.match(key(`/${'a'.repeat(2047)}`), fast, '2,048 bytes');
    const refused = [
      '/api/markets/../x',
      '/api/./x',
      '/api/..',
      '//api',
      '/api//x',
      '/%61',
      '/a?b',
      '/a#b',
      '/a\\b',
      'http://h/api',
      '*',
      `/${'a'.repeat(2048)}`,
    ];
    for (const target of refused) assert.doesNotMatch(key(target), fast, target);
    for (const [what, options] of Object.entries({
      POST: { method: 'POST' },
      OPTIONS: { method: 'OPTIONS' },
      'a bad Host': { host: 'a..b' },
      'a Host with a space': { host: 'a b' },
      'another version': { version: 'HTTP/2.0' },
      'an error page': { status: '404' },
      'If-None-Match': { inm: '*' },
      'If-Modified-Since': { ims: 'Sun, 29 Nov 2026 00:00:00 GMT' },
    }))
      assert.doesNotMatch(key('/api/markets', options), fast, what);
  });

  test("nginx's timeouts and header limit are the embedded server's LIMITS, so neither engine drifts from the other", () => {
    const conf = [...nginxFiles(manifest)].map(([, text]) => text).join('\n');
    const directive = (name: string): string[] => [...conf.matchAll(new RegExp(`^${name} ([^;]*);$`, 'gm'))].map((m) => m[1] ?? '');
    const seconds = (ms: number): string => `${ms / 1000}s`;
    assert.deepEqual(
      Object.fromEntries(
        [
          'keepalive_timeout',
          'client_header_timeout',
          'client_body_timeout',
          'send_timeout',
          'reset_timedout_connection',
          'large_client_header_buffers',
          'lingering_time',
          'lingering_timeout',
        ].map((name) => [name, directive(name)]),
      ),
      {
        keepalive_timeout: [seconds(LIMITS.keepAliveTimeoutMs)],
        client_header_timeout: [seconds(LIMITS.headersTimeoutMs)],
        client_body_timeout: [seconds(LIMITS.requestTimeoutMs)],
        // nginx resets a client that has not read for send_timeout; the embedded server checks every stalledWriteCheckMs.
        send_timeout: [seconds(LIMITS.stalledWriteCheckMs)],
        reset_timedout_connection: ['on'],
        large_client_header_buffers: [`1 ${LIMITS.maxHeaderSize / 1024}k`],
        // Left at nginx's defaults (lingering_time 30s, lingering_timeout 5s), which the embedded server's are.
        lingering_time: [],
        lingering_timeout: [],
      },
    );
    assert.deepEqual([LIMITS.lingeringTimeMs, LIMITS.lingeringTimeoutMs], [30_000, 5_000]);
  });

  test('a value nginx would read as a variable stops the build instead of being written', () => {
    assert.throws(() => quote('<http://example.org/$x>'), /no escape for "\$"/);
  });

  test('a limit is written in units nginx reads: whole seconds or milliseconds, whole KiB or bytes; a value nginx cannot take stops the build', () => {
    assert.deepEqual([10_000, 1_500, 0].map(nginxTime), ['10s', '1500ms', '0s']);
    assert.deepEqual([16 * 1024, 1_000].map(nginxSize), ['16k', '1000']);
    assert.throws(() => nginxTime(2.5), /no time of 2\.5 ms/);
    assert.throws(() => nginxTime(-1), /no time of -1 ms/);
    assert.throws(() => nginxSize(0), /no size of 0 bytes/);
    assert.throws(() => nginxSize(1024.5), /no size of 1024\.5 bytes/);
  });
});

describe("nginx's path rules", () => {
  const decodes = (path: string): boolean => {
    try {
      decodeURIComponent(path);
      return true;
    } catch {
      return false;
    }
  };
  const BYTES = ['00', '41', '7f', '80', '8f', '90', '9f', 'a0', 'bf', 'c0', 'c1', 'c2', 'df', 'e0', 'e1', 'ed', 'ee', 'ef', 'f0', 'f1', 'f4', 'f5', 'ff'];
  const escaped = fc.array(fc.oneof(fc.constant('a'), fc.constantFrom(...BYTES.flatMap((b) => [`%${b}`, `%${b.toUpperCase()}`]))), { maxLength: 8 });

  test('the pattern of broken UTF-8 matches exactly the percent-encoded bytes decodeURIComponent refuses', () => {
    const broken = new RegExp(BROKEN_UTF8, 'i');
    fc.assert(
      fc.property(escaped, (parts) => {
        const path = `/${parts.join('')}`;
        assert.equal(broken.test(path), !decodes(path), path);
      }),
      { seed: 21, numRuns: 20_000 },
    );
  });

  test('no pattern repeats a group without bound, so none needs a stack that grows with the path (PCRE2 JIT failed at about 1,900 bytes)', () => {
    for (const [rule, pattern] of Object.entries(RULE_PATTERNS)) assert.doesNotMatch(pattern, /\)(?:[*+]|\{\d*,\})/, rule);
  });

  test('the dot rule still refuses a dot segment behind 2,000 bytes, as the embedded server does', () => {
    const path = `/${'a'.repeat(1900)}/../api/markets/us-tx-austin`;
    assert.equal(classifyPath(path).kind, 'bad_request');
    assert.match(path, new RegExp(RULE_PATTERNS.dot, 'i'));
  });
});

describe('writing the build', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-artifact-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('every file carries the snapshot date as its modification time (nginx answers If-Modified-Since from it)', async () => {
    await writeBuild(table, join(dir, 'dist'));
    const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
    const written = walk(join(dir, 'dist'));
    assert.deepEqual(written.map((f) => relative(join(dir, 'dist'), f)).sort(), [...files.keys()].sort());
    const snapshot = Date.parse(table.lastModified);
    for (const file of written) assert.equal(statSync(file).mtimeMs, snapshot, file);
  });
});

describe('serve over dist/: only the bytes the build wrote go out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-served-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'dist');
  const site = join(out, SITE_DIR);
  const warned: string[] = [];
  let running: RunningServer;
  const AUSTIN = 'api/markets/us-tx-austin/index.json';
  const DENVER_CSV = 'api/markets/us-co-denver/series/csv/index.csv';
  const BOSTON = 'api/markets/us-ma-boston/series/index.json';
  const MIAMI = 'api/markets/us-fl-miami/index.json';

  before(async () => {
    await writeBuild(table, out, { builtFrom: 'test' });
    // Read back as serve reads it at start; then each file is changed under it, before its first request: other bytes
    // of the same length, a .gz of NULs, a cut .br, a FIFO.
    const read = readBuild(out, 'test') ?? assert.fail('the build is read back');
    const austin = readFileSync(join(site, AUSTIN));
    writeFileSync(join(site, AUSTIN), Buffer.from(austin.toString('latin1').replace(/"value": \d/, '"value": 9'), 'latin1'));
    writeFileSync(join(site, `${DENVER_CSV}.gz`), Buffer.alloc(statSync(join(site, `${DENVER_CSV}.gz`)).size));
    truncateSync(join(site, `${BOSTON}.br`), 100);
    rmSync(join(site, MIAMI));
    execFileSync('mkfifo', [join(site, MIAMI)]);
    running = await startServer(read, { host: '127.0.0.1', port: 0 }, { warn: (line) => warned.push(line) });
  });
  after(() => running.close());

  /** The bytes as sent, never decompressed. */
  const get = (path: string, encoding = 'identity'): Promise<{ status: number; encoding: string | undefined; body: Buffer }> =>
    new Promise((resolve, reject) => {
      request(running.url + path, { headers: { 'accept-encoding': encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
  const built = (path: string, encoding: 'identity' | 'gzip' | 'br'): Buffer | undefined => table.routes.get(path)?.[encoding]?.body;

  test('a file replaced by other bytes of the same length is refused by name (500); its compressed variants still go out', async () => {
    const identity = await get('/api/markets/us-tx-austin');
    assert.equal(identity.status, 500);
    assert.equal(JSON.parse(identity.body.toString()).code, 'internal_server_error');
    const br = await get('/api/markets/us-tx-austin', 'br');
    assert.equal(br.status, 200);
    assert.equal(br.encoding, 'br');
    assert.deepEqual(br.body, built('/api/markets/us-tx-austin', 'br'));
    assert.ok(
      warned.includes(
        `refused to serve the identity variant of /api/markets/us-tx-austin: ${AUSTIN}: its bytes are not the build's (their SHA-256 differs from the manifest's); rebuild`,
      ),
      warned.join('\n'),
    );
  });

  test('a .gz of NUL bytes is never sent as gzip; identity and br still are', async () => {
    const path = '/api/markets/us-co-denver/series/csv';
    assert.equal((await get(path, 'gzip')).status, 500);
    assert.deepEqual((await get(path)).body, built(path, 'identity'));
    assert.deepEqual((await get(path, 'br, gzip')).body, built(path, 'br'));
    assert.ok(
      warned.some((line) => line.endsWith(`${DENVER_CSV}.gz: its bytes are not the build's (their SHA-256 differs from the manifest's); rebuild`)),
      warned.join('\n'),
    );
  });

  test('a cut .br refuses br alone; identity and gzip still go out', async () => {
    const path = '/api/markets/us-ma-boston/series';
    assert.equal((await get(path, 'br')).status, 500);
    assert.deepEqual((await get(path)).body, built(path, 'identity'));
    assert.deepEqual((await get(path, 'gzip')).body, built(path, 'gzip'));
    const expected = built(path, 'br')?.length ?? 0;
    assert.ok(
      warned.some((line) => line.endsWith(`${BOSTON}.br: 100 bytes on disk, the manifest says ${expected}; rebuild`)),
      warned.join('\n'),
    );
  });

  test('a FIFO in place of a file is refused at once, without waiting for a writer; /healthz and the other routes answer', async () => {
    assert.equal((await get('/api/markets/us-fl-miami')).status, 500);
    assert.equal((await get('/healthz')).status, 200);
    assert.deepEqual((await get('/api/markets/us-ca-san-diego')).body, built('/api/markets/us-ca-san-diego', 'identity'));
    assert.ok(
      warned.some((line) => line.endsWith(`${MIAMI}: not a regular file; rebuild`)),
      warned.join('\n'),
    );
  });

  test('a refused file is named once, not at every request', async () => {
    await get('/api/markets/us-fl-miami');
    assert.equal(warned.filter((line) => line.includes(MIAMI)).length, 1);
  });
});
