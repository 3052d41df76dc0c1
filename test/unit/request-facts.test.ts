// The headers the embedded server reads from a request's raw header list: which names count in any case, how repeated lines join, and the bytes the size limit counts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFacts, type RequestFacts } from '../../src/runtimes/server/request-facts.ts';

const NONE: RequestFacts = {
  acceptEncoding: undefined,
  ifNoneMatch: undefined,
  ifModifiedSince: undefined,
  imsInvalid: false,
  hosts: 0,
  host: undefined,
  transferEncoding: undefined,
  framed: false,
  headerBytes: 0,
  repeated: undefined,
};

/** The facts of a raw list: `NONE` with the fields given, and the bytes every line counts (name, colon, value, CRLF). */
const factsOf = (raw: string[], fields: Partial<RequestFacts>): RequestFacts => {
  let headerBytes = 0;
  for (let i = 0; i < raw.length; i += 2) headerBytes += `${raw[i] ?? ''}:${raw[i + 1] ?? ''}\r\n`.length;
  return { ...NONE, headerBytes, ...fields };
};

test('no header lines: nothing read, nothing framed, no bytes', () => {
  assert.deepEqual(readFacts([]), NONE);
});

test('each header is read in its usual spelling, in lower case and in any other case', () => {
  const lines: [string, string, Partial<RequestFacts>][] = [
    ['Host', 'a.example', { hosts: 1, host: 'a.example' }],
    ['Accept-Encoding', 'gzip', { acceptEncoding: 'gzip' }],
    ['If-None-Match', '"x"', { ifNoneMatch: '"x"' }],
    ['If-Modified-Since', 'Tue, 01 Sep 2026 00:00:00 GMT', { ifModifiedSince: 'Tue, 01 Sep 2026 00:00:00 GMT' }],
    ['Transfer-Encoding', 'chunked', { transferEncoding: 'chunked', framed: true }],
    ['Content-Length', '12', { framed: true }],
  ];
  for (const [name, value, fields] of lines) {
    for (const spelling of [name, name.toLowerCase(), name.toUpperCase(), name.replace(/^./, (c) => c.toLowerCase())]) {
      const raw = [spelling, value];
      assert.deepEqual(readFacts(raw), factsOf(raw, fields), spelling);
    }
  }
});

test('a name of the same length that is not one of them is counted in the bytes and read as nothing', () => {
  // Each has the length of a header the server reads (4, 13, 14, 15 and 17 bytes), one letter off.
  const raw = ['Hosx', 'a', 'If-None-Matcx', '"x"', 'Content-Lengtx', '5', 'Accept-Encodinx', 'br', 'If-Modified-Sincx', 'y', 'Transfer-Encodinx', 'chunked'];
  assert.deepEqual(readFacts(raw), factsOf(raw, {}));
  const others = ['Accept', 'gzip', 'X-Forwarded-Host', 'b', 'Content-Type', 'text/csv'];
  assert.deepEqual(readFacts(others), factsOf(others, {}));
});

test('repeated lines: Host counted with its first value kept; the lists joined with a comma; a second If-Modified-Since makes it invalid', () => {
  const raw = [
    'Host',
    'first.example',
    'Accept-Encoding',
    'gzip',
    'If-None-Match',
    '"a"',
    'host',
    'second.example',
    'accept-encoding',
    'br',
    'if-none-match',
    '"b"',
    'Transfer-Encoding',
    'gzip',
    'transfer-encoding',
    'chunked',
    'If-Modified-Since',
    'Tue, 01 Sep 2026 00:00:00 GMT',
    'If-Modified-Since',
    'Wed, 02 Sep 2026 00:00:00 GMT',
  ];
  assert.deepEqual(
    readFacts(raw),
    factsOf(raw, {
      hosts: 2,
      host: 'first.example',
      acceptEncoding: 'gzip, br',
      ifNoneMatch: '"a", "b"',
      transferEncoding: 'gzip, chunked',
      framed: true,
      ifModifiedSince: 'Wed, 02 Sep 2026 00:00:00 GMT',
      imsInvalid: true,
      repeated: 'if-none-match',
    }),
  );
  const once = ['If-Modified-Since', 'Tue, 01 Sep 2026 00:00:00 GMT'];
  assert.equal(readFacts(once).imsInvalid, false, 'one If-Modified-Since is valid');
});

test('a field nginx takes once, sent twice in any spelling, is named; one line of each, or repeated lists, are not', () => {
  const once = [
    'If-Modified-Since',
    'If-Unmodified-Since',
    'If-Match',
    'If-None-Match',
    'If-Range',
    'Expect',
    'Authorization',
    'Content-Range',
    'Transfer-Encoding',
  ];
  for (const name of once) {
    assert.equal(readFacts([name, 'a', name.toUpperCase(), 'b']).repeated, name.toLowerCase(), name);
    assert.equal(readFacts(['Host', 'h', name, 'a']).repeated, undefined, `${name} once`);
  }
  assert.equal(readFacts(once.flatMap((name) => [name, 'a'])).repeated, undefined, 'each once');
  const lists = ['Accept-Encoding', 'gzip', 'accept-encoding', 'br', 'Cache-Control', 'a', 'Cache-Control', 'b', 'If-None-Matcx', 'a', 'If-None-Matcx', 'b'];
  assert.equal(readFacts(lists).repeated, undefined, 'list fields and other names');
});

test('a body is announced by Transfer-Encoding or a Content-Length other than 0', () => {
  assert.equal(readFacts(['Content-Length', '0']).framed, false, 'Content-Length: 0');
  assert.equal(readFacts(['Content-Length', '1']).framed, true, 'Content-Length: 1');
  assert.equal(readFacts(['Content-Length', '0', 'Transfer-Encoding', 'chunked']).framed, true, 'both');
  assert.equal(readFacts(['Transfer-Encoding', 'chunked', 'Content-Length', '0']).framed, true, 'both, the other order');
  assert.equal(readFacts(['Host', 'a', 'Accept', '*/*']).framed, false, 'neither');
});

test('the bytes: each line as name, colon, value and CRLF, every line counted, known or not', () => {
  assert.equal(readFacts(['Host', 'localhost:3000']).headerBytes, 'Host:localhost:3000\r\n'.length);
  assert.equal(readFacts(['X', '']).headerBytes, 'X:\r\n'.length, 'an empty value still has its colon and CRLF');
  const raw = ['Host', 'localhost:3000', 'X-Long', 'v'.repeat(1000), 'Accept-Encoding', 'gzip'];
  assert.equal(readFacts(raw).headerBytes, 21 + 1009 + 22);
});
