// The client package (client/) against the running server: every call, schemaVersion pinned, unknown fields tolerated, problems as typed errors, 304 revalidation; and it stays a fetch-only ES module with no dependencies, its types the contract's.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import ts from 'typescript';
import {
  CLIENT_SCHEMA_VERSION,
  DEFAULT_MAX_BYTES,
  MarketProfilesError,
  ProblemError,
  ResponseError,
  SchemaVersionError,
  KNOWN_MARKET_IDS,
  KNOWN_METRIC_IDS,
  KNOWN_SCORE_IDS,
  createClient,
  isKnownMarketId,
  isKnownMetricId,
  isKnownScoreId,
  metric,
  score,
  type MarketProfile as ClientProfile,
  type MarketProfilesClient,
} from 'market-profiles-client';
import { COPIED, contractModule, copiedModule, pathsModule, versionModule } from '../../client/scripts/generate.ts';
import { MARKET_IDS } from '../../src/contract/markets.ts';
import { METRIC_IDS } from '../../src/methodology/metrics.ts';
import { SCORE_KEYS } from '../../src/methodology/scores.ts';
import { CSV_CAVEATS, CSV_COLUMNS, PROFILE_CAVEATS, SCHEMA_VERSION, type MarketProfile } from '../../src/contract/schemas.ts';
import { PATHS } from '../../src/contract/paths.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { dripping } from '../support/dripping.ts';
import { startEmbedded } from '../support/embedded.ts';
import { WORLD_MARKET_IDS } from '../world/world.ts';

const ID = 'us-tx-austin';

/** A fetch that records each request's If-None-Match and the status it got. */
function recordingFetch(): { fetch: typeof fetch; seen: { url: string; ifNoneMatch: string | null; status: number }[] } {
  const seen: { url: string; ifNoneMatch: string | null; status: number }[] = [];
  return {
    seen,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      seen.push({ url: String(input), ifNoneMatch: new Headers(init?.headers).get('if-none-match'), status: res.status });
      return res;
    },
  };
}

/** One embedded server for this file, started on first use and closed after its last test: the tests only read from it. */
let embedded: ReturnType<typeof startEmbedded> | undefined;
const sharedEmbedded = (): ReturnType<typeof startEmbedded> => (embedded ??= startEmbedded());
after(async () => {
  if (embedded !== undefined) await (await embedded).running.close();
});

describe('the client against the running server', () => {
  let table: RouteTable;
  let baseUrl: string;
  before(async () => {
    ({ table, baseUrl } = await sharedEmbedded());
  });
  const served = (path: string): string => table.routes.get(path)?.identity.body.toString('utf8') ?? '';

  test('every call: the index, a profile, a market CSV and the bulk CSV as typed rows, the schemas, the descriptor, OpenAPI and the Data Package', async () => {
    const client = createClient({ baseUrl: `${baseUrl}/` });
    const index = await client.listMarkets();
    assert.equal(index.data.count, WORLD_MARKET_IDS.length);
    assert.deepEqual(index.caveats, PROFILE_CAVEATS);

    const profile = await client.getProfile(ID);
    assert.deepEqual(profile.data, JSON.parse(served(PATHS.profile(ID))));
    assert.deepEqual(profile.caveats, PROFILE_CAVEATS);
    assert.equal(profile.revalidated, false);
    assert.match(profile.etag ?? '', /^"/);

    const csv = await client.getMarketCsv(ID);
    assert.equal(csv.text, served(PATHS.marketCsv(ID)));
    assert.deepEqual(csv.caveats, CSV_CAVEATS);
    assert.equal(csv.data.length, Object.keys(profile.data.profile.metrics).length);
    for (const row of csv.data) {
      assert.deepEqual(
        Object.keys(row),
        CSV_COLUMNS.map((c) => c.name),
      );
      assert.equal(row.value, metric(profile.data, row.metric_id)?.value, row.metric_id);
      assert.equal(typeof row.value, 'number');
      assert.equal(row.live_data, false);
      assert.equal(row.market_name, 'Austin, TX');
    }
    const bulk = await client.getBulkCsv();
    assert.equal(bulk.text, served(PATHS.bulkCsv));
    assert.equal(bulk.data.length, served(PATHS.bulkCsv).split('\r\n').length - 2);
    assert.deepEqual(bulk.caveats, CSV_CAVEATS);

    assert.equal((await client.getCsvDescriptor()).data.columns.length, CSV_COLUMNS.length);
    assert.equal((await client.getProfileSchema()).data.$id, `${baseUrl}${PATHS.profileSchema}`);
    assert.equal((await client.getIndexSchema()).data.$id, `${baseUrl}${PATHS.indexSchema}`);
    assert.equal((await client.getOpenApi()).data.openapi, '3.1.0');
    assert.equal((await client.getDataPackage()).data.profile, 'tabular-data-package');
    assert.deepEqual((await client.getOpenApi()).caveats, []);
  });

  test('revalidates with If-None-Match: the 304 returns the value read before', async () => {
    const { fetch: recording, seen } = recordingFetch();
    const client = createClient({ baseUrl, fetch: recording });
    const first = await client.getProfile(ID);
    const again = await client.getProfile(ID);
    assert.equal(again.revalidated, true);
    assert.deepEqual(again.data, first.data);
    assert.deepEqual(again.caveats, PROFILE_CAVEATS);
    assert.deepEqual(
      seen.map((s) => [s.status, s.ifNoneMatch]),
      [
        [200, null],
        [304, first.etag],
      ],
    );
    const csv = await client.getMarketCsv(ID);
    const csvAgain = await client.getMarketCsv(ID);
    assert.equal(csvAgain.revalidated, true);
    assert.equal(csvAgain.text, csv.text);
  });

  test('an unknown market is a ProblemError with its code, for the JSON and the CSV', async () => {
    const client = createClient({ baseUrl });
    for (const call of [() => client.getProfile('us-zz-nowhere'), () => client.getMarketCsv('us-zz-nowhere')]) {
      await assert.rejects(call, (error: unknown) => {
        assert.ok(
          error instanceof ProblemError && error instanceof MarketProfilesError,
          'error instanceof ProblemError && error instanceof MarketProfilesError',
        );
        assert.equal(error.code, 'market_not_found');
        assert.equal(error.status, 404);
        assert.deepEqual(error.problem.knownMarketIds, [...WORLD_MARKET_IDS].sort());
        return true;
      });
    }
  });

  test('an id is sent as one encoded path segment: it cannot reach another path', async () => {
    await assert.rejects(
      () => createClient({ baseUrl }).getProfile('../schema/market-profile'),
      (e: unknown) => e instanceof ProblemError && e.code === 'bad_request' && e.status === 400,
    );
  });

  test('a service that cannot be reached is a MarketProfilesError naming the URL', async () => {
    await assert.rejects(
      () => createClient({ baseUrl: 'http://127.0.0.1:9' }).listMarkets(),
      (e: unknown) => e instanceof MarketProfilesError && /http:\/\/127\.0\.0\.1:9\/api\/markets/.test(e.message),
    );
  });
});

describe('the client against a service that stalls or breaks off', () => {
  test('timeoutMs is a deadline on the whole call: a body sent a byte at a time is cut at it', { timeout: 120_000 }, async () => {
    // Never idle for long, so only a deadline on the whole exchange ends it; the test's own timeout fails a regression.
    const slow = await dripping();
    try {
      await assert.rejects(
        () => createClient({ baseUrl: slow.url, timeoutMs: 1_000 }).listMarkets(),
        (e: unknown) => e instanceof MarketProfilesError && e.message === `GET ${slow.url}${PATHS.index} failed: no complete answer within 1000 ms`,
      );
    } finally {
      await slow.close();
    }
  });

  test('a body that breaks off is a MarketProfilesError naming the URL, like any other failure', async () => {
    // Declares 100,000 bytes, sends half of them and hangs up.
    const server = createNetServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
        socket.end(' '.repeat(49_999), () => socket.destroy());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await assert.rejects(
        () => createClient({ baseUrl }).getProfile(ID),
        (e: unknown) => e instanceof MarketProfilesError && e.message.startsWith(`GET ${baseUrl}${PATHS.profile(ID)} failed: `),
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the client against a service that sends more than maxBytes', () => {
  /** A server whose every answer is a JSON object of exactly `bytes` bytes (Content-Length), or, with `endless`, a chunked body that never ends; `closed` settles when a connection closes. */
  async function sending(bytes: number | 'endless'): Promise<{ url: string; closed: Promise<void>; close: () => Promise<void> }> {
    let closedNow: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (closedNow = resolve));
    const server = createServer((_req, res) => {
      res.on('close', closedNow);
      if (bytes !== 'endless') {
        const body = `{"pad":"${'x'.repeat(bytes - 10)}"}`;
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }).end(body);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"pad":"');
      const chunk = 'x'.repeat(64 * 1024);
      // As fast as the client reads, until it hangs up.
      const more = (): void => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', more);
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      closed,
      close: () => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(() => resolve()));
      },
    };
  }

  test('an answer of maxBytes is read; one byte more is a MarketProfilesError naming the URL and the limit', async () => {
    const exact = await sending(1000);
    try {
      const read = await createClient({ baseUrl: exact.url, maxBytes: 1000 }).getOpenApi();
      assert.equal(JSON.stringify(read.data).length, 1000);
      await assert.rejects(
        () => createClient({ baseUrl: exact.url, maxBytes: 999 }).getOpenApi(),
        (e: unknown) =>
          e instanceof MarketProfilesError &&
          e.message === `GET ${exact.url}${PATHS.openApi} failed: the answer declares 1000 bytes, more than maxBytes (999 bytes)`,
      );
    } finally {
      await exact.close();
    }
  });

  test('a body that never ends is cut at maxBytes: the call rejects and the connection is closed, the rest unread', async () => {
    const endless = await sending('endless');
    try {
      await assert.rejects(
        () => createClient({ baseUrl: endless.url, maxBytes: 64 * 1024 }).getProfile(ID),
        (e: unknown) => e instanceof MarketProfilesError && /failed: the answer is more than maxBytes \(65536 bytes\); the rest was not read$/.test(e.message),
      );
      // The server sees its answer closed: the client hung up instead of reading on (were it still reading, this would never settle).
      await endless.closed;
    } finally {
      await endless.close();
    }
  });

  test('maxBytes is a whole number of bytes, 256 MiB by default', () => {
    for (const maxBytes of [-1, 1.5, Number.NaN, Infinity])
      assert.throws(() => createClient({ baseUrl: 'http://127.0.0.1:9', maxBytes }), RangeError, String(maxBytes));
    assert.equal(DEFAULT_MAX_BYTES, 256 * 1024 * 1024);
  });
});

describe('the client against a service of another version, or with fields it does not know', () => {
  let server: Server;
  let baseUrl: string;
  before(async () => {
    const real = await sharedEmbedded();
    const text = (path: string): string => real.table.routes.get(path)?.identity.body.toString('utf8') ?? '';
    const profile = JSON.parse(text(PATHS.profile(ID))) as MarketProfile & Record<string, unknown>;
    const answers = new Map<string, [string, string]>([
      // A later, breaking schema version.
      [PATHS.profile(ID), ['application/json', JSON.stringify({ ...profile, schemaVersion: '2' })]],
      // Additive fields everywhere: top level, nested, in every index entry; and a CSV column more.
      [
        PATHS.profile('us-ny-new-york'),
        [
          'application/json',
          JSON.stringify({ ...JSON.parse(text(PATHS.profile('us-ny-new-york'))), addedLater: { any: 'shape' }, market: { ...profile.market, population: 1 } }),
        ],
      ],
      [PATHS.csvDescriptor, ['application/json', text(PATHS.csvDescriptor)]],
      [
        PATHS.marketCsv('us-ny-new-york'),
        [
          'text/csv; charset=utf-8',
          text(PATHS.marketCsv('us-ny-new-york'))
            .split('\r\n')
            .map((line, i) => (line === '' ? line : `${line},${i === 0 ? 'added_later' : 'x'}`))
            .join('\r\n'),
        ],
      ],
      ['/api/markets/us-ca-live', ['application/json', JSON.stringify({ ...profile, liveData: true })]],
      ['/api/markets/us-ca-html', ['text/html; charset=utf-8', '<p>not here</p>']],
    ]);
    server = createServer((req, res) => {
      const answer = answers.get(req.url ?? '');
      if (answer === undefined) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no');
        return;
      }
      res.writeHead(200, { 'Content-Type': answer[0], ETag: '"fixed"' }).end(answer[1]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test('a schemaVersion other than "1" is refused with a SchemaVersionError that says so', async () => {
    await assert.rejects(
      () => createClient({ baseUrl }).getProfile(ID),
      (e: unknown) =>
        e instanceof SchemaVersionError && e.schemaVersion === '2' && /schemaVersion "2"; this client reads schemaVersion "1" only/.test(e.message),
    );
  });

  test('unknown fields and columns are ignored: the data is read, the new fields are left alone', async () => {
    const client: MarketProfilesClient = createClient({ baseUrl });
    const profile = await client.getProfile('us-ny-new-york');
    assert.equal(profile.data.schemaVersion, '1');
    assert.deepEqual(profile.caveats, PROFILE_CAVEATS);
    const csv = await client.getMarketCsv('us-ny-new-york');
    assert.ok(csv.data.length > 0, 'csv.data.length > 0');
    for (const row of csv.data)
      assert.ok(!('added_later' in row) && row.market_id === 'us-ny-new-york', "!('added_later' in row) && row.market_id === 'us-ny-new-york'");
  });

  test('a claim of live data, or another content type, is a ResponseError; a 404 without problem+json too', async () => {
    const client = createClient({ baseUrl });
    await assert.rejects(
      () => client.getProfile('us-ca-live'),
      (e: unknown) => e instanceof ResponseError && /liveData true/.test(e.message),
    );
    await assert.rejects(
      () => client.getProfile('us-ca-html'),
      (e: unknown) => e instanceof ResponseError && /text\/html/.test(e.message),
    );
    await assert.rejects(
      () => client.listMarkets(),
      (e: unknown) => e instanceof ResponseError && e.status === 404,
    );
  });
});

const CLIENT = new URL('../../client/', import.meta.url);
const clientFile = (path: string): string => readFileSync(new URL(path, CLIENT), 'utf8');

describe('the client package in a browser', () => {
  test(
    "headless Chromium imports client/lib/client.js as a module from one origin and reads the service's profile and CSV at another",
    { timeout: 600_000 },
    async () => {
      const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
      assert.ok(existsSync(chromiumPath), `Chromium not found at ${chromiumPath}: npm run test:needs installs it, or set CHROMIUM_PATH.`);
      const { baseUrl, table } = await sharedEmbedded();
      // The page's origin: lib/ as a static site, and a page whose module script uses the client and reports in the title.
      const page = `<!doctype html><title>running</title><script type="module">
      import { createClient, ProblemError } from './lib/client.js';
      const client = createClient({ baseUrl: ${JSON.stringify(baseUrl)} });
      try {
        const profile = await client.getProfile('${ID}');
        const csv = await client.getMarketCsv('${ID}');
        const missing = await client.getProfile('us-zz-nowhere').catch((e) => (e instanceof ProblemError ? e.code : String(e)));
        document.title = JSON.stringify({ id: profile.data.market.id, caveats: profile.caveats.length, rows: csv.data.length, value: typeof csv.data[0].value, missing });
      } catch (error) {
        document.title = 'failed: ' + error;
      }
    </script>`;
      const site = createServer((req, res) => {
        const path = req.url ?? '/';
        if (path === '/') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
        else if (/^\/lib\/[a-z/-]+\.js$/.test(path)) res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(clientFile(path.slice(1)));
        else res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      const address = site.address();
      // No Playwright deadline (its 30 s defaults would fail a test on a busy machine that is only slow); the test's
      // ten-minute timeout is the hang guard.
      const browser = await chromium.launch({
        timeout: 0,
        executablePath: chromiumPath,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      });
      try {
        const tab = await browser.newPage();
        tab.setDefaultTimeout(0);
        await tab.goto(`http://localhost:${typeof address === 'object' && address !== null ? address.port : 0}/`);
        await tab.waitForFunction(() => document.title !== 'running');
        const title = await tab.title();
        assert.doesNotMatch(title, /^failed/);
        const rows = (table.routes.get(PATHS.marketCsv(ID))?.identity.body.toString('utf8') ?? '').split('\r\n').length - 2;
        assert.deepEqual(JSON.parse(title), { id: ID, caveats: PROFILE_CAVEATS.length, rows, value: 'number', missing: 'market_not_found' });
      } finally {
        await browser.close();
        await new Promise((resolve) => site.close(resolve));
      }
    },
  );
});

describe('the client package', () => {
  test('pins the schemaVersion of the contract', () => {
    assert.equal(CLIENT_SCHEMA_VERSION, SCHEMA_VERSION);
  });

  test('is fetch only: at run time it loads nothing but its generated modules, which load nothing (no node: module, no server)', () => {
    const runtimeImports = (source: string): string[] =>
      [...source.matchAll(/^\s*(?:import|export)\b(?!\s+type\b)[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gms)].map((m) => m[1] ?? '');
    assert.deepEqual(runtimeImports(clientFile('src/client.ts')), [
      './generated/contract.ts',
      './generated/csv-format.ts',
      './generated/paths.ts',
      './generated/untrusted.ts',
    ]);
    const generated = ['contract.ts', 'csv-format.ts', 'paths.ts', 'untrusted.ts', 'version.ts'].map((f) => clientFile(`src/generated/${f}`));
    for (const source of generated) assert.deepEqual(runtimeImports(source), []);
    assert.doesNotMatch([clientFile('src/client.ts'), ...generated].join('\n'), /from 'node:|require\(|process\./);
  });

  test('its generated modules are what the contract makes now: the build is not stale', async () => {
    const stale = 'client/src/generated/ is not what the contract makes now: run npm run compile';
    assert.ok(clientFile('src/generated/contract.ts') === (await contractModule()), stale);
    for (const file of COPIED) assert.ok(clientFile(`src/generated/${file.replace('contract/', '')}`) === copiedModule(file), `${stale} (${file})`);
    assert.ok(clientFile('src/generated/paths.ts') === pathsModule(), `${stale} (paths.ts)`);
    assert.ok(clientFile('src/generated/version.ts') === versionModule(), `${stale} (version.ts)`);
  });

  test("its known ids are the service's: the registry's metrics, markets and scores, each with its guard", () => {
    assert.deepEqual(KNOWN_METRIC_IDS, METRIC_IDS);
    assert.deepEqual(KNOWN_MARKET_IDS, MARKET_IDS);
    assert.deepEqual(KNOWN_SCORE_IDS, SCORE_KEYS);
    assert.deepEqual(['medianGrossRent', 'medianGrosRent', 'constructor'].map(isKnownMetricId), [true, false, false]);
    assert.deepEqual(['us-tx-austin', 'us-tx-austn'].map(isKnownMarketId), [true, false]);
    assert.deepEqual(['overall', 'overal'].map(isKnownScoreId), [true, false]);
  });

  test('metric() and score() read any id, one added after the client was built too, and nothing inherited', () => {
    const added = {
      profile: {
        scores: { overall: 61, resilienceAddedLater: 40 },
        metrics: { medianGrossRent: { id: 'medianGrossRent', value: 1729 }, medianRentAddedLater: { id: 'medianRentAddedLater', value: 12 } },
      },
    } as unknown as ClientProfile;
    assert.equal(metric(added, 'medianGrossRent')?.value, 1729);
    assert.equal(metric(added, 'medianRentAddedLater')?.value, 12);
    assert.equal(metric(added, 'permits'), undefined);
    assert.equal(metric(added, 'constructor'), undefined);
    assert.equal(score(added, 'overall'), 61);
    assert.equal(score(added, 'resilienceAddedLater'), 40);
    assert.equal(score(added, 'toString'), undefined);
  });

  test("its generated types are the contract's TypeBox types, to the type (tsc on test/support/client-contract-types.ts)", () => {
    const file = fileURLToPath(new URL('../support/client-contract-types.ts', import.meta.url));
    const program = ts.createProgram([file], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
      types: ['node'],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    assert.deepEqual(diagnostics, []);
  });

  test('has no dependency and no install script, exports its compiled ES module with types, and ships lib/ only', () => {
    const pkg = JSON.parse(clientFile('package.json')) as Record<string, unknown>;
    assert.equal(pkg.name, 'market-profiles-client');
    assert.equal(pkg.type, 'module');
    for (const key of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies', 'devDependencies'])
      assert.equal(pkg[key], undefined, key);
    // build, run by the root's prepare (npm ci) and by npm pack (prepack); no lifecycle script an install runs, prepare included.
    assert.deepEqual(Object.keys(pkg.scripts as object), ['build', 'prepack']);
    assert.deepEqual((pkg.exports as Record<string, unknown>)['.'], { types: './lib/client.d.ts', default: './lib/client.js' });
    assert.deepEqual((pkg.exports as Record<string, unknown>)['./cli'], { types: './lib/cli.d.ts', default: './lib/cli.js' });
    assert.deepEqual(pkg.bin, { 'market-profiles-client': 'lib/bin.js' });
    assert.match(clientFile('lib/bin.js'), /^#!\/usr\/bin\/env node\n/);
    assert.deepEqual(pkg.files, ['lib/']);
    assert.match(clientFile('lib/client.d.ts'), /export declare function createClient/);
  });

  test('is what the service depends on for list and get, resolved to client/lib', () => {
    const root = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
    assert.equal(root.dependencies['market-profiles-client'], 'file:client');
    assert.match(readFileSync(new URL('../../src/commands/read.ts', import.meta.url), 'utf8'), /from 'market-profiles-client';/);
    const resolved = createRequire(import.meta.url).resolve('market-profiles-client');
    assert.equal(resolved, fileURLToPath(new URL('lib/client.js', CLIENT)));
  });

  test("the root README's table lists every method of a client, once, in the interface's order", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const listed = [...readme.matchAll(/^\| `(\w+)\(/gm)].map((m) => m[1]);
    const methods = Object.keys(createClient({ baseUrl: 'http://localhost:3000' })).filter((key) => key !== 'baseUrl');
    assert.deepEqual([...listed].sort(), [...methods].sort());
  });

  test('npm pack of it is a few kilobytes: lib/, its README and package.json', async () => {
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
      execFile('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: fileURLToPath(CLIENT), encoding: 'utf8' }, (error, stdout) =>
        error === null ? resolve({ stdout }) : reject(error),
      );
    });
    const [packed] = JSON.parse(stdout) as { size: number; files: { path: string }[] }[];
    assert.ok(packed !== undefined, 'packed !== undefined');
    const files = packed.files.map((f) => f.path).sort();
    assert.deepEqual(
      files.filter((f) => !f.startsWith('lib/')),
      ['README.md', 'package.json'],
    );
    assert.ok(files.includes('lib/client.js') && files.includes('lib/client.d.ts'), "files.includes('lib/client.js') && files.includes('lib/client.d.ts')");
    assert.ok(
      files.every((f) => !f.endsWith('.ts') || f.endsWith('.d.ts')),
      'no TypeScript source',
    );
    // The README says "under 30 kB packed": lib/ alone stays under it (the four commands, the answer ceilings and the terminal escaping).
    assert.ok(packed.size < 30_000, `${packed.size} bytes packed`);
  });
});
