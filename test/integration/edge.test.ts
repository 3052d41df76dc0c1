// The shared HTTP contract suite (routes, the agreement table, the seeded fuzz) against the edge Worker on Cloudflare's local runtime (workerd, through Miniflare as wrangler dev runs it) over a built dist/, with the differences the platform forces named.
import { edgeOverFreshBuild } from '../../scripts/edge-run.ts';
import { defineHttpSuite, header, type SuiteOptions } from '../support/http-suite.ts';

const FIXTURES = new URL('../../fixtures/', import.meta.url).pathname;

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

defineHttpSuite('edge Worker on workerd', () => edgeOverFreshBuild(FIXTURES), EDGE_DIFFERENCES);
