// The agreement table: malformed and hostile request shapes, each with the one answer every engine gives (status, body, whether the connection closes); a platform that decides first is named, with why.
import { connect } from 'node:net';
import type { ProblemCode } from '../../src/protocol/problems.ts';
import { parseResponses, type RawResponse } from './http-suite.ts';

export type EngineName = 'embedded' | 'nginx' | 'edge';

/** What an engine answers to a row's bytes. */
export interface Answer {
  /** Status of the first answer, or `none`: the connection is closed without an answer. */
  status: number | 'none';
  /** The first answer's body: a route's exact bytes, a problem with this code, the HTML 404 page. */
  body?: { route: string } | { code: ProblemCode } | 'page';
  /** The engine closes the connection after its answers (a request sent after them is never answered). */
  closes: boolean;
  /** How many answers the bytes get (pipelining); 1 unless said. */
  answers?: number;
}

/** A platform that answers before any of this service's code runs: its answer (`own`: whatever it is), and why. */
export interface PlatformAnswer {
  expect: Answer | 'own';
  reason: string;
}

export interface Row {
  name: string;
  /** The bytes, given the engine's Host (`host:port`). */
  send: (host: string) => string | Buffer;
  /** Bytes sent once the first answer has arrived: a body that turns out malformed after its request was answered. */
  then?: string;
  /** Per answer: was its request a HEAD. */
  heads?: readonly boolean[];
  expect: Answer;
  platform?: Partial<Record<EngineName, PlatformAnswer>>;
}

const ID = 'us-tx-austin';
const PROFILE = `/api/markets/${ID}`;
const CSV = `${PROFILE}/csv`;

/** A request without `Connection: close`, so that closing is the engine's own decision. */
const req =
  (method: string, target: string, extra = '', version = 'HTTP/1.1') =>
  (h: string): string =>
    `${method} ${target} ${version}\r\nHost: ${h}\r\n${extra}\r\n`;
const get = (target: string, extra = ''): ((h: string) => string) => req('GET', target, extra);
const raw =
  (text: string) =>
  (h: string): string =>
    text.replaceAll('{H}', h);

const ok = (route: string): Answer => ({ status: 200, body: { route }, closes: false });
const missing = (code: ProblemCode): Answer => ({ status: 404, body: { code }, closes: false });
const PAGE: Answer = { status: 404, body: 'page', closes: false };
const BAD: Answer = { status: 400, body: { code: 'bad_request' }, closes: true };
const KEPT_405: Answer = { status: 405, body: { code: 'method_not_allowed' }, closes: false };
const CLOSED_405: Answer = { status: 405, body: { code: 'method_not_allowed' }, closes: true };
const TOO_LARGE: Answer = { status: 431, body: { code: 'headers_too_large' }, closes: true };
const NONE: Answer = { status: 'none', closes: true };
const NOT_MODIFIED: Answer = { status: 304, closes: false };

// The reasons a platform decides, each stated once.
const EDGE_NORMALIZES =
  'the runtime parses the target as a URL before the Worker sees it: dot segments are resolved, "\\" becomes "/" and a fragment is dropped, so the request reaches the route it resolves to';
const EDGE_FRONT =
  "the platform's HTTP front end (workerd here, Cloudflare's edge in production) answers or accepts this before the Worker runs, with its own status and body";
const NGINX_PARSER_LENIENT =
  "nginx's request parser accepts this (RFC 9112 lets a recipient be lenient here) before any configuration runs, and no variable shows it to the configuration";
const NGINX_READS_BODY =
  'nginx reads (and discards) a body before it answers with an error, and finds it malformed: 400; the embedded server answers as soon as the headers are in, then closes without a second answer';
const edgeFront = { edge: { expect: 'own', reason: EDGE_FRONT } } as const;
const edgeNormalizes = (route: string | 'page'): Row['platform'] => ({
  edge: { expect: route === 'page' ? PAGE : ok(route), reason: EDGE_NORMALIZES },
});

const headers = (n: number, width: number): string => Array.from({ length: n }, (_, i) => `X-H${i}: ${'b'.repeat(width)}\r\n`).join('');

export const ROWS: readonly Row[] = [
  // The routes themselves, the baseline every tricky variant is compared with.
  { name: 'profile JSON', send: get(PROFILE), expect: ok(PROFILE) },
  { name: 'market index', send: get('/api/markets'), expect: ok('/api/markets') },
  { name: 'bulk CSV', send: get('/api/markets/csv'), expect: ok('/api/markets/csv') },
  { name: 'market CSV', send: get(CSV), expect: ok(CSV) },
  { name: 'profile schema', send: get('/api/schema/market-profile'), expect: ok('/api/schema/market-profile') },
  { name: 'CSV descriptor', send: get('/api/schema/market-csv'), expect: ok('/api/schema/market-csv') },
  { name: 'health probe', send: get('/healthz'), expect: ok('/healthz') },
  { name: 'home page', send: get('/'), expect: ok('/') },

  // Query strings are not part of the contract.
  { name: 'query string ignored', send: get(`${PROFILE}?x=1&y=2`), expect: ok(PROFILE) },
  { name: 'empty query string', send: get(`${PROFILE}?`), expect: ok(PROFILE) },
  { name: 'malformed percent-encoding in the query only', send: get(`${PROFILE}?q=%zz%`), expect: ok(PROFILE) },
  { name: 'traversal-looking query', send: get(`${CSV}?../../../../etc/passwd`), expect: ok(CSV) },

  // Not canonical: 404, never a redirect to a computed location.
  { name: 'trailing slash on a profile', send: get(`${PROFILE}/`), expect: missing('not_found') },
  { name: 'trailing slash on a CSV', send: get(`${CSV}/`), expect: missing('not_found') },
  { name: 'trailing slash on the index', send: get('/api/markets/'), expect: missing('not_found') },
  { name: '/api alone', send: get('/api'), expect: missing('not_found') },
  { name: '/api/ (a folder on disk)', send: get('/api/'), expect: missing('not_found') },
  { name: 'upper-case prefix', send: get(`/API/markets/${ID}`), expect: PAGE },
  { name: 'upper-case market id', send: get(`/api/markets/${ID.toUpperCase()}`), expect: missing('market_not_found') },
  { name: 'unknown market id', send: get('/api/markets/us-xx-nowhere'), expect: missing('market_not_found') },
  { name: 'unknown market id, CSV path', send: get('/api/markets/us-xx-nowhere/csv'), expect: missing('market_not_found') },
  { name: 'unknown API path', send: get('/api/nope'), expect: missing('not_found') },
  { name: 'unknown page path', send: get('/no-such-page'), expect: PAGE },
  { name: '.json suffix', send: get(`${PROFILE}.json`), expect: missing('market_not_found') },
  { name: 'the file behind a route (index.json)', send: get(`${PROFILE}/index.json`), expect: missing('not_found') },
  { name: 'a precompressed file behind a route', send: get(`${PROFILE}/index.json.gz`), expect: missing('not_found') },
  { name: 'the page file behind a route', send: get('/index.html'), expect: PAGE },
  { name: 'the build manifest', send: get('/manifest.json'), expect: PAGE },
  { name: 'path parameter (;jsessionid)', send: get(`${PROFILE};jsessionid=1`), expect: missing('market_not_found') },
  { name: 'encoded space after the id', send: get(`${PROFILE}%20`), expect: missing('market_not_found') },
  { name: 'encoded unreserved characters (equivalent per RFC 3986)', send: get('/api/markets/us%2Dtx%2Daustin'), expect: ok(PROFILE) },
  { name: 'double-encoded dots stay literal', send: get('/api/markets/%252e%252e/csv'), expect: missing('market_not_found') },

  // Traversal and path confusion: 400 or 404, never another file.
  { name: 'dot-dot segment', send: get(`${PROFILE}/../us-fl-miami`), expect: BAD, platform: edgeNormalizes('/api/markets/us-fl-miami') },
  { name: 'dot-dot to the root', send: get('/api/../../../../etc/passwd'), expect: BAD, platform: edgeNormalizes('page') },
  { name: 'single-dot segment', send: get(`/api/markets/./${ID}`), expect: BAD, platform: edgeNormalizes(PROFILE) },
  { name: 'encoded dot-dot', send: get(`/api/markets/%2e%2e/markets/${ID}`), expect: BAD, platform: edgeNormalizes(PROFILE) },
  { name: 'encoded slash', send: get(`/api/markets%2f${ID}`), expect: BAD },
  { name: 'encoded slash before csv', send: get(`${PROFILE}%2Fcsv`), expect: BAD },
  { name: 'encoded traversal with slashes', send: get('/api/markets/..%2f..%2f..%2fetc%2fpasswd'), expect: BAD },
  { name: 'backslashes', send: get(`/api\\markets\\${ID}`), expect: BAD, platform: edgeNormalizes(PROFILE) },
  { name: 'encoded backslash traversal', send: get('/api/markets/%5c..%5c..%5cetc%5cpasswd'), expect: BAD },
  { name: 'double slash prefix (scheme-relative)', send: get(`//api/markets/${ID}`), expect: PAGE },
  { name: 'double slash prefix to another host', send: get('//example.com/api/markets'), expect: PAGE },
  { name: 'double slash inside', send: get(`/api//markets/${ID}`), expect: missing('not_found') },
  { name: 'dotfile .env', send: get('/.env'), expect: PAGE },
  { name: 'dotfile .git/config', send: get('/.git/config'), expect: PAGE },
  { name: 'dotfile under /api', send: get('/api/markets/.hidden'), expect: missing('market_not_found') },
  { name: 'overlong path', send: get(`/${'a'.repeat(4000)}`), expect: PAGE },
  { name: 'overlong market id', send: get(`/api/markets/${'x'.repeat(3000)}`), expect: missing('market_not_found') },
  { name: 'absolute-form target', send: (h) => `GET http://${h}${PROFILE} HTTP/1.1\r\nHost: ${h}\r\n\r\n`, expect: BAD, platform: edgeFront },
  { name: 'absolute-form target naming another host', send: get(`http://evil.example${PROFILE}`), expect: BAD, platform: edgeFront },
  { name: 'asterisk-form target with GET', send: get('*'), expect: BAD, platform: edgeFront },
  { name: 'fragment sent in the target', send: get(`${PROFILE}#x`), expect: missing('market_not_found'), platform: edgeNormalizes(PROFILE) },

  // Dot segments behind long paths (nginx's path rules once overflowed PCRE2's JIT stack on these, and let them through).
  { name: 'dot-dot behind 1,900 bytes', send: get(`/${'a'.repeat(1900)}/../api/markets/${ID}`), expect: BAD, platform: edgeNormalizes(PROFILE) },
  { name: 'dot-dot behind 650 encoded letters', send: get(`/${'%41'.repeat(650)}/../api/markets/${ID}`), expect: BAD, platform: edgeNormalizes(PROFILE) },
  { name: 'dot behind 320 encoded two-byte letters', send: get(`/${'%c3%bc'.repeat(320)}/./x`), expect: BAD, platform: edgeNormalizes('page') },
  { name: 'dot-dot behind 1,000 segments', send: get(`/${'a/'.repeat(1000)}../api/markets`), expect: BAD, platform: edgeNormalizes('page') },
  { name: 'broken UTF-8 at the end of 2,000 bytes', send: get(`/${'a'.repeat(2000)}%c3`), expect: BAD },
  { name: 'stray continuation byte in 680 encoded letters', send: get(`/${'%41'.repeat(680)}%bc`), expect: BAD },

  // Malformed bytes: 400.
  { name: 'malformed percent-encoding', send: get('/api/markets/%zz'), expect: BAD },
  { name: 'truncated percent-encoding', send: get('/api/markets/%'), expect: BAD },
  { name: 'encoded NUL', send: get(`${PROFILE}%00`), expect: BAD },
  { name: 'encoded NUL mid-path', send: get(`/api/markets%00/${ID}`), expect: BAD },
  { name: 'raw control byte in the target', send: get(`/api/markets/us-tx\x01austin`), expect: BAD, platform: edgeFront },
  { name: 'overlong UTF-8 slash (%C0%AF)', send: get('/api/markets/%C0%AF..%C0%AFetc'), expect: BAD },
  { name: 'surrogate in UTF-8 (%ED%A0%80)', send: get('/api/markets/%ED%A0%80'), expect: BAD },
  {
    name: 'raw non-ASCII bytes in the target',
    send: (h) => Buffer.concat([Buffer.from('GET /api/markets/'), Buffer.from([0xc3, 0xbc, 0xff]), Buffer.from(` HTTP/1.1\r\nHost: ${h}\r\n\r\n`)]),
    expect: BAD,
    platform: edgeFront,
  },

  // Methods.
  { name: 'POST', send: req('POST', PROFILE, 'Content-Length: 0\r\n'), expect: KEPT_405 },
  { name: 'POST with a body', send: (h) => `${req('POST', '/api/markets', 'Content-Type: application/json\r\nContent-Length: 2\r\n')(h)}{}`, expect: KEPT_405 },
  { name: 'PUT', send: req('PUT', PROFILE, 'Content-Length: 0\r\n'), expect: KEPT_405 },
  { name: 'DELETE', send: req('DELETE', PROFILE), expect: KEPT_405 },
  { name: 'PATCH', send: req('PATCH', CSV, 'Content-Length: 0\r\n'), expect: KEPT_405 },
  { name: 'PROPFIND', send: req('PROPFIND', '/'), expect: KEPT_405 },
  { name: 'TRACE (never echoes the request)', send: req('TRACE', PROFILE, 'X-Secret: do-not-echo\r\n'), expect: CLOSED_405 },
  { name: 'TRACE on a target that is not valid UTF-8', send: req('TRACE', '/%ff'), expect: BAD },
  { name: 'unknown method token', send: req('FROB', PROFILE), expect: CLOSED_405, platform: edgeFront },
  { name: 'unknown method of 33 letters', send: req('A'.repeat(33), '/healthz'), expect: CLOSED_405, platform: edgeFront },
  { name: 'unknown method with "_" and "-"', send: req('FOO_BAR-BAZ', '/healthz'), expect: CLOSED_405, platform: edgeFront },
  { name: 'unknown method on a bad target', send: req('FROB', '/api/markets/%zz'), expect: BAD, platform: edgeFront },
  { name: 'unknown method with a digit', send: req('F0O', '/healthz'), expect: BAD, platform: edgeFront },
  // How the line around an unknown method is read: as nginx reads it, spaces between the words however many, an
  // HTTP/1.0 or a bare LF as well, and nothing after the version.
  { name: 'unknown method, two spaces before the target', send: raw('FROB  /healthz HTTP/1.1\r\nHost: {H}\r\n\r\n'), expect: CLOSED_405, platform: edgeFront },
  { name: 'unknown method, two spaces before the version', send: raw('FROB /healthz  HTTP/1.1\r\nHost: {H}\r\n\r\n'), expect: CLOSED_405, platform: edgeFront },
  { name: 'unknown method in HTTP/1.0', send: req('FROB', '/healthz', '', 'HTTP/1.0'), expect: CLOSED_405, platform: edgeFront },
  { name: 'unknown method, the line ended by a bare LF', send: raw('FROB /healthz HTTP/1.1\nHost: {H}\r\n\r\n'), expect: CLOSED_405, platform: edgeFront },
  { name: 'unknown method, a word after the version', send: raw('FROB /healthz HTTP/1.1 x\r\nHost: {H}\r\n\r\n'), expect: BAD, platform: edgeFront },
  { name: 'lower-case method (methods are case-sensitive)', send: req('get', PROFILE), expect: BAD, platform: edgeFront },
  { name: 'CONNECT to an authority', send: (h) => `CONNECT ${h} HTTP/1.1\r\nHost: ${h}\r\n\r\n`, expect: BAD, platform: edgeFront },
  { name: 'CONNECT to a path', send: req('CONNECT', '/healthz'), expect: CLOSED_405, platform: edgeFront },
  { name: 'POST to an unknown path', send: req('POST', '/api/nope', 'Content-Length: 0\r\n'), expect: KEPT_405 },
  { name: 'method override header is ignored', send: get(PROFILE, 'X-HTTP-Method-Override: DELETE\r\n'), expect: ok(PROFILE) },
  {
    name: 'OPTIONS preflight',
    send: req('OPTIONS', PROFILE, 'Origin: https://example.org\r\nAccess-Control-Request-Method: GET\r\n'),
    expect: { status: 204, closes: false },
  },
  { name: 'OPTIONS on an unknown path', send: req('OPTIONS', '/api/nope'), expect: missing('not_found') },
  {
    name: 'OPTIONS * (the preflight for the whole server)',
    send: req('OPTIONS', '*'),
    expect: { status: 204, closes: false },
    platform: {
      nginx: {
        expect: BAD,
        reason:
          "nginx's parser takes no asterisk-form target (RFC 9112 3.2.4) before any configuration runs; the embedded server answers it as RFC 9110 9.3.7 allows",
      },
      ...edgeFront,
    },
  },

  // Versions.
  { name: 'HTTP/1.0 without Host', send: raw(`GET ${PROFILE} HTTP/1.0\r\n\r\n`), expect: { ...ok(PROFILE), closes: true }, platform: edgeFront },
  { name: 'HTTP/1.0 asking for keep-alive', send: req('GET', PROFILE, 'Connection: keep-alive\r\n', 'HTTP/1.0'), expect: ok(PROFILE) },
  { name: 'HTTP/1.2', send: req('GET', '/healthz', '', 'HTTP/1.2'), expect: BAD, platform: edgeFront },
  { name: 'HTTP/2.0 in an HTTP/1 request line', send: req('GET', '/healthz', '', 'HTTP/2.0'), expect: BAD, platform: edgeFront },
  { name: 'HTTP/3.0', send: req('GET', '/healthz', '', 'HTTP/3.0'), expect: BAD, platform: edgeFront },
  { name: 'HTTP/9.9', send: req('GET', '/healthz', '', 'HTTP/9.9'), expect: BAD, platform: edgeFront },
  { name: 'the HTTP/2 connection preface', send: raw('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), expect: BAD, platform: edgeFront },
  { name: 'a request line without a version (HTTP/0.9)', send: raw('GET /healthz\r\n\r\n'), expect: NONE, platform: edgeFront },
  { name: 'HTTP/0.9, two spaces before the target', send: raw('GET  /healthz\r\n\r\n'), expect: NONE, platform: edgeFront },
  // node's parser takes the two lines above as requests, which the handler leaves unanswered; it refuses a line with a
  // space after the target, and there the listener's HTTP/0.9 pattern decides.
  { name: 'HTTP/0.9, a space after the target', send: raw('GET /healthz \r\n\r\n'), expect: NONE, platform: edgeFront },
  { name: 'HTTP/0.9, two spaces before the target and one after', send: raw('GET  /healthz \r\n\r\n'), expect: NONE, platform: edgeFront },
  { name: 'a line feed inside the target', send: raw('GET /heal\nthz HTTP/1.1\r\nHost: {H}\r\n\r\n'), expect: NONE, platform: edgeFront },
  { name: 'lower-case protocol name', send: req('GET', '/healthz', '', 'http/1.1'), expect: BAD, platform: edgeFront },

  // Host.
  { name: 'HTTP/1.1 without Host', send: raw(`GET ${PROFILE} HTTP/1.1\r\n\r\n`), expect: BAD, platform: edgeFront },
  { name: 'two Host headers', send: get(PROFILE, 'Host: evil.example\r\n'), expect: BAD, platform: edgeFront },
  {
    name: 'foreign Host does not change the links',
    send: raw(`GET ${PROFILE} HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\n\r\n`),
    expect: ok(PROFILE),
  },
  { name: 'empty Host', send: raw(`GET /healthz HTTP/1.1\r\nHost:\r\n\r\n`), expect: BAD, platform: edgeFront },
  { name: 'Host with a space', send: raw(`GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n`), expect: BAD, platform: edgeFront },
  { name: 'Host with a slash', send: raw(`GET /healthz HTTP/1.1\r\nHost: a/b\r\n\r\n`), expect: BAD, platform: edgeFront },
  { name: 'Host with an empty label', send: raw(`GET /healthz HTTP/1.1\r\nHost: a..b\r\n\r\n`), expect: BAD, platform: edgeFront },
  { name: 'Host with "@"', send: raw(`GET /healthz HTTP/1.1\r\nHost: user@evil.example\r\n\r\n`), expect: BAD, platform: edgeFront },
  { name: 'Host with a port that is not a number', send: raw(`GET /healthz HTTP/1.1\r\nHost: a:b\r\n\r\n`), expect: BAD, platform: edgeFront },
  { name: 'Host as an IPv6 literal', send: raw(`GET /healthz HTTP/1.1\r\nHost: [::1]:80\r\n\r\n`), expect: ok('/healthz') },

  // Header syntax.
  { name: 'space before the colon', send: raw(`GET ${PROFILE} HTTP/1.1\r\nHost : {H}\r\n\r\n`), expect: BAD, platform: edgeFront },
  { name: 'NUL in a header value', send: get(PROFILE, 'X-Test: a\x00b\r\n'), expect: BAD, platform: edgeFront },
  {
    name: 'DEL in a header value',
    send: get('/healthz', 'X-Test: a\x7fb\r\n'),
    expect: BAD,
    platform: { nginx: { expect: ok('/healthz'), reason: NGINX_PARSER_LENIENT }, ...edgeFront },
  },
  {
    name: 'a header line without a colon',
    send: get('/healthz', 'X-No-Colon\r\n'),
    expect: BAD,
    platform: { nginx: { expect: ok('/healthz'), reason: NGINX_PARSER_LENIENT }, ...edgeFront },
  },
  {
    name: 'line ends without CR',
    send: raw('GET /healthz HTTP/1.1\nHost: {H}\n\n'),
    expect: BAD,
    platform: { nginx: { expect: ok('/healthz'), reason: NGINX_PARSER_LENIENT }, edge: { expect: ok('/healthz'), reason: EDGE_FRONT } },
  },
  { name: 'obsolete line folding', send: get(PROFILE, 'X-Test: a\r\n folded\r\n'), expect: BAD, platform: edgeFront },
  { name: 'oversized header', send: get(PROFILE, `X-Big: ${'a'.repeat(40 * 1024)}\r\n`), expect: TOO_LARGE, platform: edgeFront },
  { name: 'too many headers in total', send: get(PROFILE, headers(400, 100)), expect: TOO_LARGE, platform: edgeFront },
  { name: '1,000 small headers (well under 16 KiB)', send: get('/healthz', headers(1000, 1)), expect: ok('/healthz') },
  // Every header line counts, however many come first (on Node 20, node's own count dropped those after about the thousandth).
  { name: 'If-None-Match after 1,200 small headers', send: get('/healthz', `${headers(1200, 1)}If-None-Match: *\r\n`), expect: NOT_MODIFIED },
  { name: 'a second Host after 1,200 small headers', send: get('/healthz', `${headers(1200, 1)}Host: evil.example\r\n`), expect: BAD, platform: edgeFront },
  // 16 KiB as sent, less the spaces around values (the parser drops them): node's parser counts only names and values.
  { name: '5,000 header lines of "a:" (20 KB in all)', send: get('/healthz', 'a:\r\n'.repeat(5000)), expect: TOO_LARGE, platform: edgeFront },
  { name: '1,500 small headers (16.9 KB, 15.4 KB without the space after each colon)', send: get('/healthz', headers(1500, 1)), expect: ok('/healthz') },
  { name: 'an 8 KB path', send: get(`/${'a'.repeat(8192)}`), expect: PAGE },
  { name: 'a request line and headers of 15 KB', send: get(`/${'a'.repeat(7000)}`, headers(70, 100)), expect: PAGE },

  // Bodies and expectations.
  { name: 'a GET with a body is answered, the body ignored', send: (h) => `${get(PROFILE, 'Content-Length: 5\r\n')(h)}hello`, expect: ok(PROFILE) },
  {
    name: 'a GET whose chunked body turns out malformed after its answer',
    send: get('/healthz', 'Transfer-Encoding: chunked\r\n'),
    then: 'zz\r\n',
    expect: { ...ok('/healthz'), closes: true },
    platform: { edge: { expect: 'own', reason: EDGE_FRONT } },
  },
  {
    name: 'a GET for an unknown page with a malformed chunked body',
    send: (h) => `${get('/no-such-page', 'Transfer-Encoding: chunked\r\n')(h)}zz\r\n`,
    expect: { ...PAGE, closes: true },
    platform: { nginx: { expect: BAD, reason: NGINX_READS_BODY }, ...edgeFront },
  },
  {
    name: 'Expect: 100-continue pipelined behind another request',
    send: (h) => `${get('/healthz')(h)}${get(CSV, 'Expect: 100-continue\r\n')(h)}`,
    expect: { ...ok('/healthz'), answers: 2 },
  },
  { name: 'HEAD on an unknown API path: 404 without a body', send: req('HEAD', '/api/nope'), heads: [true], expect: missing('not_found') },
  { name: 'HEAD on a route', send: req('HEAD', PROFILE), heads: [true], expect: { status: 200, closes: false } },
  { name: 'Expect: 100-continue', send: get(PROFILE, 'Expect: 100-continue\r\n'), expect: ok(PROFILE) },
  { name: 'unknown expectation', send: get(PROFILE, 'Expect: teapot\r\n'), expect: ok(PROFILE), platform: edgeFront },
  { name: 'garbage If-None-Match', send: get(PROFILE, 'If-None-Match: garbage, , ,W/\r\n'), expect: ok(PROFILE) },
  { name: 'garbage If-Modified-Since', send: get(PROFILE, 'If-Modified-Since: yesterday\r\n'), expect: ok(PROFILE) },
  { name: 'garbage Accept-Encoding', send: get(PROFILE, 'Accept-Encoding: ;;;, gzip;q=abc, br;q=2, ,\r\n'), expect: ok(PROFILE) },
  { name: 'a Range request gets the whole representation', send: get(PROFILE, 'Range: bytes=0-9\r\n'), expect: ok(PROFILE) },
  { name: 'If-Range with a stale validator', send: get(PROFILE, 'Range: bytes=0-9\r\nIf-Range: "stale"\r\n'), expect: ok(PROFILE) },

  // Smuggling shapes: one answer, connection closed (the trailing request is never answered).
  {
    name: 'two different Content-Lengths',
    send: raw(`POST ${PROFILE} HTTP/1.1\r\nHost: {H}\r\nContent-Length: 0\r\nContent-Length: 44\r\n\r\nGET /api/markets HTTP/1.1\r\nHost: {H}\r\n\r\n`),
    expect: BAD,
    platform: edgeFront,
  },
  {
    name: 'two equal Content-Lengths',
    send: raw(`GET /healthz HTTP/1.1\r\nHost: {H}\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx`),
    expect: BAD,
    platform: edgeFront,
  },
  { name: 'a signed Content-Length', send: raw(`GET /healthz HTTP/1.1\r\nHost: {H}\r\nContent-Length: +1\r\n\r\nx`), expect: BAD, platform: edgeFront },
  {
    name: 'Transfer-Encoding and Content-Length',
    send: raw(
      `POST ${PROFILE} HTTP/1.1\r\nHost: {H}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/markets HTTP/1.1\r\nHost: {H}\r\n\r\n`,
    ),
    expect: BAD,
    platform: edgeFront,
  },
  {
    name: 'unknown Transfer-Encoding',
    send: raw(`POST ${PROFILE} HTTP/1.1\r\nHost: {H}\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\nGET /api/markets HTTP/1.1\r\nHost: {H}\r\n\r\n`),
    expect: BAD,
    platform: edgeFront,
  },
  {
    name: 'Transfer-Encoding not ending in chunked',
    send: raw(`GET ${PROFILE} HTTP/1.1\r\nHost: {H}\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\nGET /api/markets HTTP/1.1\r\nHost: {H}\r\n\r\n`),
    expect: BAD,
    platform: edgeFront,
  },
  {
    name: 'malformed chunk size',
    send: raw(`POST ${PROFILE} HTTP/1.1\r\nHost: {H}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n`),
    expect: CLOSED_405,
    platform: { nginx: { expect: BAD, reason: NGINX_READS_BODY }, ...edgeFront },
  },
  { name: 'a tab between method and target', send: raw('GET\t/healthz HTTP/1.1\r\nHost: {H}\r\n\r\n'), expect: BAD, platform: edgeFront },
  { name: 'a space after the version', send: raw('GET /healthz HTTP/1.1 \r\nHost: {H}\r\n\r\n'), expect: BAD, platform: edgeFront },

  // Keep-alive: pipelined requests are answered in order; a HEAD's answer carries no body.
  {
    name: 'pipelined GET, HEAD and GET on one connection',
    send: (h) => `${get(CSV)(h)}${req('HEAD', PROFILE)(h)}${get(PROFILE)(h)}`,
    heads: [false, true, false],
    expect: { ...ok(CSV), answers: 3 },
  },
  {
    name: 'an error does not break the connection for the next request',
    send: (h) => `${get('/api/nope')(h)}${get(PROFILE)(h)}`,
    expect: { ...missing('not_found'), answers: 2 },
  },
  {
    name: 'requests pipelined behind an Upgrade request are answered',
    send: (h) => `${get('/healthz', 'Connection: Upgrade\r\nUpgrade: websocket\r\n')(h)}${get('/api/nope')(h)}${get(PROFILE)(h)}`,
    expect: { ...ok('/healthz'), answers: 3 },
  },
  {
    // The embedded server once crashed here: the Upgrade request's answer took the socket while the first was going out.
    name: 'an Upgrade request pipelined behind a large answer, and a request behind it',
    send: (h) => `${get('/api/markets/csv')(h)}${get('/api/nope', 'Connection: Upgrade\r\nUpgrade: websocket\r\n')(h)}${get('/healthz')(h)}`,
    expect: { ...ok('/api/markets/csv'), answers: 3 },
  },
  {
    name: 'WebSocket upgrade request is answered as a plain GET',
    send: get(PROFILE, 'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'),
    expect: ok(PROFILE),
  },
  { name: '100 pipelined requests', send: (h) => get('/healthz')(h).repeat(100), expect: { ...ok('/healthz'), answers: 100 } },
];

export interface Observed {
  responses: RawResponse[];
  /** The engine closed the connection: a request sent after the row's answers got none. */
  closed: boolean;
  /** Bytes that are not a complete answer (a bare body, a truncated answer). */
  stray: Buffer;
}

/** For a platform's own answer: whatever comes first, an answer or a close. */
export const OWN: Answer = { status: 0, closes: false };

/** A hang guard only: a conforming engine answers each row in milliseconds. */
const HANG_GUARD_MS = 10_000;
const PROBE = (h: string): string => `GET /healthz HTTP/1.1\r\nHost: ${h}\r\nConnection: close\r\n\r\n`;

/**
 * Sends a row's bytes, reads its answers, sends `then` once the first is in, then asks `GET /healthz` on the same
 * connection: an answer to it means the engine kept the connection. No timer decides anything but a hang.
 */
export function ask(origin: string, row: Row, expected: Answer = row.expect, probe = true): Promise<Observed> {
  const url = new URL(origin);
  const host = url.host;
  const answers = expected.status === 'none' ? 0 : (expected.answers ?? 1);
  const heads = [...(row.heads ?? []), ...Array.from({ length: answers + 2 }, () => false)];
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    let stage: 'row' | 'then' | 'probe' = 'row';
    let closed = false;
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      socket.destroy();
      const { responses, leftover } = parseResponses(Buffer.concat(chunks), heads, closed);
      const own = responses.slice(0, answers);
      // The probe's answer, when there is one, says the connection stayed open.
      const kept = probe && responses.length > answers;
      resolve({ responses: own, closed: !kept, stray: kept ? Buffer.alloc(0) : leftover });
    };
    const guard = setTimeout(() => (stage === 'probe' ? finish() : reject(new Error(`${row.name}: no answer within ${HANG_GUARD_MS} ms`))), HANG_GUARD_MS);
    const step = (): void => {
      if (closed) {
        finish();
        return;
      }
      const parsed = parseResponses(Buffer.concat(chunks), heads, false).responses.length;
      if (stage === 'row' && parsed >= Math.min(answers, 1) && row.then !== undefined && answers > 0) {
        stage = 'then';
        socket.write(row.then + PROBE(host));
        stage = 'probe';
        return;
      }
      if (stage === 'row' && parsed >= answers && answers > 0) {
        if (!probe) {
          finish();
          return;
        }
        stage = 'probe';
        socket.write(PROBE(host));
        return;
      }
      if (stage === 'probe' && parsed > answers) finish();
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      step();
    });
    const onClose = (): void => {
      closed = true;
      finish();
    };
    socket.on('end', onClose);
    socket.on('close', onClose);
    socket.on('error', onClose);
    socket.on('connect', () => socket.write(row.send(host)));
  });
}
