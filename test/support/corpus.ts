// The seeded malformed corpus across engines: how one engine's answer to a request is read (final status, an interim 100, whether the connection stays open, who answered), and the rows every difference from the embedded server must be one of, each with its platform reason; docs/serving.md and docs/deploy.md show the rows as tables made here.
import { connect } from 'node:net';
import type { Malformed } from './fuzz.ts';

/** The engines the embedded server is compared with. */
export type OtherEngine = 'nginx' | 'edge';

/** One engine's answer to a corpus request. */
export interface CorpusAnswer {
  /** The final answer's status; `none`: closed without one; `bare`: bytes without a status line. */
  status: number | 'none' | 'bare';
  /** An interim `1xx` came before the final answer. */
  interim: boolean;
  /** The connection stayed open after the answer: a request pipelined behind it was answered too (undefined: no answer). */
  kept: boolean | undefined;
  /** The final answer was the platform's own, not the service's (it lacks the X-Content-Type-Options every answer of the service has). */
  own: boolean;
}

/** A hang guard only: every engine answers or closes once the client has half-closed. */
const HANG_GUARD_MS = 10_000;
const PROBE = (host: string): string => `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

/** The bytes an engine sends back when the client sends `bytes` and half-closes: nothing but the engine decides when it ends. */
function exchangeAlone(origin: string, bytes: Buffer, label: string): Promise<Buffer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(guard);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const guard = setTimeout(() => {
      done = true;
      socket.destroy();
      reject(new Error(`no answer or close within ${HANG_GUARD_MS} ms to ${label}`));
    }, HANG_GUARD_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', finish);
    socket.on('connect', () => socket.end(bytes));
  });
}

/** The status lines and heads in what an engine sent: each answer's status and head (bodies skipped by Content-Length). */
function heads(buf: Buffer): { status: number; head: string }[] {
  const out: { status: number; head: string }[] = [];
  let at = 0;
  while (at < buf.length) {
    const end = buf.indexOf('\r\n\r\n', at);
    if (end === -1) break;
    const head = buf.subarray(at, end).toString('latin1');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
    if (status === null) break;
    out.push({ status: Number(status[1]), head });
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    at = end + 4 + (Number(status[1]) < 200 || Number(status[1]) === 204 || Number(status[1]) === 304 ? 0 : length);
  }
  return out;
}

/**
 * A corpus request's answer from one engine, in two exchanges, each on a connection of its own that the client
 * half-closes, so an engine waiting for more sees the end at once and decides: no timer decides an outcome. The
 * first sends the request alone (its final status, an interim 100, who answered); the second sends the same bytes with
 * `GET /healthz` behind them: a second answer means the engine kept the connection open.
 */
export async function askCorpus(origin: string, m: Malformed, host: string): Promise<CorpusAnswer> {
  const first = await exchangeAlone(origin, m.bytes, m.label);
  const answers = heads(first);
  const final = answers.find((a) => a.status >= 200);
  const interim = answers.some((a) => a.status < 200);
  if (final === undefined) return { status: first.length === 0 || answers.length > 0 ? 'none' : 'bare', interim, kept: undefined, own: true };
  const own = !/\r\nx-content-type-options:/i.test(final.head);
  const second = heads(await exchangeAlone(origin, Buffer.concat([m.bytes, Buffer.from(PROBE(host))]), m.label)).filter((a) => a.status >= 200);
  return { status: final.status, interim, kept: second.length > 1, own };
}

/** What an engine may answer within a row: statuses and `none`, or any. */
export type Outcomes = readonly (number | 'none')[] | 'any';

export interface CorpusDifference {
  name: string;
  engine: OtherEngine;
  /**
   * What differs: the final status; only an interim 100 before the same final answer; or only whether the connection
   * stays open after the same answer (`kept`: the engine keeps it where the embedded server closes, or the reverse).
   */
  differs: 'status' | 'interim' | { kept: boolean };
  /** The requests it covers, by the mutations that made them (fuzz.ts, malformedCorpus). */
  when: (mutations: readonly string[]) => boolean;
  /** The engine's answers it covers, and the embedded server's. */
  theirs: Outcomes;
  embedded: Outcomes;
  /** The engine's answer is the platform's own (no header of the service's: true), or the service's code's (false). */
  own?: boolean;
  /** What the row covers, in words, for the docs' tables. */
  shape: string;
  reason: string;
}

const has = (mutations: readonly string[], ...prefixes: string[]): boolean => mutations.some((m) => prefixes.some((p) => m.startsWith(p)));
/** Header lines nginx's parser takes and node's refuses (header-syntax mutations, by their first characters). */
const LENIENT_LINES = ['header-syntax:"X-Ctl', 'header-syntax:"X-Del', 'header-syntax:"X-No-Col', 'header-syntax:"X-\u00e9', 'eol:"\\n"'];
/** Methods node's parser does not know, which the embedded server answers from the request line alone. */
const UNKNOWN_METHODS = ['method:PRI', 'method:FROB', 'method:AAAA'];
const NGINX_PARSER_LENIENT =
  "nginx's request parser accepts this (RFC 9112 lets a recipient be lenient here) before any configuration runs, and no variable shows it to the configuration";
/** The local runtime (Cloudflare's edge in production has its own front end, which the docs say). */
const WORKERD = 'workerd parses the request before the Worker runs';

export const CORPUS_DIFFERENCES: readonly CorpusDifference[] = [
  // nginx
  {
    name: 'a header line only nginx accepts',
    engine: 'nginx',
    differs: 'status',
    when: (m) => has(m, ...LENIENT_LINES),
    theirs: 'any',
    embedded: [400],
    shape: 'LF-only line ends, a control byte or DEL in a value, a line without a colon, a name with a byte above 0x7f',
    reason: `${NGINX_PARSER_LENIENT} (a name it cannot read is dropped, ignore_invalid_headers); node's parser refuses them (400), and nothing in node's public API reads the request without it`,
  },
  {
    name: 'a chunked body that arrives with its headers',
    engine: 'nginx',
    differs: 'status',
    when: (m) => has(m, 'chunked-body:malformed', 'chunked-body:extension', 'chunked-body:chunk'),
    theirs: [400],
    embedded: 'any',
    shape: 'a chunked body, malformed or not, sent with its headers',
    reason:
      "nginx reads what has arrived of the body before it answers (to discard it) and refuses a malformed one, or an HTTP/1.0 request's, with 400; node's parser hands the request over once its headers are in, the embedded server answers, and a body that turns out malformed then closes the connection without a second answer",
  },
  {
    name: 'an unknown method with another fault in its headers',
    engine: 'nginx',
    differs: 'status',
    when: (m) => has(m, ...UNKNOWN_METHODS) && m.length > 1,
    theirs: [400, 431],
    embedded: [405, 'none'],
    shape: 'a method node does not know (FROB, PRI, 33 letters) with another fault in the headers',
    reason:
      "node's parser stops at a method it does not know, so the embedded server answers from the request line alone (405, closed); nginx's parser knows no methods, reads the headers and refuses their fault first (a bad Host or Content-Length, 400; too large, 431). `PRI` with nothing after its line is the start of the HTTP/2 preface to node's parser, which waits for the rest: no answer at the client's close",
  },
  {
    name: 'a header section just over 16 KiB',
    engine: 'nginx',
    differs: 'status',
    when: (m) => m.includes('header-size:15000'),
    theirs: 'any',
    embedded: [431],
    shape: 'a header section of 16 to 17 KiB',
    reason:
      'the embedded server counts 16 KiB for the request line and headers in all; nginx reads them into a 1 KB buffer, then one of 16 KB (large_client_header_buffers 1 16k), so a head of up to about 17 KB fits it as long as no line is over 16 KB',
  },
  {
    name: 'a request the client ends before its blank line',
    engine: 'nginx',
    differs: 'status',
    when: (m) => has(m, 'cut:'),
    theirs: [400, 431, 'none'],
    embedded: [400, 405, 431, 'none'],
    shape: "a request cut short by the client's FIN",
    reason:
      "each engine refuses the fault it has met when the client's FIN comes, and closes without an answer when it has met none (both do): nginx checks the request line, then each header line as it arrives (Host, repeated fields); node's parser checks the bytes as they come (a raw byte above 0x7f, a malformed Content-Length, an unknown method) and the rest only once the header section is whole",
  },
  {
    name: 'two faults, one of them the size of the headers',
    engine: 'nginx',
    differs: 'status',
    when: (m) => has(m, 'headers:', 'header-size:') && m.length > 1,
    theirs: [400, 431],
    embedded: [400, 431, 405],
    shape: 'oversized headers with another fault',
    reason:
      "each engine names the fault it meets first: nginx checks Host, repeated fields and Content-Length as each line arrives and the size when its 16 KB buffer is full; node's parser refuses bad framing and request-line bytes as it reads, and the embedded server counts the size once the header section is in, before any other check",
  },
  {
    name: 'an interim 100 Continue from nginx',
    engine: 'nginx',
    differs: 'interim',
    when: (m) => has(m, 'expect:100-continue', 'expect:100-Continue') && !has(m, 'expect:100-continue,'),
    theirs: 'any',
    embedded: 'any',
    shape: '`Expect: 100-continue`, a body declared or not',
    reason:
      'nginx sends an interim 100 Continue before it reads (or discards) the body of an HTTP/1.1 request that asks for one, even when the request declares no body; the embedded server sends the final answer at once without it (RFC 9110 10.1.1 allows either: a client does not wait for the 100 once the final answer is in, and the final answers are the same)',
  },
  {
    name: 'bytes that are no request behind a complete one',
    engine: 'nginx',
    differs: { kept: true },
    when: (m) => has(m, 'content-length:'),
    theirs: 'any',
    embedded: 'any',
    shape: 'a body longer than its Content-Length, or shorter, so that what follows is not a request',
    reason:
      "nginx answers the bytes after the body as the next request (400) and then the request behind them; node's parser refuses those bytes while the first answer is still going out, and the embedded server sends no answer to a request refused then (it cannot tell how far the client has read), closing once the first answer is written: the client sends what it still needs on a new connection (RFC 9112 9.3.2)",
  },
  {
    name: 'Connection: close and Connection: keep-alive on two lines',
    engine: 'nginx',
    differs: { kept: true },
    when: (m) => has(m, 'dup:connection'),
    theirs: 'any',
    embedded: 'any',
    shape: '`Connection: close` and `Connection: keep-alive` on two lines',
    reason:
      'nginx reads each Connection line on its own and the last one decides; node takes the lines as one list (RFC 9110 7.6.1), and `close` anywhere in it closes the connection after the answer',
  },
  // The edge (the Worker on workerd, through Miniflare)
  {
    name: 'a target workerd cannot make a URL of',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'target:http', 'target:*', 'target:healthz', 'target:\\', 'target:%2F', 'method:CONNECT'),
    theirs: [500],
    embedded: 'any',
    own: true,
    shape: 'an absolute-form or asterisk-form target, a target that is no path (`healthz`, `\\healthz`, `%2Fhealthz`), CONNECT',
    reason: `${WORKERD}: it makes a URL of the target and the Host, and answers its own 500 ("Internal Server Error") for a target that is no path, and for CONNECT ("Incoming CONNECT on a worker not supported")`,
  },
  {
    name: 'a Host workerd cannot make a URL of',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'host:', 'dup:host'),
    theirs: [500],
    embedded: 'any',
    own: true,
    shape:
      'a Host with a space, "/", "@", a comma, a port that is no number, a trailing dot after the port, UTF-8 or DEL, an `xn--` label that is no punycode, or two Host lines',
    reason: `${WORKERD}: the Host is the URL's host, and one the URL parser refuses is its own 500; the embedded server and nginx answer 400 for a Host that is not a host and port (one \`xn--a.example\` is, to them: 200), and for two`,
  },
  {
    name: 'a Content-Length or Transfer-Encoding workerd cannot read',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'content-length:', 'dup:content-length', 'transfer-encoding:', 'dup:transfer-encoding'),
    theirs: [500],
    embedded: 'any',
    own: true,
    shape: 'a signed, hexadecimal, empty-looking, repeated or listed Content-Length; a Transfer-Encoding other than `chunked` alone',
    reason: `${WORKERD}: kj's HTTP parser throws on a Content-Length it cannot read and on a coding it does not know, and workerd answers its own 500; the embedded server and nginx refuse the framing with 400`,
  },
  {
    name: 'a header line that begins with a space',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'header-syntax:" X-Lead'),
    theirs: [500],
    embedded: 'any',
    own: true,
    shape: 'a header line that begins with a space (a folded line)',
    reason: `${WORKERD}: it folds the line into the one before (the Host, when it follows it), and a Host it then cannot make a URL of is its own 500; node's parser refuses the fold with 400`,
  },
  {
    name: 'a method workerd does not know',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'method:'),
    theirs: [501],
    embedded: 'any',
    own: true,
    shape: 'a method it does not know: lower case, a digit or a space in it, 12 or 33 letters, `PRI`, `FROB`, `GET/`, none',
    reason: `${WORKERD}: it knows a fixed list of methods and answers any other with its own 501 ("ERROR: Unrecognized request method."); the embedded server answers 405 (an unknown method) or 400 (no method token)`,
  },
  {
    name: 'CR CR LF line ends',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'eol:"\\r\\r\\n"'),
    theirs: ['none'],
    embedded: 'any',
    own: true,
    shape: 'header lines ended by CR CR LF',
    reason: `${WORKERD}: it waits for a line end it can read and closes without an answer at the client's FIN; node's parser refuses the stray CR (400)`,
  },
  {
    name: 'a request line or header line workerd passes on',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'eol:"\\n"', 'header-syntax:', 'method:GET\t', 'request-line-spacing', 'version:', 'expect:', 'te:', 'value:'),
    theirs: [200, 204, 304, 400, 404, 405],
    embedded: 'any',
    own: false,
    shape:
      'LF-only line ends, a control byte, DEL or UTF-8 in a header, a space before a colon, a folded line, a tab after the method, two spaces in the request line, a version other than HTTP/1.0 and 1.1 (HTTP/1.2, 2.0, 0.9, `http/1.1`, `HTTPS/1.1`, none), odd `Expect`, `TE` and condition values',
    reason: `${WORKERD}: it accepts these, reads any version as HTTP/1.1, and hands the Worker a request it rules on as the embedded server does (the route, a 404, a 400 of the path rules); node's parser refuses them first (400), or answers no HTTP/0.9 line`,
  },
  {
    name: 'repeated fields workerd joins',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'dup:'),
    theirs: [200, 204, 304, 400, 404, 405],
    embedded: 'any',
    own: false,
    shape: 'a field sent twice that nginx takes once (`If-None-Match`, `If-Match`, `If-Range`, `Expect`, `Content-Range`, `Authorization`, …)',
    reason: `${WORKERD}: it joins repeated lines into one before the Worker sees them (the Worker cannot tell two lines from one with a comma); the embedded server refuses them with 400, as nginx does`,
  },
  {
    name: 'headers over 16 KiB',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'headers:', 'header-size:'),
    theirs: [200, 204, 304, 400, 404, 405, 431],
    embedded: 'any',
    shape: 'a header section over 16 KiB',
    reason: `${WORKERD}: its limit for the header section is larger than the embedded server's 16 KiB (past it, its own 431); the Worker never sees the size`,
  },
  {
    name: 'a target the URL parser resolves or encodes',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'path:', 'path-byte:', 'target:/', 'target://'),
    theirs: [200, 204, 304, 400, 404, 405],
    embedded: 'any',
    own: false,
    shape: 'dot segments, backslashes, a fragment, a tab or a byte above 0x7f in the target',
    reason: `${WORKERD}: it parses the target as a URL before the Worker sees it: dot segments are resolved, "\\" becomes "/", a fragment is dropped and raw bytes are percent-encoded, so the Worker rules on another path (often the route it resolves to); the embedded server refuses the target as sent (400), or answers the fragment's path (404)`,
  },
  {
    name: 'a Content-Length workerd reads past',
    engine: 'edge',
    differs: 'status',
    when: (m) => m.includes('content-length:99999999999999999999') || m.includes('content-length:'),
    theirs: [200, 404],
    embedded: [400],
    own: false,
    shape: 'a Content-Length of 10^20, or an empty one',
    reason: `${WORKERD}: it takes these as no body (a GET's body is not read) and the Worker answers the route; the embedded server refuses the framing with 400`,
  },
  {
    name: 'a request the client ends before its blank line, at workerd',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'cut:'),
    theirs: ['none'],
    embedded: 'any',
    own: true,
    shape: "a request cut short by the client's FIN",
    reason: `${WORKERD}: it reads the whole header section before it checks any of it, and at the client's FIN closes without an answer; node's parser refuses what it has met by then (400, 405, 431), and closes without an answer only when it has met nothing wrong`,
  },
  {
    name: 'a request line without a version, at workerd',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'version:""'),
    theirs: [400],
    embedded: ['none'],
    own: true,
    shape: 'a request line without a version (HTTP/0.9)',
    reason: `${WORKERD}: it answers its own 400 ("Bad Request"); HTTP/0.9 has no status line, so the embedded server and nginx close without an answer`,
  },
  {
    name: 'no Host in HTTP/1.0, at workerd',
    engine: 'edge',
    differs: 'status',
    when: (m) => has(m, 'no-host'),
    theirs: [400],
    embedded: [200],
    own: true,
    shape: 'an HTTP/1.0 request without Host',
    reason: `${WORKERD}: it needs a Host to make the request's URL, in HTTP/1.0 too, and answers its own 400; the embedded server and nginx serve an HTTP/1.0 request without one`,
  },
  {
    name: 'a Transfer-Encoding workerd reads as chunked',
    engine: 'edge',
    differs: 'status',
    when: (m) =>
      m.includes('transfer-encoding:chunked, chunked') || m.includes('transfer-encoding:') || (has(m, 'transfer-encoding:') && has(m, 'content-length:')),
    theirs: [200, 204, 304, 404, 405],
    embedded: [400],
    own: false,
    shape: '`Transfer-Encoding: chunked, chunked`, an empty one, or one beside a Content-Length, with a chunked body',
    reason: `${WORKERD}: it takes these as chunked framing (or none), a Content-Length beside it ignored, and the Worker answers the request; the embedded server refuses a Transfer-Encoding other than \`chunked\` alone, or one with a Content-Length, with 400, as nginx does`,
  },
  {
    name: 'the Worker cannot close its connection',
    engine: 'edge',
    differs: { kept: true },
    when: () => true,
    theirs: 'any',
    embedded: 'any',
    shape: 'any request after whose answer the embedded server closes (a 400, `Connection: close`, HTTP/1.0)',
    reason: `a Worker has no way to close the connection it answers on, and workerd keeps it open after a 400 (its own or the Worker's) and after \`Connection: close\` until the client closes it (Cloudflare's edge decides for itself in production)`,
  },
  {
    name: 'workerd closes after a chunked body',
    engine: 'edge',
    differs: { kept: false },
    when: (m) => has(m, 'chunked-body:', 'transfer-encoding:'),
    theirs: 'any',
    embedded: 'any',
    shape: 'a chunked body, or a Transfer-Encoding, on a GET',
    reason: `${WORKERD}: it does not read a GET's chunked body for the Worker and closes the connection after the answer rather than parse what follows; the embedded server reads the body and keeps the connection`,
  },
];

/** The rows of one engine, as a Markdown table for the docs (docs/serving.md: nginx; docs/deploy.md: the edge); a test holds the docs to it. */
export function corpusTable(engine: OtherEngine): string {
  const words = (o: Outcomes): string => (o === 'any' ? 'any' : o.map((x) => (x === 'none' ? 'no answer' : String(x))).join(', '));
  const answers = (d: CorpusDifference): [string, string] =>
    d.differs === 'status'
      ? [`${words(d.theirs)}${d.own === true ? ', its own' : ''}`, words(d.embedded)]
      : d.differs === 'interim'
        ? ['an interim `100 Continue`, then the same answer', 'the same answer']
        : d.differs.kept
          ? ['the same answer; the connection stays open', 'the same answer; closed']
          : ['the same answer; closed', 'the same answer; the connection stays open'];
  return [
    `| shape | ${engine === 'nginx' ? 'nginx' : 'edge (workerd)'} | embedded | why |`,
    '|---|---|---|---|',
    ...CORPUS_DIFFERENCES.filter((d) => d.engine === engine).map((d) => `| ${d.shape} | ${answers(d).join(' | ')} | ${d.reason} |`),
  ].join('\n');
}
