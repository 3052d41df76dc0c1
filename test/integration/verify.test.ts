// `verify` passes against the embedded server, nginx and the edge Worker, and fails, naming the fault, against deliberately broken deployments.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brotliCompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { main } from '../../src/commands/cli.ts';
import { captureOutput } from '../support/capture.ts';
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
import { CSV_COLUMNS, PROBE_UNKNOWN_MARKET } from '../../src/commands/verify/expect.ts';
import { zipArchive } from '../../src/render/zip.ts';
import { downloadFolder } from '../../src/render/site-files.ts';
import { csvField, parseCsv } from '../../src/contract/csv-format.ts';
import { WORLD_FIXTURES, buildWorld, worldInputs } from '../world/world.ts';
import { WORLD_MARKET_IDS, WORLD_SNAPSHOT_DATE } from '../world/world.ts';
import { commandPath } from '../support/compiled.ts';

const FIXTURES = WORLD_FIXTURES;
const ID = 'us-tx-austin';

/** A route with new identity bytes and every variant and ETag recomputed, as a real (wrong) build would have it. */
function withBody(route: Route, body: Buffer): Route {
  const gz = gzipSync(body);
  // Any quality decodes to the same bytes; the build's 11 would cost seconds for the documents the tests below edit.
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
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
  return { port, table: buildWorld({ baseUrl: `http://127.0.0.1:${port}`, read: fixturesOnDisk(FIXTURES) }) };
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
  // A route whose bytes the alteration replaced, its variants left as they were, gets them made from the new bytes, once.
  for (const [path, route] of table.routes) {
    const before = built.table.routes.get(path);
    if (before !== undefined && route.identity.body !== before.identity.body && route.gzip === before.gzip && route.br === before.br)
      table.routes.set(path, withBody(route, route.identity.body));
  }
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
    const running = await startServer(buildWorld({ baseUrl: `http://localhost:${port}`, read: fixturesOnDisk(FIXTURES) }), { host: '127.0.0.1', port });
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
    const running = await startServer(buildWorld({ baseUrl: 'https://data.example.org' }), { host: '127.0.0.1', port });
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
    const nginx = await nginxOverFreshBuild(worldInputs());
    try {
      const report = await verifyDeployment(nginx.baseUrl);
      assert.deepEqual(failing(report), [], formatReport(report));
    } finally {
      await nginx.stop();
    }
  });

  test('--manifest: nginx serving the build passes; a file replaced since (other bytes of its length, a .gz of NULs) is named', async () => {
    const nginx = await nginxOverFreshBuild(worldInputs());
    const manifest = join(nginx.dir, 'dist', 'manifest.json');
    const site = join(nginx.dir, 'dist', 'site');
    try {
      const good = await verifyDeployment(nginx.baseUrl, { manifest });
      assert.deepEqual(failing(good), [], formatReport(good));
      assert.match(
        good.checks.at(-1)?.detail ?? '',
        /^\d+ answers \(every variant of every route, and the 404 page\) are the build's bytes, SHA-256 for SHA-256$/,
      );
      // Written in place, as nginx's cached descriptor then reads them.
      const austin = join(site, 'api/markets/us-tx-austin/index.json');
      const text = readFileSync(austin, 'latin1');
      writeFileSync(austin, text.replace(/"value": \d/, '"value": 9'), 'latin1');
      const gz = join(site, 'api/markets/us-co-denver/series/csv/index.csv.gz');
      writeFileSync(gz, Buffer.alloc(statSync(gz).size));
      const bad = await verifyDeployment(nginx.baseUrl, { manifest });
      const faults = bad.checks.find((c) => c.name === `manifest ${manifest}`)?.faults ?? [];
      assert.deepEqual(
        faults.map((f) => f.replace(/SHA-256 [0-9a-f]{12}…/g, 'SHA-256 <hash>').replace(/has \d+ bytes, [0-9a-f]{12}…/, 'has <n> bytes, <hash>')),
        [
          `GET /api/markets/us-tx-austin (identity) is not the build's: ${text.length} bytes, SHA-256 <hash>; the manifest's file api/markets/us-tx-austin/index.json has <n> bytes, <hash>`,
          // The current snapshot's vintage address serves the same file (one file, two links).
          `GET /api/vintages/2026-11-29/markets/us-tx-austin (identity) is not the build's: ${text.length} bytes, SHA-256 <hash>; the manifest's file api/vintages/2026-11-29/markets/us-tx-austin/index.json has <n> bytes, <hash>`,
          `GET /api/markets/us-co-denver/series/csv (gzip) is not the build's: ${statSync(gz).size} bytes, SHA-256 <hash>; the manifest's file api/markets/us-co-denver/series/csv/index.csv.gz has <n> bytes, <hash>, and it does not decompress to the build's identity bytes`,
        ].sort(),
      );
    } finally {
      await nginx.stop();
    }
  });

  test('the edge Worker on workerd (Miniflare, as wrangler dev runs it) over dist/ passes every check', async () => {
    const edge = await edgeOverFreshBuild(worldInputs());
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
        // Every source claims "high" today: mark one of its values illustrative (without its margin) and leave the claim.
        const doc = JSON.parse(route.identity.body.toString('utf8')) as {
          profile: { metrics: Record<string, { illustrative?: true; marginOfError?: number }> };
        };
        const vacancy = doc.profile.metrics['vacancyRate'] ?? assert.fail();
        vacancy.illustrative = true;
        delete vacancy.marginOfError;
        t.routes.set(route.path, withBody(route, Buffer.from(`${JSON.stringify(doc, null, 2)}\n`)));
      },
      check: `market ${ID} JSON`,
      fault: /source census-acs-5yr claims "high" confidence but serves the illustrative value of "vacancyRate"/,
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
      name: 'a profile far larger than a profile can be (spaces, then the JSON): refused at that size, never read whole',
      alter: (t) => {
        const route = routeOf(t, `/api/markets/${ID}`);
        t.routes.set(route.path, withBody(route, Buffer.concat([Buffer.alloc(300 * 1024, 0x20), route.identity.body])));
      },
      check: `market ${ID} JSON`,
      fault: new RegExp(
        `GET http://127\\.0\\.0\\.1:\\d+/api/markets/${ID}: the answer declares \\d+ bytes, more than a market's profile can be \\(262144 bytes\\)`,
      ),
    },
    {
      name: 'a series whose JSON nests 200 levels deep: refused before it is parsed',
      alter: (t) => {
        const route = routeOf(t, `/api/markets/${ID}/series`);
        t.routes.set(route.path, withBody(route, Buffer.from(`{"schemaVersion":"1","x":${'['.repeat(200)}${']'.repeat(200)}}`)));
      },
      check: `market ${ID} series`,
      fault: new RegExp(`GET /api/markets/${ID}/series nests its JSON more than 64 levels deep; not read further`),
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
        const text = route.identity.body.toString('utf8').replaceAll('"text/csv; charset=utf-8":', '"text/csv":');
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
    const [csv, json] = ['markets/us-tx-austin.csv', 'markets/us-tx-austin.json'];
    const faultsOf = async (alter: (files: Map<string, Buffer>) => void): Promise<string[] | undefined> => {
      const deployment = await embeddedDeployment((t) => editDownload(t, alter));
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
      `${FOLDER}/${csv} is not the bytes of GET /api/markets/us-tx-austin/csv (200, ${sizes[0]} vs ${(sizes[0] ?? 0) + 1} bytes)`,
      `${FOLDER}/${json} is not the bytes of GET /api/markets/us-tx-austin (200, ${sizes[1]} vs ${sizes[1]} bytes)`,
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
        `/api/download is not a readable zip: ${FOLDER}/README.md: the directory says 4294967295 bytes, more than the limit of 67108864`,
      ]);
    } finally {
      await huge.stop();
    }
  });
});

/** A JSON document as the tests below edit it. */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The value at a path of keys and indexes of a JSON document, or undefined; objectAt and arrayAt make its kind a premise. */
function at(doc: Json, path: readonly (string | number)[]): Json | undefined {
  let value: Json | undefined = doc;
  for (const key of path) value = Array.isArray(value) ? value[Number(key)] : value !== null && typeof value === 'object' ? value[String(key)] : undefined;
  return value;
}
const objectAt = (doc: Json, ...path: (string | number)[]): JsonObject => {
  const value = at(doc, path);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return assert.fail(`premise: an object at ${path.join('.')}`);
  return value;
};
const arrayAt = (doc: Json, ...path: (string | number)[]): Json[] => {
  const value = at(doc, path);
  if (!Array.isArray(value)) return assert.fail(`premise: an array at ${path.join('.')}`);
  return value;
};

/** Serves `path` with these bytes; serveAltered makes its variants once every edit is done (an edit may come back to a route). */
function setBody(t: RouteTable, path: string, body: Buffer): void {
  const route = routeOf(t, path);
  t.routes.set(path, { ...route, identity: { encoding: 'identity', body, etag: etagOf(body) } });
}
/** Serves `path` with what `edit` makes of its text. */
const editText = (t: RouteTable, path: string, edit: (text: string) => string): void =>
  setBody(t, path, Buffer.from(edit(routeOf(t, path).identity.body.toString('utf8'))));
const editJson = (t: RouteTable, path: string, edit: (doc: JsonObject) => void): void =>
  editText(t, path, (text) => {
    const doc = JSON.parse(text) as JsonObject;
    edit(doc);
    return `${JSON.stringify(doc, null, 2)}\n`;
  });
/** Serves `path` with its CSV records (header first) as `edit` leaves them. */
const editCsv = (t: RouteTable, path: string, edit: (records: string[][]) => void): void =>
  editText(t, path, (text) => {
    const records = parseCsv(text);
    edit(records);
    return records.map((r) => `${r.map(csvField).join(',')}\r\n`).join('');
  });
/** Serves `path` without the header `name`, or with its value replaced. */
function editHeader(t: RouteTable, path: string, name: string, value?: string): void {
  const route = routeOf(t, path);
  const kept = route.headers.filter(([k]) => k.toLowerCase() !== name.toLowerCase());
  t.routes.set(path, { ...route, headers: value === undefined ? kept : [...kept, [name, value] as const] });
}
/** The folder the world's download unpacks into. */
const FOLDER = downloadFolder(WORLD_SNAPSHOT_DATE);
/** Serves the download with its files (named within its folder, unless `whole`) as `edit` leaves them. */
function editDownload(t: RouteTable, edit: (files: Map<string, Buffer>) => void, whole = false): void {
  const zipped = unzip(routeOf(t, '/api/download').identity.body);
  const within = whole ? '' : `${FOLDER}/`;
  // What another plant put outside the folder stays as it is.
  const outside = [...zipped].filter(([name]) => !name.startsWith(within));
  const files = new Map([...zipped].filter(([name]) => name.startsWith(within)).map(([name, body]) => [name.slice(within.length), body]));
  edit(files);
  setBody(
    t,
    '/api/download',
    zipArchive(
      [...outside, ...[...files].map(([name, body]) => [within + name, body] as const)].map(([name, body]) => ({ name, body })),
      '2026-11-29',
    ),
  );
}

/** One fault planted in a deployment, where no other row of its list plants one, and what verify must say of it. */
interface Planted {
  /** The check that must name it. */
  check: string;
  /** One of that check's faults matches this. */
  says: RegExp;
  plant: (t: RouteTable) => void;
}

/** The market ids of the world, in index order: each row below that edits a market's documents takes its own. */
const M = WORLD_MARKET_IDS;
const [PHX, LAX, SAN, SFO, DEN, WAS, MIA, TPA, ATL, CHI, BOS, NYC, NAS, AUS, DAL, SEA] = M;

const index = (t: RouteTable, edit: (doc: JsonObject) => void): void => editJson(t, '/api/markets', edit);
const entry = (doc: JsonObject, id: string): JsonObject => {
  const found = arrayAt(doc, 'markets').find((m) => m !== null && typeof m === 'object' && !Array.isArray(m) && m.id === id);
  return found === undefined ? assert.fail(`premise: ${id} in the index`) : objectAt(found);
};
const profile = (t: RouteTable, id: string, edit: (doc: JsonObject) => void): void => editJson(t, `/api/markets/${id}`, edit);
const marketCsv = (t: RouteTable, id: string, edit: (records: string[][]) => void): void => editCsv(t, `/api/markets/${id}/csv`, edit);
const column = (name: (typeof CSV_COLUMNS)[number]): number => CSV_COLUMNS.indexOf(name);

/**
 * Each fault verify looks for, planted once in a deployment that has all of them, each in a place of its own (a market,
 * a document, a field) so that one run finds every one: a check that stopped looking for its fault fails its row. A
 * row that plants nothing names a further effect of a fault a row above it planted.
 */
const PLANTED: readonly Planted[] = [
  // The index, read against each market's own documents.
  {
    check: `market ${PHX} JSON`,
    says: new RegExp(`^index links\\.json of ${PHX} is `),
    plant: (t) => index(t, (d) => void (objectAt(entry(d, PHX), 'links').json = `${t.baseUrl}/api/markets/${PHX}/x`)),
  },
  {
    check: `market ${LAX} JSON`,
    says: new RegExp(`^the index says ${LAX} was updated 2001-01-01, the profile `),
    plant: (t) => index(t, (d) => void (entry(d, LAX).updatedDate = '2001-01-01')),
  },
  {
    check: `market ${SAN} JSON`,
    says: new RegExp(`^the index scores of ${SAN} differ from the profile's`),
    plant: (t) => index(t, (d) => void (objectAt(entry(d, SAN), 'scores').overall = -1)),
  },
  {
    check: `market ${SFO} CSV`,
    says: new RegExp(`^index links\\.csv of ${SFO} is `),
    plant: (t) => index(t, (d) => void (objectAt(entry(d, SFO), 'links').csv = `${t.baseUrl}/x.csv`)),
  },
  {
    check: `market ${DEN} series`,
    says: new RegExp(`^index links\\.series of ${DEN} is `),
    plant: (t) => index(t, (d) => void (objectAt(entry(d, DEN), 'links').series = `${t.baseUrl}/x`)),
  },
  {
    check: 'index /api/markets',
    says: new RegExp(`^/api/markets: market ${WAS} has no links\\.html$`),
    plant: (t) => index(t, (d) => void delete objectAt(entry(d, WAS), 'links').html),
  },
  { check: 'index /api/markets', says: /^\/api\/markets: schemaVersion is "2", expected "1"$/, plant: (t) => index(t, (d) => void (d.schemaVersion = '2')) },
  {
    check: 'index /api/markets',
    says: /^\/api\/markets: productionMode is "live", expected "static-fixture"$/,
    plant: (t) => index(t, (d) => void (d.productionMode = 'live')),
  },
  { check: 'index /api/markets', says: /^\/api\/markets: liveData is true, expected false$/, plant: (t) => index(t, (d) => void (d.liveData = true)) },
  {
    check: 'index /api/markets',
    says: /^\/api\/markets: methodologyVersion "2\.0" is not v<major>\.<minor>$/,
    plant: (t) => index(t, (d) => void (d.methodologyVersion = '2.0')),
  },
  {
    check: 'index /api/markets',
    says: /^\/api\/markets has no "markets" array of objects$/,
    plant: (t) => index(t, (d) => void arrayAt(d, 'markets').push(1)),
  },
  { check: 'index /api/markets', says: /^\/api\/markets count is 99 but lists \d+ markets$/, plant: (t) => index(t, (d) => void (d.count = 99)) },
  {
    check: 'index /api/markets',
    says: /^\/api\/markets lists ids not of the form us-<state>-<slug>: zz-not-an-id$/,
    plant: (t) => index(t, (d) => void arrayAt(d, 'markets').push({ id: 'zz-not-an-id', links: { json: '', csv: '', html: '' } })),
  },
  { check: 'index /api/markets', says: /^\/api\/markets lists a market twice$/, plant: (t) => index(t, (d) => void arrayAt(d, 'markets').push(entry(d, SEA))) },
  { check: 'index /api/markets', says: /^\/api\/markets is not sorted by id$/, plant: (t) => index(t, (d) => void arrayAt(d, 'markets').reverse()) },
  // The schemaVersion "2" planted above: Ajv names the first error only.
  { check: 'schema /api/schema/market-index', says: /^\/api\/markets fails the served schema at \/schemaVersion: /, plant: () => undefined },

  // Each market's JSON.
  {
    check: `market ${TPA} JSON`,
    says: new RegExp(`^GET /api/markets/${TPA} is not JSON: `),
    plant: (t) => editText(t, `/api/markets/${TPA}`, () => 'not json'),
  },
  { check: `market ${TPA} CSV`, says: new RegExp(`^cannot tie the CSV of ${TPA} to its JSON, which could not be read$`), plant: () => undefined },
  {
    check: `market ${ATL} JSON`,
    says: new RegExp(`^${ATL}: market\\.id is "us-ga-elsewhere"$`),
    plant: (t) => profile(t, ATL, (d) => void (objectAt(d, 'market').id = 'us-ga-elsewhere')),
  },
  {
    check: `market ${CHI} JSON`,
    says: new RegExp(`^${CHI}: generatedAt 2001-01-01 differs from profile\\.updatedDate `),
    plant: (t) => profile(t, CHI, (d) => void (d.generatedAt = '2001-01-01')),
  },
  {
    check: `market ${BOS} JSON`,
    says: new RegExp(`^${BOS}: sources are not sorted by sourceId$`),
    plant: (t) => profile(t, BOS, (d) => void arrayAt(d, 'sources').reverse()),
  },
  {
    check: `market ${NYC} JSON`,
    says: new RegExp(`^${NYC}: metric "permits" has id "other"$`),
    plant: (t) => profile(t, NYC, (d) => void (objectAt(d, 'profile', 'metrics', 'permits').id = 'other')),
  },
  {
    check: `market ${NAS} JSON`,
    says: new RegExp(`^${NAS}: metric "permits" names source "census-nope", which is not in sources$`),
    plant: (t) => profile(t, NAS, (d) => void (objectAt(d, 'profile', 'metrics', 'permits').sourceId = 'census-nope')),
  },
  {
    check: `market ${AUS} JSON`,
    says: new RegExp(`^${AUS}: metric "vacancyRate" is illustrative but carries a margin of error$`),
    plant: (t) => profile(t, AUS, (d) => void (objectAt(d, 'profile', 'metrics', 'vacancyRate').illustrative = true)),
  },
  {
    check: `market ${PHX} JSON`,
    says: new RegExp(`^${PHX}: illustrativeScores lists "verifyNoSuchScore", which is not one of its scores$`),
    plant: (t) => profile(t, PHX, (d) => void (objectAt(d, 'profile').illustrativeScores = ['verifyNoSuchScore'])),
  },
  {
    check: `market ${LAX} JSON`,
    says: new RegExp(`^${LAX}: illustrativeScores lists .* though no metric is illustrative$`),
    plant: (t) => profile(t, LAX, (d) => void (objectAt(d, 'profile').illustrativeScores = ['supply'])),
  },
  {
    check: `market ${SFO} JSON`,
    says: new RegExp(`^${SFO}: links\\.dataCatalog is "https://elsewhere\\.example/catalog", not a URL of this deployment `),
    plant: (t) => profile(t, SFO, (d) => void (objectAt(d, 'links').dataCatalog = 'https://elsewhere.example/catalog')),
  },

  // Each market's CSV, read and tied to its JSON.
  {
    check: `market ${PHX} CSV`,
    says: new RegExp(`^/api/markets/${PHX}/csv starts with a byte-order mark$`),
    plant: (t) => editText(t, `/api/markets/${PHX}/csv`, (text) => `\ufeff${text}`),
  },
  {
    check: `market ${LAX} CSV`,
    says: new RegExp(`^/api/markets/${LAX}/csv is not RFC 4180 CSV: `),
    plant: (t) => editText(t, `/api/markets/${LAX}/csv`, (text) => `${text}a,"b\r\n`),
  },
  {
    check: `market ${SAN} CSV`,
    says: new RegExp(`^/api/markets/${SAN}/csv header is "marketid,`),
    plant: (t) => marketCsv(t, SAN, (r) => void ((r[0] ?? [])[0] = 'marketid')),
  },
  {
    check: `market ${DEN} CSV`,
    says: new RegExp(`^/api/markets/${DEN}/csv line \\d+ has 3 fields, expected 11$`),
    plant: (t) => marketCsv(t, DEN, (r) => void r.push(['a', 'b', 'c'])),
  },
  {
    check: `market ${WAS} CSV`,
    says: new RegExp(`^/api/markets/${WAS}/csv line 2: unit is "furlongs", the JSON says `),
    plant: (t) => marketCsv(t, WAS, (r) => void ((r[1] ?? [])[column('unit')] = 'furlongs')),
  },
  {
    check: `market ${MIA} CSV`,
    says: new RegExp(`^/api/markets/${MIA}/csv line 2: metric_id "verifyNoSuchMetric" is not in the JSON's profile\\.metrics$`),
    plant: (t) => marketCsv(t, MIA, (r) => void ((r[1] ?? [])[column('metric_id')] = 'verifyNoSuchMetric')),
  },
  {
    check: `market ${ATL} CSV`,
    says: new RegExp(`^/api/markets/${ATL}/csv line 2: value "1e3" is not a plain decimal$`),
    plant: (t) => marketCsv(t, ATL, (r) => void ((r[1] ?? [])[column('value')] = '1e3')),
  },
  {
    check: `market ${CHI} CSV`,
    says: new RegExp(`^/api/markets/${CHI}/csv has metric rows .*, the JSON has `),
    plant: (t) => marketCsv(t, CHI, (r) => void r.pop()),
  },
  { check: `market ${AUS} page`, says: new RegExp(`^GET /markets/${AUS} answered 404, expected 200$`), plant: (t) => void t.routes.delete(`/markets/${AUS}`) },

  // Each market's series, and the bulk series.
  {
    check: `market ${ATL} series`,
    says: new RegExp(`^/api/markets/${ATL}/series fails the served schema at /schemaVersion: `),
    plant: (t) => editJson(t, `/api/markets/${ATL}/series`, (d) => void (d.schemaVersion = '2')),
  },
  {
    check: `market ${CHI} series`,
    says: new RegExp(`^/api/markets/${CHI}/series: permits at \\S+ is .*, the profile has `),
    plant: (t) =>
      editJson(t, `/api/markets/${CHI}/series`, (d) => arrayAt(d, 'metrics', 'permits', 'observations').forEach((o) => void (objectAt(o).value = -1))),
  },
  {
    check: `market ${BOS} series`,
    says: new RegExp(`^/api/markets/${BOS}/series/csv has \\d+ rows, the JSON \\d+ observations$`),
    plant: (t) => editCsv(t, `/api/markets/${BOS}/series/csv`, (r) => void r.pop()),
  },
  {
    check: `market ${NYC} series`,
    says: new RegExp(`^/api/markets/${NYC}/series/csv line 2 does not tie to the JSON: `),
    plant: (t) => editCsv(t, `/api/markets/${NYC}/series/csv`, (r) => void ((r[1] ?? [])[0] = 'us-zz-other')),
  },
  {
    check: 'bulk series CSV /api/markets/series/csv',
    says: /^\/api\/markets\/series\/csv differs from the market series CSVs in market order /,
    plant: (t) => editCsv(t, '/api/markets/series/csv', (r) => void r.splice(2, 1)),
  },

  // The headers every answer carries, each taken from one document.
  {
    check: `market ${SEA} series`,
    says: new RegExp(`^GET /api/markets/${SEA}/series is gzip-encoded though the request accepted no encoding$`),
    plant: (t) => editHeader(t, `/api/markets/${SEA}/series`, 'Content-Encoding', 'gzip'),
  },
  {
    check: `market ${DAL} series`,
    says: new RegExp(`^GET /api/markets/${DAL}/series lacks Access-Control-Allow-Origin: \\*$`),
    plant: (t) => editHeader(t, `/api/markets/${DAL}/series`, 'Access-Control-Allow-Origin'),
  },
  {
    check: `market ${NAS} series`,
    says: new RegExp(`^GET /api/markets/${NAS}/series lacks X-Content-Type-Options: nosniff$`),
    plant: (t) => editHeader(t, `/api/markets/${NAS}/series`, 'X-Content-Type-Options'),
  },
  {
    check: `market ${SAN} series`,
    says: new RegExp(`^GET /api/markets/${SAN}/series has no Cache-Control$`),
    plant: (t) => editHeader(t, `/api/markets/${SAN}/series`, 'Cache-Control'),
  },
  {
    check: `market ${MIA} series`,
    says: new RegExp(`^GET /api/markets/${MIA}/series lacks Vary: Accept-Encoding$`),
    plant: (t) => editHeader(t, `/api/markets/${MIA}/series`, 'Vary'),
  },
  {
    check: `market ${WAS} series`,
    says: new RegExp(`^GET /api/markets/${WAS}/series has a weak or malformed ETag W/"weak", expected a strong one$`),
    plant: (t) => {
      const route = routeOf(t, `/api/markets/${WAS}/series`);
      t.routes.set(route.path, { ...route, identity: { ...route.identity, etag: 'W/"weak"' } });
    },
  },

  // The schemas and the CSV descriptor.
  {
    check: 'schema /api/schema/market-profile',
    says: /^\/api\/schema\/market-profile does not declare JSON Schema draft-07 \(\$schema is "https:\/\/json-schema\.org\/draft\/2020-12\/schema"\)$/,
    plant: (t) => editJson(t, '/api/schema/market-profile', (d) => void (d.$schema = 'https://json-schema.org/draft/2020-12/schema')),
  },
  { check: 'schema /api/schema/market-profile', says: /^\/api\/schema\/market-profile does not compile as a JSON Schema: /, plant: () => undefined },
  { check: `market ${DAL} JSON`, says: new RegExp(`^${DAL}: cannot be validated, the profile schema could not be read$`), plant: () => undefined },
  {
    check: 'descriptor /api/schema/market-csv',
    says: /^\/api\/schema\/market-csv: schemaVersion, format, encoding, lineTerminator or quoting differs from docs\/contract\.md 2\.7$/,
    plant: (t) => editJson(t, '/api/schema/market-csv', (d) => void (d.lineTerminator = 'LF')),
  },
  {
    check: 'descriptor /api/schema/market-csv',
    says: /^\/api\/schema\/market-csv columns are market_name,market_id,/,
    plant: (t) => editJson(t, '/api/schema/market-csv', (d) => void arrayAt(d, 'columns').splice(0, 2, ...arrayAt(d, 'columns').slice(0, 2).reverse())),
  },
  {
    check: 'descriptor /api/schema/market-csv',
    says: /^\/api\/schema\/market-csv column unit: type string, required false$/,
    plant: (t) =>
      editJson(t, '/api/schema/market-csv', (d) => arrayAt(d, 'columns').forEach((c) => void (objectAt(c).name === 'unit' && (objectAt(c).required = false)))),
  },
  {
    check: 'descriptor /api/schema/market-csv',
    says: /^\/api\/schema\/market-csv: production_mode \/ live_data constants are not "static-fixture" \/ "false"$/,
    plant: (t) =>
      editJson(t, '/api/schema/market-csv', (d) =>
        arrayAt(d, 'columns').forEach((c) => void (objectAt(c).name === 'production_mode' && (objectAt(c).const = 'live'))),
      ),
  },

  // The OpenAPI document and the Data Package, held to what is served.
  {
    check: 'OpenAPI /api/openapi',
    says: /^\/api\/openapi: openapi is "3\.0\.3", expected 3\.1\.x$/,
    plant: (t) => editJson(t, '/api/openapi', (d) => void (d.openapi = '3.0.3')),
  },
  {
    check: 'OpenAPI /api/openapi',
    says: /^\/api\/openapi: the marketId parameter lists \[.*\], the index /,
    plant: (t) => editJson(t, '/api/openapi', (d) => void arrayAt(d, 'components', 'parameters', 'marketId', 'schema', 'enum').pop()),
  },
  {
    check: 'OpenAPI /api/openapi',
    says: /^\/api\/openapi: \/api\/verify-extra has no GET 200 response$/,
    plant: (t) => editJson(t, '/api/openapi', (d) => void (objectAt(d, 'paths')['/api/verify-extra'] = {})),
  },
  {
    check: 'OpenAPI /api/openapi',
    says: /^\/api\/openapi lists \/api\/verify-missing, but GET \/api\/verify-missing answered 404$/,
    plant: (t) =>
      editJson(
        t,
        '/api/openapi',
        (d) => void (objectAt(d, 'paths')['/api/verify-missing'] = { get: { responses: { '200': { content: { 'application/json': {} } } } } }),
      ),
  },
  {
    check: 'OpenAPI /api/openapi',
    says: /^\/api\/openapi does not describe \/api\/vintages$/,
    plant: (t) => editJson(t, '/api/openapi', (d) => void delete objectAt(d, 'paths')['/api/vintages']),
  },
  {
    check: 'OpenAPI /api/openapi',
    says: /^\/api\/openapi: components\.schemas\.MarketSeries is not the schema served at \/api\/schema\/market-series$/,
    plant: (t) => editJson(t, '/api/openapi', (d) => void (objectAt(d, 'components', 'schemas', 'MarketSeries').title = 'edited')),
  },
  {
    check: 'Data Package /api/datapackage',
    says: /^\/api\/datapackage: profile is "data-package", expected "tabular-data-package"$/,
    plant: (t) => editJson(t, '/api/datapackage', (d) => void (d.profile = 'data-package')),
  },
  {
    check: 'Data Package /api/datapackage',
    says: /^\/api\/datapackage: the resources are \[.*\], expected the bulk CSV and each market's CSV of the index, then the same of the series, then each snapshot's of \/api\/vintages$/,
    plant: (t) => editJson(t, '/api/datapackage', (d) => void arrayAt(d, 'resources').splice(1, 2, ...arrayAt(d, 'resources').slice(1, 3).reverse())),
  },
  {
    check: 'Data Package /api/datapackage',
    says: /^\/api\/datapackage: http:\/\/[^ ]+\/api\/markets\/us-zz-gone\/csv answered 404$/,
    plant: (t) => editJson(t, '/api/datapackage', (d) => void (objectAt(d, 'resources', 3).path = `${t.baseUrl}/api/markets/us-zz-gone/csv`)),
  },
  {
    check: 'Data Package /api/datapackage',
    says: /^\/api\/datapackage: \S+ hashes to sha256:[0-9a-f]{64}, the package says "sha256:0{64}"$/,
    plant: (t) => editJson(t, '/api/datapackage', (d) => void (objectAt(d, 'resources', 4).hash = `sha256:${'0'.repeat(64)}`)),
  },
  {
    check: 'Data Package /api/datapackage',
    says: /^\/api\/datapackage: \S+ has fields verify_renamed,/,
    plant: (t) => editJson(t, '/api/datapackage', (d) => void (objectAt(d, 'resources', 5, 'schema', 'fields', 0).name = 'verify_renamed')),
  },
  {
    check: 'Data Package /api/datapackage',
    says: /^\/api\/datapackage: \S+ has primary key \["market_id"\], expected market_id, metric_id$/,
    plant: (t) => editJson(t, '/api/datapackage', (d) => void (objectAt(d, 'resources', 6, 'schema').primaryKey = ['market_id'])),
  },

  // The vintages and the download.
  {
    check: 'vintages /api/vintages',
    says: /^\/api\/vintages fails the served schema at \/count: /,
    plant: (t) => editJson(t, '/api/vintages', (d) => void (d.count = 'one')),
  },
  {
    check: 'vintages /api/vintages',
    says: /^\/api\/vintages does not list the current snapshot \(2026-11-29\) first$/,
    plant: (t) => editJson(t, '/api/vintages', (d) => void (objectAt(d, 'vintages', 0).current = false)),
  },
  {
    check: 'vintages /api/vintages',
    says: /^GET \/api\/vintages\/2026-11-29\/markets has Cache-Control "no-store", expected public, max-age=31536000, immutable \(or public, max-age=300 until the current snapshot is archived\)$/,
    plant: (t) => editHeader(t, '/api/vintages/2026-11-29/markets', 'Cache-Control', 'no-store'),
  },
  { check: 'download /api/download', says: /^\/api\/download has no README\.md$/, plant: (t) => editDownload(t, (files) => void files.delete('README.md')) },
  {
    check: 'download /api/download',
    says: new RegExp(`^/api/download unpacks into 2 top-level entries \\(README\\.md, ${FOLDER}/\\), not one folder named for the snapshot$`),
    plant: (t) => editDownload(t, (files) => void files.set('README.md', Buffer.from('outside the folder\n')), true),
  },
  {
    check: 'download /api/download',
    says: new RegExp(`^/api/download does not hold /api/markets/${NAS}/csv$`),
    plant: (t) => editDownload(t, (files) => void files.delete(`markets/${NAS}.csv`)),
  },

  // Links: of the JSON documents and the pages they name.
  {
    check: 'links',
    says: /^\/api\/markets\/us-tn-nashville \/links\/changelog: "not a url" is not a URL$/,
    plant: (t) => profile(t, NAS, (d) => void (objectAt(d, 'links').changelog = 'not a url')),
  },
  {
    check: 'links',
    says: new RegExp(
      `^/api/markets/${DAL} /links/privacy: https://elsewhere\\.example/privacy is not under http://[^;]+; was the deployment built with another BASE_URL\\?$`,
    ),
    plant: (t) => profile(t, DAL, (d) => void (objectAt(d, 'links').privacy = 'https://elsewhere.example/privacy')),
  },
  {
    check: 'links',
    says: new RegExp(`^/api/markets/${SEA} /links/methodology: http://[^ ]+/methodology has no element with id "verify-no-such-anchor"$`),
    plant: (t) => profile(t, SEA, (d) => void (objectAt(d, 'links').methodology = `${t.baseUrl}/methodology#verify-no-such-anchor`)),
  },
];

/** What a deployment without a schema the later checks need must say. */
const WITHOUT_SCHEMAS: readonly Planted[] = [
  {
    check: 'schema /api/schema/market-series',
    says: /^GET \/api\/schema\/market-series answered 404, expected 200$/,
    plant: (t) => void t.routes.delete('/api/schema/market-series'),
  },
  {
    check: `market ${AUS} series`,
    says: new RegExp(`^/api/markets/${AUS}/series: cannot be validated, the series schema could not be read$`),
    plant: () => undefined,
  },
];

/** The rows whose check does not name their fault among its faults, each with what the check says instead. */
const unsaid = (report: VerifyReport, rows: readonly { check: string; says: RegExp }[]): string[] =>
  rows.flatMap((row) => {
    const check = report.checks.find((c) => c.name === row.check);
    if (check === undefined) return [`no check named ${row.check}`];
    return check.faults.some((fault) => row.says.test(fault))
      ? []
      : [`${row.check} does not say ${String(row.says)}; it says ${JSON.stringify(check.faults.slice(0, 8))}`];
  });

describe('verify names every fault planted in one deployment', () => {
  /** Serves the table with every row's fault planted, runs verify once, and lists the rows whose check did not say it. */
  async function missed(rows: readonly Planted[]): Promise<string[]> {
    const deployment = await embeddedDeployment((t) => {
      for (const row of rows) row.plant(t);
    });
    try {
      return unsaid(await verifyDeployment(deployment.url), rows);
    } finally {
      await deployment.stop();
    }
  }

  test(`${PLANTED.length} faults, each in a place of its own: every one named by its check`, async () => {
    assert.deepEqual([...M], [...WORLD_MARKET_IDS].sort(), "premise: the rows' markets are the fixtures' markets");
    assert.deepEqual(await missed(PLANTED), []);
  });

  test('a schema the later checks validate against is missing: its check says so, and so does each check that needed it', async () => {
    assert.deepEqual(await missed(WITHOUT_SCHEMAS), []);
  });

  test('an index that is not a JSON object: the one check there is names it', async () => {
    const deployment = await embeddedDeployment((t) => editText(t, '/api/markets', () => '[]\n'));
    try {
      const report = await verifyDeployment(deployment.url);
      assert.deepEqual(
        report.checks.map((c) => [c.name, c.faults]),
        [['index /api/markets', ['/api/markets is not a JSON object']]],
      );
    } finally {
      await deployment.stop();
    }
  });
});

/** A request as the rewriting proxy below sees it (header names in lower case). */
interface Asked {
  method: string;
  path: string;
  headers: Record<string, string>;
}
/** An answer as the proxy passes it on. */
interface Given {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}
/** A way the proxy makes the deployment misbehave: for the requests `when` picks, a changed request or a changed answer. */
interface Misbehaviour {
  when: (r: Asked) => boolean;
  ask?: (r: Asked) => void;
  give?: (a: Given, r: Asked) => void;
}
/** A fault of the HTTP layer, made by a proxy in front of the embedded server, and what verify must say of it. */
interface Made {
  check: string;
  says: RegExp;
  /** Undefined for a further effect of the misbehaviour of a row above. */
  by?: Misbehaviour;
}

/** One exchange with the embedded server behind the proxy, the answer's body read whole. */
function forward(origin: string, r: Asked): Promise<Given> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${origin}${r.path}`, { method: r.method, headers: r.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined && !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k)) headers[k] = String(v);
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * The embedded server with a proxy in front, at the address the table was built for, that misbehaves as `ways` say:
 * the HTTP faults no route table can hold (a problem body, a status, a header of one exchange).
 */
async function proxiedDeployment(ways: readonly Misbehaviour[]): Promise<Deployment> {
  try {
    return await proxyOn(await (shared ??= tableForFreePort()), ways);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return proxyOn(await tableForFreePort(), ways);
  }
}

/** The proxy on the port `built` was made for, the server behind it on a port of its own. */
async function proxyOn(built: { port: number; table: RouteTable }, ways: readonly Misbehaviour[]): Promise<Deployment> {
  const running = await startServer(built.table, { host: '127.0.0.1', port: 0 });
  const proxy = createHttpServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const asked: Asked = { method: req.method ?? 'GET', path: req.url ?? '/', headers: {} };
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && k !== 'connection') asked.headers[k] = String(v);
      const mine = ways.filter((w) => w.when(asked));
      for (const w of mine) w.ask?.(asked);
      forward(running.url, asked).then(
        (given) => {
          for (const w of mine) w.give?.(given, asked);
          res.writeHead(given.status, { ...given.headers, 'content-length': String(given.status === 304 ? 0 : given.body.length) });
          res.end(given.status === 304 || asked.method === 'HEAD' ? undefined : given.body);
        },
        () => res.destroy(),
      );
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      proxy.once('error', reject);
      proxy.listen(built.port, '127.0.0.1', resolve);
    });
  } catch (error) {
    await running.close();
    throw error;
  }
  return {
    url: built.table.baseUrl,
    stop: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await running.close();
    },
  };
}

const UNKNOWN = `/api/markets/${PROBE_UNKNOWN_MARKET}`;
const on =
  (method: string, path: string, header?: [string, string | RegExp]) =>
  (r: Asked): boolean =>
    r.method === method &&
    r.path === path &&
    (header === undefined || (typeof header[1] === 'string' ? r.headers[header[0]] === header[1] : header[1].test(r.headers[header[0]] ?? '')));
const problemEdit = (edit: (doc: Record<string, unknown>) => void) => (a: Given) => {
  const doc = JSON.parse(a.body.toString('utf8')) as Record<string, unknown>;
  edit(doc);
  a.body = Buffer.from(JSON.stringify(doc));
};

const MADE: readonly Made[] = [
  // The problem bodies: each field verify reads, wrong in one answer.
  {
    check: 'errors: unknown market',
    says: new RegExp(`^GET ${UNKNOWN}/csv: the problem body is not a JSON object$`),
    by: { when: on('GET', `${UNKNOWN}/csv`), give: (a) => void (a.body = Buffer.from('[]')) },
  },
  {
    check: 'errors: unknown market',
    says: new RegExp(`^GET ${UNKNOWN}: problem has no string "title"$`),
    by: {
      when: on('GET', UNKNOWN),
      give: problemEdit((d) => {
        delete d.title;
        d.status = 400;
        d.code = 'not_found';
        d.marketId = 'us-zz-other';
        (d.knownMarketIds as unknown[]).pop();
      }),
    },
  },
  { check: 'errors: unknown market', says: new RegExp(`^GET ${UNKNOWN}: problem status is 400, expected 404$`) },
  { check: 'errors: unknown market', says: new RegExp(`^GET ${UNKNOWN}: problem code is "not_found", expected "market_not_found"$`) },
  { check: 'errors: unknown market', says: new RegExp(`^GET ${UNKNOWN}: knownMarketIds \\[.*\\] differ from the index's ids$`) },
  { check: 'errors: unknown market', says: new RegExp(`^GET ${UNKNOWN}: marketId is "us-zz-other", expected the requested id echoed$`) },
  {
    check: 'errors: unknown path',
    says: /^GET \/verify-no-such-page answered 200, expected 404$/,
    by: { when: on('GET', '/verify-no-such-page'), give: (a) => void (a.status = 200) },
  },
  {
    check: 'errors: method not allowed',
    says: /^POST \/api\/markets: Allow is null, expected GET, HEAD$/,
    by: { when: on('POST', '/api/markets'), give: (a) => void delete a.headers.allow },
  },

  // Revalidation: each ETag and 304 rule, broken for one resource.
  {
    check: 'ETag and If-None-Match',
    says: /^GET \/api\/markets\/us-tx-dallas\/csv \(identity\): 200 without an ETag to revalidate$/,
    by: { when: on('GET', '/api/markets/us-tx-dallas/csv', ['accept-encoding', 'identity']), give: (a) => void delete a.headers.etag },
  },
  {
    check: 'ETag and If-None-Match',
    says: /^GET \/api\/markets\/us-tx-austin\/csv with If-None-Match "[^"]+" answered 200, expected 304$/,
    by: { when: on('GET', '/api/markets/us-tx-austin/csv', ['if-none-match', /./]), ask: (r) => void delete r.headers['if-none-match'] },
  },
  { check: 'ETag and If-None-Match', says: /^GET \/api\/markets\/us-tx-austin\/csv 304 carries a body$/ },
  {
    check: 'ETag and If-None-Match',
    says: /^GET \/api\/markets\/us-tx-austin 304 has ETag "other", expected "[^"]+"$/,
    by: { when: on('GET', '/api/markets/us-tx-austin', ['if-none-match', /./]), give: (a) => void (a.headers.etag = '"other"') },
  },
  {
    check: 'ETag and If-None-Match',
    says: /^GET \/api\/markets\/us-ga-atlanta: the gzip and identity representations share the ETag "[^"]+"$/,
    by: {
      when: on('GET', '/api/markets/us-ga-atlanta', ['accept-encoding', 'gzip']),
      // The identity ETag: the hash of the bytes the gzip body holds.
      give: (a) => void (a.headers.etag = etagOf(gunzipSync(a.body))),
    },
  },

  // Negotiation: the identity answer, the coding chosen, Vary.
  {
    check: 'compression and Vary',
    says: /^GET \/api\/markets\/us-fl-miami\/csv answered 503$/,
    by: { when: (r) => on('GET', '/api/markets/us-fl-miami/csv')(r) && r.headers['accept-encoding'] === undefined, give: (a) => void (a.status = 503) },
  },
  {
    check: 'compression and Vary',
    says: /^GET \/api\/markets\/us-il-chicago\/csv with Accept-Encoding: br answered gzip, expected br$/,
    by: { when: on('GET', '/api/markets/us-il-chicago/csv', ['accept-encoding', 'br']), ask: (r) => void (r.headers['accept-encoding'] = 'gzip') },
  },
  {
    check: 'compression and Vary',
    says: /^GET \/api\/markets\/us-ma-boston\/csv with Accept-Encoding: gzip;q=0, br;q=0 lacks Vary: Accept-Encoding$/,
    by: { when: on('GET', '/api/markets/us-ma-boston/csv', ['accept-encoding', 'gzip;q=0, br;q=0']), give: (a) => void delete a.headers.vary },
  },
];

describe('verify names the HTTP faults a proxy in front of the server makes', () => {
  test(`${MADE.length} faults of problem bodies, statuses, ETags and negotiation, each in one exchange: every one named by its check`, async () => {
    const deployment = await proxiedDeployment(MADE.flatMap((m) => (m.by === undefined ? [] : [m.by])));
    try {
      assert.deepEqual(unsaid(await verifyDeployment(deployment.url), MADE), []);
    } finally {
      await deployment.stop();
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
      execFile(process.execPath, [commandPath(), ...argv], { encoding: 'utf8' }, (error, stdout) => {
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

  test('one check is counted as one check', () => {
    const check = { name: 'index /api/markets', ok: false, detail: 'connect ECONNREFUSED', faults: ['connect ECONNREFUSED'] };
    const report: VerifyReport = { baseUrl: 'http://127.0.0.1:9', address: 'http://127.0.0.1:9', ok: false, passed: 0, failed: 1, checks: [check] };
    assert.match(formatReport(report), /\n1 check: 0 passed, 1 failed\n$/);
    assert.match(formatReport({ ...report, passed: 1, checks: [{ ...check, ok: true }, check] }), /\n2 checks: 1 passed, 1 failed\n$/);
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
      'market-profiles: verify: the address must use http or https, got "ftp://example.org" (market-profiles verify --help says more)\n',
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
        'GET http://127.0.0.1:<port>/api/markets: the answer declares 10485760 bytes, more than the limit of 1048576 bytes (--max-bytes)',
        'GET http://127.0.0.1:<port>/api/markets: the answer is more than the limit of 1048576 bytes (--max-bytes)',
      ]);
      // The command line's --max-bytes is the limit the probe reads to.
      const { port } = servers[0]?.address() as AddressInfo;
      const cli = await captureOutput(() => main(['verify', `http://127.0.0.1:${port}`, '--max-bytes', '4096', '--timeout-ms', '20000'], {}));
      assert.equal(cli.value, 1);
      assert.ok(
        cli.out.includes(`GET http://127.0.0.1:${port}/api/markets: the answer declares 10485760 bytes, more than the limit of 4096 bytes (--max-bytes)`),
        cli.out,
      );
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });

  test("a server's text quoted in the report reaches the terminal with its control characters escaped", () => {
    const report: VerifyReport = {
      baseUrl: 'http://x.example',
      address: 'http://x.example',
      ok: false,
      passed: 0,
      failed: 1,
      checks: [
        { name: 'index /api/markets', ok: false, detail: 'GET /api/markets is not JSON: Unexpected token \u001b[2J\u009b31m\nPASS  forged', faults: [] },
      ],
    };
    assert.equal(
      formatReport(report),
      'verify http://x.example\nFAIL  index /api/markets: GET /api/markets is not JSON: Unexpected token \\u001b[2J\\u009b31m\\u000aPASS  forged\n1 check: 0 passed, 1 failed\n',
    );
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

/** SHA-256 of 1,000 "x", worked out apart: printf 'x%.0s' {1..1000} | sha256sum */
const X1000_SHA256 = '44f8354494a5ba03ba1792a8d3e9c534c47a9181980fde7a3f44b06ef2ae7c7f';

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

  test('a body asked for its hash only is counted and hashed as it streams, never kept', async () => {
    const probe = createProbe(realBase);
    try {
      const hashed = await probe.fetch('/hashed', { keep: false });
      assert.deepEqual([hashed.status, hashed.body.length, hashed.bytes, hashed.sha256], [200, 0, 1000, X1000_SHA256]);
      const kept = await probe.fetch('/kept');
      assert.deepEqual([kept.body.length, kept.bytes, kept.sha256], [1000, 1000, X1000_SHA256]);
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
      await assert.rejects(probe.fetch('/big'), {
        message: `GET ${realBase}/big: the answer declares 1000 bytes, more than the limit of 100 bytes (--max-bytes)`,
      });
    } finally {
      probe.close();
    }
  });
});
