// `verify` passes against the embedded server, nginx and the edge Worker, and fails, naming the fault, against deliberately broken deployments.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildRouteTable } from '../../src/build/build.ts';
import { main } from '../../src/commands/cli.ts';
import { fixturesOnDisk } from '../../src/sources/load.ts';
import type { Route, RouteTable } from '../../src/routes/route-table.ts';
import { etagOf } from '../../src/routes/variants.ts';
import { startServer } from '../../src/runtimes/server/listener.ts';
import { formatReport, sameMachine, verifyDeployment, type VerifyReport } from '../../src/commands/verify/verify.ts';
import { edgeOverFreshBuild } from '../../scripts/edge-run.ts';
import { freePort, nginxOverFreshBuild } from '../../scripts/nginx-run.ts';
import { dripping } from '../support/dripping.ts';
import { createProbe } from '../../src/commands/verify/http.ts';
import { unzip } from '../../src/commands/verify/unzip.ts';
import { zipArchive } from '../../src/render/zip.ts';

const FIXTURES = new URL('../../fixtures/', import.meta.url).pathname;
const ID = 'us-tx-austin';
const BIN = new URL('../../bin/market-profiles.js', import.meta.url).pathname;

/** A route with new identity bytes and every variant and ETag recomputed, as a real (wrong) build would have it. */
function withBody(route: Route, body: Buffer): Route {
  const gz = gzipSync(body);
  const br = brotliCompressSync(body);
  return {
    ...route,
    identity: { encoding: 'identity', body, etag: etagOf(body) },
    gzip: { encoding: 'gzip', body: gz, etag: etagOf(gz) },
    br: { encoding: 'br', body: br, etag: etagOf(br) },
  };
}

interface Deployment {
  url: string;
  stop: () => Promise<void>;
}

/** A route table built for a free loopback port, with that port. */
async function tableForFreePort(): Promise<{ port: number; table: RouteTable }> {
  const port = await freePort();
  return { port, table: buildRouteTable({ baseUrl: `http://127.0.0.1:${port}`, read: fixturesOnDisk(FIXTURES) }) };
}

/**
 * The table the embedded deployments below are served from, built once for this file: a deployment is a copy of it
 * (its own map of routes, so an alteration stays in that copy) served on its port, one deployment at a time.
 */
let shared: Promise<{ port: number; table: RouteTable }> | undefined;

/** Serves a copy of `built` with one route altered, through the embedded server. */
async function serveAltered(built: { port: number; table: RouteTable }, alter: (table: RouteTable) => void): Promise<Deployment> {
  const table: RouteTable = { ...built.table, routes: new Map(built.table.routes) };
  alter(table);
  const running = await startServer(table, { host: '127.0.0.1', port: built.port });
  return { url: table.baseUrl, stop: () => running.close() };
}

/**
 * Serves a copy of the route table with one route altered, through the embedded server: the shared table on its port
 * (free again once the previous deployment stopped), or, with `ownPort` (two deployments at once) or when something
 * else has taken that port meanwhile, a table built for a port of its own.
 */
async function embeddedDeployment(alter: (table: RouteTable) => void, { ownPort = false } = {}): Promise<Deployment> {
  if (ownPort) return serveAltered(await tableForFreePort(), alter);
  try {
    return await serveAltered(await (shared ??= tableForFreePort()), alter);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return serveAltered(await tableForFreePort(), alter);
  }
}

const failing = (report: VerifyReport): string[] => report.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);

const routeOf = (table: RouteTable, path: string): Route => {
  const route = table.routes.get(path);
  assert.ok(route, path);
  return route;
};

describe('verify against working deployments', () => {
  test('the embedded server passes every check', async () => {
    const deployment = await embeddedDeployment(() => undefined);
    try {
      const report = await verifyDeployment(deployment.url);
      assert.deepEqual(failing(report), [], formatReport(report));
      assert.ok(report.checks.length >= 16 * 3 + 10, `${report.checks.length} checks`);
    } finally {
      await deployment.stop();
    }
  });

  test('the address serve prints: links on http://localhost:<port>, verified at http://127.0.0.1:<port>, pass every check', async () => {
    const port = await freePort();
    const running = await startServer(buildRouteTable({ baseUrl: `http://localhost:${port}`, read: fixturesOnDisk(FIXTURES) }), { host: '127.0.0.1', port });
    try {
      const report = await verifyDeployment(`http://127.0.0.1:${port}`);
      assert.deepEqual(failing(report), [], formatReport(report));
      assert.equal(report.baseUrl, `http://localhost:${port}`);
      assert.equal(report.address, `http://127.0.0.1:${port}`);
      assert.ok(report.checks.length >= 16 * 3 + 10, `${report.checks.length} checks`);
      assert.ok(
        formatReport(report).startsWith(`verify http://localhost:${port} at http://127.0.0.1:${port} (the same machine by another name)\n`),
        'formatReport(report).startsWith(`verify http://localhost:${port} at http://127.0.0.1:${port} (the same machine by another name)\\n`)',
      );
    } finally {
      await running.close();
    }
  });

  test('a deployment built for another host: one failing check that names its BASE_URL and how to verify it', async () => {
    const port = await freePort();
    const running = await startServer(buildRouteTable({ baseUrl: 'https://data.example.org', read: fixturesOnDisk(FIXTURES) }), { host: '127.0.0.1', port });
    try {
      const report = await verifyDeployment(`http://127.0.0.1:${port}`);
      assert.equal(report.ok, false);
      assert.deepEqual(
        report.checks.map((c) => `${c.name}: ${c.detail}`),
        [
          `deployment BASE_URL: http://127.0.0.1:${port} serves a deployment built with BASE_URL=https://data.example.org (its links use it): run market-profiles verify https://data.example.org, or build it with BASE_URL=http://127.0.0.1:${port}`,
        ],
      );
    } finally {
      await running.close();
    }
  });

  test('this machine by any of its names is one machine; another host, port, scheme or path is not', () => {
    assert.equal(sameMachine('http://localhost:3000', 'http://127.0.0.1:3000'), true);
    assert.equal(sameMachine('http://localhost:3000/data', 'http://[::1]:3000/data'), true);
    assert.equal(sameMachine('http://0.0.0.0:3000', 'http://app.localhost:3000'), true);
    assert.equal(sameMachine('http://localhost:3000', 'http://127.0.0.1:3001'), false);
    assert.equal(sameMachine('http://localhost:3000', 'https://127.0.0.1:3000'), false);
    assert.equal(sameMachine('http://localhost:3000/a', 'http://127.0.0.1:3000/b'), false);
    assert.equal(sameMachine('http://localhost:3000', 'http://10.0.0.5:3000'), false);
    assert.equal(sameMachine('http://data.example.org', 'http://localhost'), false);
  });

  test('nginx serving dist/ with the generated configuration passes every check', async () => {
    const nginx = await nginxOverFreshBuild(FIXTURES);
    try {
      const report = await verifyDeployment(nginx.baseUrl);
      assert.deepEqual(failing(report), [], formatReport(report));
    } finally {
      await nginx.stop();
    }
  });

  test('the edge Worker on workerd (Miniflare, as wrangler dev runs it) over dist/ passes every check', async () => {
    const edge = await edgeOverFreshBuild(FIXTURES);
    try {
      const report = await verifyDeployment(edge.baseUrl);
      assert.deepEqual(failing(report), [], formatReport(report));
      assert.ok(report.checks.length >= 16 * 3 + 10, `${report.checks.length} checks`);
    } finally {
      await edge.stop();
    }
  });
});

describe('verify against broken deployments names the fault', () => {
  const cases: { name: string; alter: (table: RouteTable) => void; check: string; fault: RegExp }[] = [
    {
      name: 'a tampered CSV value',
      alter: (t) => {
        const route = routeOf(t, `/api/markets/${ID}/csv`);
        const text = route.identity.body.toString('utf8');
        const line = text.split('\r\n')[1] ?? '';
        const fields = line.split(',');
        const valueAt = fields.length - 7;
        fields[valueAt] = String(Number(fields[valueAt]) + 1);
        t.routes.set(route.path, withBody(route, Buffer.from(text.replace(line, fields.join(',')))));
      },
      check: `market ${ID} CSV`,
      fault: /value .* differs from the JSON's/,
    },
    {
      name: 'a wrong content type',
      alter: (t) => {
        const route = routeOf(t, `/api/markets/${ID}`);
        t.routes.set(route.path, { ...route, headers: route.headers.map(([k, v]) => [k, k === 'Content-Type' ? 'text/plain; charset=utf-8' : v] as const) });
      },
      check: `market ${ID} JSON`,
      fault: /Content-Type "text\/plain; charset=utf-8", expected exactly "application\/json"/,
    },
    {
      name: 'a profile that fails the served schema',
      alter: (t) => {
        const route = routeOf(t, `/api/markets/${ID}`);
        const doc = JSON.parse(route.identity.body.toString('utf8')) as { profile: { scores: Record<string, number> } };
        doc.profile.scores.overall = 150;
        t.routes.set(route.path, withBody(route, Buffer.from(`${JSON.stringify(doc, null, 2)}\n`)));
      },
      check: `market ${ID} JSON`,
      fault: /fails the served schema at \/profile\/scores\/overall/,
    },
    {
      name: 'a source that claims "high" confidence while serving an illustrative value',
      alter: (t) => {
        const route = routeOf(t, `/api/markets/${ID}`);
        const doc = JSON.parse(route.identity.body.toString('utf8')) as { sources: { sourceId: string; confidence: string }[] };
        for (const s of doc.sources) s.confidence = 'high';
        t.routes.set(route.path, withBody(route, Buffer.from(`${JSON.stringify(doc, null, 2)}\n`)));
      },
      check: `market ${ID} JSON`,
      fault: /source census-acs-5yr claims "high" confidence but serves the illustrative value of "medianRenterIncome"/,
    },
    {
      name: 'a bulk CSV missing a row',
      alter: (t) => {
        const route = routeOf(t, '/api/markets/csv');
        const lines = route.identity.body.toString('utf8').split('\r\n');
        lines.splice(5, 1);
        t.routes.set(route.path, withBody(route, Buffer.from(lines.join('\r\n'))));
      },
      check: 'bulk CSV /api/markets/csv',
      fault: /differs from the sorted union of the market CSVs/,
    },
    {
      name: 'a wrong attachment name',
      alter: (t) => {
        const route = routeOf(t, `/api/markets/${ID}/csv`);
        t.routes.set(route.path, {
          ...route,
          headers: route.headers.map(([k, v]) => [k, k === 'Content-Disposition' ? 'attachment; filename="data.csv"' : v] as const),
        });
      },
      check: `market ${ID} CSV`,
      fault: /Content-Disposition "attachment; filename=\\"data.csv\\""/,
    },
    {
      name: 'a page that is gone (dangling link)',
      alter: (t) => {
        t.routes.delete('/methodology');
      },
      check: 'links',
      fault: /\/methodology answered 404/,
    },
    {
      name: 'a gzip variant that is not the identity bytes',
      alter: (t) => {
        const route = routeOf(t, '/api/markets');
        const gz = gzipSync(Buffer.from('{}'));
        t.routes.set(route.path, { ...route, gzip: { encoding: 'gzip', body: gz, etag: etagOf(gz) } });
      },
      check: 'compression and Vary',
      fault: /\/api\/markets gzip: the decompressed bytes differ from the identity bytes/,
    },
    {
      name: 'a br variant that decompresses to far more than the identity bytes (a bomb): cut at their length',
      alter: (t) => {
        const route = routeOf(t, '/api/markets');
        const br = brotliCompressSync(Buffer.alloc(8 * 1024 * 1024), { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
        t.routes.set(route.path, { ...route, br: { encoding: 'br', body: br, etag: etagOf(br) } });
      },
      check: 'compression and Vary',
      fault: /\/api\/markets br: decompresses to more than the identity body's \d+ bytes/,
    },
    {
      name: 'a download whose first entry has the wrong CRC-32',
      alter: (t) => {
        const route = routeOf(t, '/api/download');
        const zip = Buffer.from(route.identity.body);
        const directory = zip.readUInt32LE(zip.length - 22 + 16);
        zip.writeUInt32LE((zip.readUInt32LE(directory + 16) ^ 1) >>> 0, directory + 16);
        t.routes.set(route.path, withBody(route, zip));
      },
      check: 'download /api/download',
      fault: /\/api\/download is not a readable zip: [^:]+: CRC-32 [0-9a-f]{8}, the directory says [0-9a-f]{8}/,
    },
    {
      name: 'a Data Package whose byte count is not what is served',
      alter: (t) => {
        const route = routeOf(t, '/api/datapackage');
        const doc = JSON.parse(route.identity.body.toString('utf8')) as { resources: { bytes: number }[] };
        const first = doc.resources[0];
        if (first !== undefined) first.bytes += 1;
        t.routes.set(route.path, withBody(route, Buffer.from(`${JSON.stringify(doc, null, 2)}\n`)));
      },
      check: 'Data Package /api/datapackage',
      fault: /\/api\/markets\/csv is \d+ bytes, the package says \d+/,
    },
    {
      name: 'an OpenAPI document that declares the wrong content type for the CSV',
      alter: (t) => {
        const route = routeOf(t, '/api/openapi');
        const text = route.identity.body.toString('utf8').replaceAll('"text/csv; charset=utf-8": {', '"text/csv": {');
        t.routes.set(route.path, withBody(route, Buffer.from(text)));
      },
      check: 'OpenAPI /api/openapi',
      fault: /\/api\/markets\/csv answers \["text\/csv"\], the deployment "text\/csv; charset=utf-8"/,
    },
  ];

  for (const c of cases) {
    test(c.name, async () => {
      const deployment = await embeddedDeployment(c.alter);
      try {
        const report = await verifyDeployment(deployment.url);
        assert.equal(report.ok, false);
        const check = report.checks.find((x) => x.name === c.check);
        assert.ok(check, `a check named ${c.check}`);
        assert.equal(check.ok, false, `${c.check} fails`);
        assert.match(check.detail, c.fault);
        assert.match(formatReport(report), new RegExp(`^FAIL  ${c.check.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `, 'm'));
      } finally {
        await deployment.stop();
      }
    });
  }

  test('a vintage link off the deployment is named and not followed; a vintage CSV is held to its dated attachment name', async () => {
    let date = '';
    const deployment = await embeddedDeployment((t) => {
      const route = routeOf(t, '/api/vintages');
      const doc = JSON.parse(route.identity.body.toString('utf8')) as { vintages: { snapshotDate: string; links: { index: string } }[] };
      const first = doc.vintages[0] ?? assert.fail('premise: a vintage');
      date = first.snapshotDate;
      first.links.index = 'http://example.invalid/markets';
      t.routes.set(route.path, withBody(route, Buffer.from(`${JSON.stringify(doc, null, 2)}\n`)));
      const csv = routeOf(t, `/api/vintages/${date}/markets/${ID}/csv`);
      t.routes.set(csv.path, {
        ...csv,
        headers: csv.headers.map(([k, v]) => [k, k === 'Content-Disposition' ? `attachment; filename="${ID}-housing.csv"` : v] as const),
      });
    });
    try {
      const report = await verifyDeployment(deployment.url);
      assert.deepEqual(report.checks.find((c) => c.name === 'vintages /api/vintages')?.faults, [
        `/api/vintages: the snapshot of ${date} links index to http://example.invalid/markets, not ${deployment.url}/api/vintages/${date}/markets`,
        `GET /api/vintages/${date}/markets/${ID}/csv has Content-Disposition "attachment; filename=\\"${ID}-housing.csv\\"", expected attachment; filename="${ID}-housing-${date}.csv"`,
      ]);
    } finally {
      await deployment.stop();
    }
  });

  test("the download's files are held to the bytes served one by one, and none larger than an answer may be is inflated", async () => {
    const csv = 'markets/us-tx-austin.csv';
    const json = 'markets/us-tx-austin.json';
    const faultsOf = async (alter: (files: Map<string, Buffer>) => void): Promise<string[] | undefined> => {
      const deployment = await embeddedDeployment((t) => {
        const route = routeOf(t, '/api/download');
        const files = unzip(route.identity.body);
        alter(files);
        t.routes.set(
          route.path,
          withBody(
            route,
            zipArchive(
              [...files].map(([name, body]) => ({ name, body })),
              '2026-11-24',
            ),
          ),
        );
      });
      try {
        return (await verifyDeployment(deployment.url)).checks.find((c) => c.name === 'download /api/download')?.faults;
      } finally {
        await deployment.stop();
      }
    };
    let sizes: number[] = [];
    const faults = await faultsOf((files) => {
      const [a, b] = [files.get(csv), files.get(json)];
      assert.ok(a && b, `premise: the download holds ${csv} and ${json}`);
      sizes = [a.length, b.length];
      files.set(csv, Buffer.concat([a, Buffer.from('x')]));
      // One byte changed, the length kept: compared byte for byte once inflated.
      files.set(json, Buffer.concat([b.subarray(0, -1), Buffer.from(' ')]));
    });
    assert.deepEqual(faults, [
      `${csv} is not the bytes of GET /api/markets/us-tx-austin/csv (200, ${sizes[0]} vs ${(sizes[0] ?? 0) + 1} bytes)`,
      `${json} is not the bytes of GET /api/markets/us-tx-austin (200, ${sizes[1]} vs ${sizes[1]} bytes)`,
    ]);
    const huge = await embeddedDeployment((t) => {
      const route = routeOf(t, '/api/download');
      const zip = Buffer.from(route.identity.body);
      // The first entry's size, as its directory entry says it: 4 GiB less a byte.
      zip.writeUInt32LE(0xffffffff, zip.readUInt32LE(zip.length - 22 + 16) + 24);
      t.routes.set(route.path, withBody(route, zip));
    });
    try {
      const report = await verifyDeployment(huge.url);
      assert.deepEqual(report.checks.find((c) => c.name === 'download /api/download')?.faults, [
        '/api/download is not a readable zip: README.txt: the directory says 4294967295 bytes, more than the limit of 268435456',
      ]);
    } finally {
      await huge.stop();
    }
  });
});

describe('the verify command', () => {
  let deployment: Deployment;
  let broken: Deployment;
  before(async () => {
    deployment = await embeddedDeployment(() => undefined);
    broken = await embeddedDeployment(
      (t) => {
        const route = routeOf(t, `/api/markets/${ID}`);
        t.routes.set(route.path, { ...route, headers: route.headers.map(([k, v]) => [k, k === 'Content-Type' ? 'text/json' : v] as const) });
      },
      { ownPort: true },
    );
  });
  after(async () => {
    await deployment.stop();
    await broken.stop();
  });

  /** The installed command, as an operator runs it (a child process: this process keeps serving meanwhile). */
  const capture = (argv: string[]): Promise<{ code: number; out: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, [BIN, ...argv], { encoding: 'utf8' }, (error, stdout) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, out: stdout });
      });
    });

  test('exit code 0 and one PASS line per check when everything holds', async () => {
    const { code, out } = await capture(['verify', deployment.url]);
    assert.equal(code, 0, out);
    assert.match(out, /^PASS {2}index \/api\/markets: /m);
    assert.doesNotMatch(out, /^FAIL/m);
    assert.match(out, /\d+ checks: \d+ passed, 0 failed\n$/);
  });

  test('exit code 1 and a FAIL line naming the fault when something does not', async () => {
    const { code, out } = await capture(['verify', broken.url]);
    assert.equal(code, 1);
    assert.match(out, new RegExp(`^FAIL  market ${ID} JSON: GET /api/markets/${ID} has Content-Type "text/json", expected exactly "application/json"`, 'm'));
  });

  test('--json gives the same report for machines', async () => {
    const { code, out } = await capture(['verify', broken.url, '--json']);
    assert.equal(code, 1);
    const report = JSON.parse(out) as VerifyReport;
    assert.equal(report.ok, false);
    assert.equal(report.failed, report.checks.filter((c) => !c.ok).length);
    assert.ok(
      report.checks.some((c) => c.name === `market ${ID} JSON` && c.faults.some((f) => f.includes('text/json'))),
      "report.checks.some((c) => c.name === `market ${ID} JSON` && c.faults.some((f) => f.includes('text/json')))",
    );
  });

  test('exit code 2 without a base URL, with two, or with one that is not http(s): one line each', async () => {
    const errors: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => (errors.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      assert.equal(await main(['verify'], {}), 2);
      assert.equal(await main(['verify', 'http://localhost:3000', 'http://localhost:3001'], {}), 2);
      assert.equal(await main(['verify', 'ftp://example.org'], {}), 2);
    } finally {
      process.stderr.write = write;
    }
    assert.deepEqual(errors, [
      'market-profiles: verify: needs exactly one address, e.g. market-profiles verify http://localhost:3000 (market-profiles verify --help says more)\n',
      'market-profiles: verify: needs exactly one address, got also "http://localhost:3001", e.g. market-profiles verify http://localhost:3000 (market-profiles verify --help says more)\n',
      'market-profiles: verify: BASE_URL must use http or https, got "ftp://example.org"\n',
    ]);
  });

  test('a deployment that sends its answers a byte at a time fails at --timeout-ms, it does not hang', { timeout: 120_000 }, async () => {
    // Never idle for long, so only a deadline on the whole exchange ends a request. The test's own timeout is there to
    // fail a regression, which would wait about 2,000 s a request.
    const slow = await dripping();
    try {
      const report = await verifyDeployment(slow.url, { timeoutMs: 1_000 });
      assert.equal(report.ok, false);
      assert.equal(report.checks[0]?.detail, `GET ${slow.url}/api/markets: no complete answer within 1000 ms`);
    } finally {
      await slow.close();
    }
  });

  test('an answer larger than the probe reads fails, whether it says so or streams on', { timeout: 120_000 }, async () => {
    // The limit is 1 MiB here. Neither answer ends: code without the limit would wait for the 20 s deadline (and fail on
    // its message), holding at most the 64 MiB the second listener sends.
    const block = Buffer.alloc(64 * 1024, 0x20);
    const servers = [
      // Declares 10 MiB: refused at the head, before a byte of the body is read.
      createNetServer((socket) => {
        socket.on('error', () => undefined);
        socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n'));
      }),
      // No length: 64 KiB blocks as fast as the socket takes them, up to 64 MiB.
      createNetServer((socket) => {
        socket.on('error', () => undefined);
        socket.once('data', () => {
          socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n');
          let left = 1024;
          const pour = (): void => {
            while (left > 0 && !socket.destroyed) {
              left -= 1;
              if (!socket.write(block)) return;
            }
          };
          socket.on('drain', pour);
          pour();
        });
      }),
    ];
    try {
      const details: string[] = [];
      for (const server of servers) {
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const { port } = server.address() as AddressInfo;
        const report = await verifyDeployment(`http://127.0.0.1:${port}`, { maxBytes: 1024 * 1024, timeoutMs: 20_000 });
        assert.equal(report.ok, false);
        details.push((report.checks[0]?.detail ?? '').replace(/:\d+\//, ':<port>/'));
      }
      assert.deepEqual(details, [
        'GET http://127.0.0.1:<port>/api/markets: the answer declares 10485760 bytes, more than the limit of 1048576',
        'GET http://127.0.0.1:<port>/api/markets: the answer is larger than the limit of 1048576 bytes',
      ]);
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });

  test('a deployment that does not answer fails, it does not crash', async () => {
    // A listener that closes every connection unanswered, held for the whole test: no port freed and reused by a test
    // running beside this one, and a failure that comes from the closing, never from a timeout on a busy machine.
    const silent = createNetServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const report = await verifyDeployment(`http://127.0.0.1:${port}`, { timeoutMs: 600_000 });
      assert.equal(report.ok, false);
      assert.match(report.checks[0]?.detail ?? '', /socket hang up|ECONNRESET|closed/i);
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('the probe verify sends its requests through', () => {
  /** A server that answers every request 200 with a declared length of 1,000 bytes, recording the paths asked for. */
  const asked: string[] = [];
  const real = createHttpServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 1000 });
    res.end(req.method === 'HEAD' ? undefined : Buffer.alloc(1000, 'x'));
  });
  // "Nothing there" is a listener that closes every connection, held for the test (never a freed port).
  const silent = createNetServer((socket) => socket.destroy());
  let realBase = '';
  let silentBase = '';
  before(async () => {
    for (const server of [real, silent]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    realBase = `http://127.0.0.1:${(real.address() as AddressInfo).port}`;
    silentBase = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const server of [real, silent]) await new Promise((resolve) => server.close(resolve));
  });

  test('with an address, paths and URLs under the base URL go there, and a URL that only starts like it does not', async () => {
    const probe = createProbe(`${silentBase}/v1`, { address: `${realBase}/v1` });
    try {
      asked.length = 0;
      assert.equal((await probe.fetch('/markets')).status, 200);
      assert.equal((await probe.fetch(`${silentBase}/v1/markets.csv`)).status, 200);
      assert.equal((await probe.fetch(`${silentBase}/v1`)).status, 200);
      // Another path that begins with the base URL's text is not under it: it goes where it says, which closes.
      await assert.rejects(probe.fetch(`${silentBase}/v1beta/markets`), /^Error: GET http:\/\/127\.0\.0\.1:\d+\/v1beta\/markets: /);
      assert.deepEqual(asked, ['GET /v1/markets', 'GET /v1/markets.csv', 'GET /v1']);
    } finally {
      probe.close();
    }
  });

  test('an answer cut off in its body fails at once, not at the deadline', async () => {
    // 10 of the 1,000 bytes it declares, then the connection reset: the request fails on the cut, with the deadline ten minutes off.
    const cut = createNetServer((socket) => {
      socket.once('data', () => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n${'x'.repeat(10)}`, () => socket.resetAndDestroy());
      });
    });
    await new Promise<void>((resolve) => cut.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(cut.address() as AddressInfo).port}`;
    const probe = createProbe(base, { timeoutMs: 600_000 });
    try {
      await assert.rejects(probe.fetch('/cut'), (error: Error) => {
        assert.match(error.message, new RegExp(`^GET ${base.replaceAll('.', '\\.')}/cut: (?:aborted|read ECONNRESET)$`));
        return true;
      });
    } finally {
      probe.close();
      await new Promise((resolve) => cut.close(resolve));
    }
  });

  test("a HEAD answer's Content-Length is the GET's: the size limit holds for a body, not for a HEAD", async () => {
    const probe = createProbe(realBase, { maxBytes: 100 });
    try {
      const head = await probe.fetch('/big', { method: 'HEAD' });
      assert.deepEqual([head.status, head.headers['content-length'], head.body.length], [200, '1000', 0]);
      await assert.rejects(probe.fetch('/big'), { message: `GET ${realBase}/big: the answer declares 1000 bytes, more than the limit of 100` });
    } finally {
      probe.close();
    }
  });
});
