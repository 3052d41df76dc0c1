// The shared HTTP contract suite (routes, the agreement table, the seeded fuzz) against the edge Worker on Cloudflare's local runtime (workerd, through Miniflare as wrangler dev runs it) over a built dist/, with the differences the platform forces named.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { edgeOverFreshBuild, type MiniflareRun } from '../../scripts/edge-run.ts';
import type { FreshBuildRun } from '../../scripts/nginx-run.ts';
import { EDGE_ASSETS_DIR } from '../../src/artifact/edge.ts';
import { fileFor } from '../../src/artifact/manifest.ts';
import { PATHS } from '../../src/contract/paths.ts';
import { defineHttpSuite, exchange, header, request, type SuiteOptions } from '../support/http-suite.ts';
import { buildWorld, worldInputs } from '../world/world.ts';

/** Each difference the platform forces, with its reason: docs/deploy.md has the same table. */
export const EDGE_DIFFERENCES: SuiteOptions = {
  engine: 'edge',
  allow: {
    'keeps-connection-open': {
      reason:
        "workerd's HTTP server does not close a connection after answering `Connection: close`; it waits for the client (or 5 s idle), so the suite closes it once the answers it expects are complete",
    },
    'resets-after-refusal': {
      reason:
        "after a request it refuses (a 400 of its own), workerd closes the connection with the client's later pipelined requests unread, so the kernel sends a reset and drops what the client has not yet read of the earlier answers (RFC 9112 9.6; nginx and the embedded server close lingering): a late reader got 98,650 bytes of the 177,702 of /api/datapackage ahead of an absolute-form request and 160 KB of further requests",
    },
    'states-content-encoding': {
      reason:
        'Cloudflare recodes answers of the types it compresses (and, in the local runtime, bodiless ones) unless they name their coding, so a 304 carries the Content-Encoding of the representation it validates when the client accepts gzip or br',
    },
  },
  keepsConnections:
    'a Worker has no way to close the connection it answers on; the runtime keeps it open after a 400 (Cloudflare decides for itself in production)',
  // Every answer of the Worker carries nosniff; the runtime's own (400, 500, 501 for what it refuses) carries nothing.
  platformAnswer: (res) => header(res, 'x-content-type-options') === undefined,
};

defineHttpSuite('edge Worker on workerd', () => edgeOverFreshBuild(worldInputs()), EDGE_DIFFERENCES);

describe('a body stored in parts, on workerd', () => {
  // Bodies over Cloudflare's 25 MiB are stored in parts (src/artifact/edge-data.ts); 4 KiB parts make the 16 markets' long bodies so.
  const PART = 4096;
  let edge: FreshBuildRun<MiniflareRun>;
  before(async () => {
    edge = await edgeOverFreshBuild(worldInputs(), { edgePartBytes: PART });
  });
  after(() => edge.stop());

  test('is sent whole, with its Content-Length, in each coding, and its parts are the only copy in the assets', async () => {
    const table = buildWorld({ baseUrl: edge.baseUrl });
    const assets = join(edge.dir, 'dist', EDGE_ASSETS_DIR);
    for (const path of [PATHS.bulkSeriesCsv, PATHS.dataPackage, PATHS.profile('us-tx-austin')]) {
      const route = table.routes.get(path);
      assert.ok(route !== undefined, path);
      for (const v of [route.identity, route.gzip, route.br]) {
        if (v === undefined) continue;
        // Most are in parts; the profile's gzip and br (about 2 KB) are whole files beside its identity's parts.
        const label = `${path} ${v.encoding} (${v.body.length} bytes)`;
        const headers: Record<string, string> = v.encoding === 'identity' ? {} : { 'Accept-Encoding': v.encoding };
        const { responses } = await exchange(edge.run.url, request(edge.run.url, 'GET', path, headers), [false], { answers: 1 });
        const res = responses[0];
        assert.ok(res !== undefined, label);
        assert.equal(res.status, 200, label);
        assert.equal(header(res, 'content-length'), String(v.body.length), `${label}: Content-Length`);
        assert.equal(header(res, 'transfer-encoding'), undefined, `${label}: not chunked`);
        assert.equal(header(res, 'etag'), v.etag, label);
        assert.ok(res.body.equals(v.body), `${label}: the bytes`);
      }
      const file = fileFor(route);
      assert.ok(route.identity.body.length > PART, `${path}: ${route.identity.body.length} bytes`);
      assert.ok(!existsSync(join(assets, file)), `${file} is not stored whole`);
      assert.ok(existsSync(join(assets, `${file}.part1`)) && existsSync(join(assets, `${file}.part2`)), `${file} is stored in parts`);
    }
  });
});
