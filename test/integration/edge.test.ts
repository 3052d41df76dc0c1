// The shared HTTP contract suite against the edge Worker on Cloudflare's local runtime (wrangler dev, workerd) over a built dist/, with the differences the platform forces named.
import { edgeOverFreshBuild } from '../../scripts/edge-run.ts';
import { defineHttpSuite, type SuiteOptions } from '../support/http-suite.ts';

const FIXTURES = new URL('../../fixtures/', import.meta.url).pathname;

/** Each difference the platform forces, with its reason: docs/deploy.md has the same table. */
export const EDGE_DIFFERENCES: SuiteOptions = {
  allow: {
    'keeps-connection-open': {
      reason:
        "workerd's HTTP server does not close a connection after answering `Connection: close`; it waits for the client (or 5 s idle), so the suite closes it once the answers it expects are complete",
    },
    'normalized-target': {
      reason:
        'the runtime parses the target as a URL before the Worker sees it: dot segments are resolved, `\\` becomes `/` and a fragment is dropped (Cloudflare also merges `//` and decodes unreserved %XX), so these reach the route they resolve to',
      cases: ['dot-dot segment', 'single-dot segment', 'encoded dot-dot', 'backslashes', 'fragment sent in the target'],
    },
    'front-end-decides': {
      reason:
        "the platform's HTTP front end (workerd and wrangler's dev proxy here, Cloudflare's edge in production) answers or accepts these before the Worker runs, with its own status and body",
      cases: [
        'absolute-form target',
        'absolute-form target naming another host',
        'asterisk-form target with GET',
        'unknown method token',
        'lower-case method (methods are case-sensitive)',
        'CONNECT',
        'HTTP/1.0 without Host',
        'HTTP/1.1 without Host',
        'two Host headers',
        'space before the colon',
        'NUL in a header value',
        'oversized header',
        'too many headers in total',
        'WebSocket upgrade request is answered as a plain GET or refused',
        'two different Content-Lengths',
        'Transfer-Encoding and Content-Length',
        'unknown Transfer-Encoding',
        'Transfer-Encoding not ending in chunked',
        'malformed chunk size',
      ],
    },
    'recompresses-html': {
      reason:
        "wrangler dev's proxy passes every text/html answer through HTMLRewriter (its live-reload hook): sent without Content-Length, a gzip or br page decompressed and compressed again (local runtime only)",
    },
    'states-content-encoding': {
      reason:
        'Cloudflare recodes answers of the types it compresses (and, in the local runtime, bodiless ones) unless they name their coding, so a 304 carries the Content-Encoding of the representation it validates when the client accepts gzip or br',
    },
  },
};

defineHttpSuite('edge Worker on workerd', () => edgeOverFreshBuild(FIXTURES), EDGE_DIFFERENCES);
