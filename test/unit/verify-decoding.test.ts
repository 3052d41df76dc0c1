// What `verify` reads out of compressed bytes, the download's zip and the gzip and br answers: the bytes when they are sound, a clear fault when they are not, and never more than they claim.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { brotliCompressSync, constants, deflateRawSync, gzipSync } from 'node:zlib';
import { decoded } from '../../src/commands/verify/expect.ts';
import type { Fetched } from '../../src/commands/verify/http.ts';
import { ZipReadError, unzip, zipEntries } from '../../src/commands/verify/unzip.ts';
import { zipArchive } from '../../src/render/zip.ts';

const JSON_BODY = Buffer.from(`${JSON.stringify({ markets: Array.from({ length: 40 }, (_, i) => ({ id: `m-${i}` })) })}\n`);
const CSV_BODY = Buffer.from('a,b\r\n');
/** Two entries: a.json deflated (it shrinks), b.csv stored (it does not). */
const ZIP = zipArchive(
  [
    { name: 'b.csv', body: CSV_BODY },
    { name: 'a.json', body: JSON_BODY },
  ],
  '2026-11-24',
);

/** Offsets of the archive's records, read by hand from APPNOTE's layout (not by the reader under test). */
const END = ZIP.length - 22;
const DIRECTORY = ZIP.readUInt32LE(END + 16);
const A_LOCAL = 0;
const A_DATA = 30 + 'a.json'.length;
const A_ENTRY = DIRECTORY;
const B_ENTRY = DIRECTORY + 46 + 'a.json'.length;
const B_LOCAL = ZIP.readUInt32LE(B_ENTRY + 42);

/** The archive with some bytes changed. */
function altered(change: (zip: Buffer) => void, from: Buffer = ZIP): Buffer {
  const copy = Buffer.from(from);
  change(copy);
  return copy;
}

/** The ZipReadError's message from `read`, failing if it reads or throws anything else. */
function refused(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof ZipReadError, `a ZipReadError, not ${String(error)}`);
    return error.message;
  }
  return assert.fail('the archive was read');
}

/** The ZipReadError's message for this archive, read whole. */
const refusal = (zip: Buffer): string => refused(() => unzip(zip));

describe("verify's zip reader", () => {
  test("reads the writer's archive: each entry, stored or deflated, to its bytes", () => {
    assert.equal(ZIP.readUInt16LE(A_ENTRY + 10), 8, 'premise: a.json is deflated');
    assert.equal(ZIP.readUInt16LE(B_ENTRY + 10), 0, 'premise: b.csv is stored');
    assert.deepEqual(
      unzip(ZIP),
      new Map([
        ['a.json', JSON_BODY],
        ['b.csv', CSV_BODY],
      ]),
    );
    assert.deepEqual(unzip(zipArchive([], '2026-11-24')), new Map(), 'an empty archive holds nothing');
  });

  test('reads an extra field in a local header (Info-ZIP writes one) and a comment after the end record', () => {
    // "UT" with no data, after a.json's name: everything after it moves by 4 bytes.
    const extra = Buffer.concat([ZIP.subarray(0, A_DATA), Buffer.from([0x55, 0x54, 0x00, 0x00]), ZIP.subarray(A_DATA)]);
    extra.writeUInt16LE(4, A_LOCAL + 28);
    extra.writeUInt32LE(B_LOCAL + 4, B_ENTRY + 4 + 42);
    extra.writeUInt32LE(DIRECTORY + 4, END + 4 + 16);
    assert.deepEqual(unzip(extra), unzip(ZIP));
    const commented = Buffer.concat([ZIP, Buffer.from('made by hand')]);
    commented.writeUInt16LE('made by hand'.length, END + 20);
    assert.deepEqual(unzip(commented), unzip(ZIP));
  });

  test('a record that runs past the bytes there are is refused, not read out of range', () => {
    assert.equal(refusal(ZIP.subarray(0, END)), 'no end of central directory record');
    assert.equal(refusal(ZIP.subarray(0, ZIP.length - 1)), 'no end of central directory record');
    assert.equal(
      refusal(altered((z) => z.writeUInt32LE(ZIP.length + 100, END + 16))),
      `the central directory at ${ZIP.length + 100} runs past its end record at ${END}`,
    );
    assert.equal(refusal(ZIP.subarray(END)), `the central directory at ${DIRECTORY} runs past its end record at 0`);
    assert.equal(refusal(altered((z) => z.writeUInt16LE(3, END + 10))), 'central directory entry 3 is malformed');
    assert.equal(refusal(altered((z) => z.writeUInt32LE(0, B_ENTRY))), 'central directory entry 2 is malformed');
    assert.equal(
      refusal(altered((z) => z.writeUInt32LE(END - DIRECTORY + 1, END + 12))),
      `the central directory at ${DIRECTORY} runs past its end record at ${END}`,
    );
    // A directory entry's signature as the four bytes before the end record: its fields would run past the archive.
    const cut = Buffer.concat([ZIP.subarray(0, END), Buffer.from([0x50, 0x4b, 0x01, 0x02]), ZIP.subarray(END)]);
    cut.writeUInt16LE(3, END + 4 + 8);
    cut.writeUInt16LE(3, END + 4 + 10);
    cut.writeUInt32LE(END - DIRECTORY + 4, END + 4 + 12);
    assert.equal(refusal(cut), 'central directory entry 3 is malformed');
    assert.equal(refusal(altered((z) => z.writeUInt16LE(500, B_ENTRY + 30))), 'central directory entry 2 runs past the directory');
    assert.equal(refusal(altered((z) => z.writeUInt16LE(500, B_ENTRY + 32))), 'central directory entry 2 runs past the directory');
    assert.equal(refusal(altered((z) => z.writeUInt32LE(0xfffffff0, A_ENTRY + 42))), `a.json: no local header at ${0xfffffff0}`);
    assert.equal(refusal(altered((z) => z.writeUInt32LE(DIRECTORY, B_ENTRY + 42))), `b.csv: no local header at ${DIRECTORY}`);
    assert.equal(refusal(altered((z) => z.writeUInt32LE(B_LOCAL + 1, B_ENTRY + 42))), `b.csv: no local header at ${B_LOCAL + 1}`);
    // A local header's signature as the archive's last bytes (its comment): the header's fields would run past the archive.
    const commented = Buffer.concat([ZIP, Buffer.from([0x50, 0x4b, 0x03, 0x04])]);
    commented.writeUInt16LE(4, END + 20);
    commented.writeUInt32LE(ZIP.length, B_ENTRY + 42);
    assert.equal(refusal(commented), `b.csv: no local header at ${ZIP.length}`);
    // A local header's signature in the last bytes of the entries' data: one that starts fewer than 30 bytes before the
    // directory has no room for its fields; one exactly 30 bytes before it has (its name is then the directory's bytes).
    const sign = [0x50, 0x4b, 0x03, 0x04];
    const distinct = Array.from({ length: 22 }, (_, i) => 200 + i);
    for (const [tail, back, fault] of [
      [[...distinct, 6, 0, 0, 0, ...sign], 4, /^a\.json: no local header at \d+$/],
      [[...sign, ...distinct, 6, 0, 0, 0], 30, /^a\.json: its local header names "PK/],
    ] as const) {
      const zip = zipArchive(
        [
          { name: 'a.json', body: JSON_BODY },
          { name: 'b.bin', body: Buffer.from(tail) },
        ],
        '2026-11-24',
      );
      const directory = zip.readUInt32LE(zip.length - 22 + 16);
      assert.deepEqual([...zip.subarray(directory - 30, directory)], tail, 'premise: b.bin is stored, last before the directory');
      assert.match(refusal(altered((z) => z.writeUInt32LE(directory - back, directory + 42), zip)), fault);
    }
    const start = B_LOCAL + 30 + 'b.csv'.length;
    assert.equal(
      refusal(altered((z) => z.writeUInt32LE(DIRECTORY - start + 1, B_ENTRY + 20))),
      `b.csv: its ${DIRECTORY - start + 1} bytes at ${start} run past the entries' data`,
    );
  });

  test("an entry is its directory entry's: the same name in the local header, the size and the CRC-32 it says", () => {
    assert.equal(refusal(altered((z) => z.write('x', A_LOCAL + 30))), 'a.json: its local header names "x.json"');
    assert.equal(refusal(altered((z) => z.writeUInt16LE(5, A_LOCAL + 26))), 'a.json: its local header names "a.jso"');
    assert.equal(
      refusal(altered((z) => z.writeUInt32LE(CSV_BODY.length + 1, B_ENTRY + 24))),
      `b.csv: ${CSV_BODY.length} bytes stored, the directory says ${CSV_BODY.length + 1}`,
    );
    assert.equal(
      refusal(altered((z) => z.writeUInt32LE(JSON_BODY.length + 1, A_ENTRY + 24))),
      `a.json: inflates to ${JSON_BODY.length} bytes, the directory says ${JSON_BODY.length + 1}`,
    );
    assert.equal(
      refusal(altered((z) => z.writeUInt32LE(JSON_BODY.length - 1, A_ENTRY + 24))),
      `a.json: inflates to more than the ${JSON_BODY.length - 1} bytes the directory says`,
    );
    const crc = ZIP.readUInt32LE(B_ENTRY + 16);
    assert.equal(
      refusal(altered((z) => z.writeUInt32LE((crc ^ 1) >>> 0, B_ENTRY + 16))),
      `b.csv: CRC-32 ${crc.toString(16).padStart(8, '0')}, the directory says ${((crc ^ 1) >>> 0).toString(16).padStart(8, '0')}`,
    );
    const low = 0xabcd;
    assert.equal(
      refusal(altered((z) => z.writeUInt32LE(low, B_ENTRY + 16))),
      `b.csv: CRC-32 ${crc.toString(16).padStart(8, '0')}, the directory says 0000abcd`,
    );
    assert.equal(refusal(altered((z) => z.writeUInt16LE(12, A_ENTRY + 10))), 'a.json: compression method 12 is neither stored nor deflate');
    assert.match(refusal(altered((z) => z.fill(0xff, A_DATA, A_DATA + 4))), /^a\.json: its deflate data cannot be read \(.+\)$/);
    const twice = zipArchive(
      [
        { name: 'a.json', body: JSON_BODY },
        { name: 'a.json', body: JSON_BODY },
      ],
      '2026-11-24',
    );
    assert.equal(refusal(twice), 'a.json is in the archive twice');
  });

  test('a deflate stream that makes more than its entry says (a zip bomb) is refused by name', () => {
    const huge = Buffer.alloc(8 * 1024 * 1024);
    const bomb = zipArchive([{ name: 'a.json', body: huge }], '2026-11-24');
    assert.ok(bomb.length < 100_000, `premise: ${bomb.length} bytes make 8 MiB`);
    const entry = bomb.readUInt32LE(bomb.length - 22 + 16);
    assert.equal(refusal(altered((z) => z.writeUInt32LE(10, entry + 24), bomb)), 'a.json: inflates to more than the 10 bytes the directory says');
  });

  test('the entries are listed with nothing inflated: a body is read when asked, so a broken one does not hide the others', () => {
    const listed = zipEntries(altered((z) => z.fill(0xff, A_DATA, A_DATA + 4)));
    assert.deepEqual(
      listed.map((entry) => [entry.name, entry.size]),
      [
        ['a.json', JSON_BODY.length],
        ['b.csv', CSV_BODY.length],
      ],
    );
    assert.match(
      refused(() => listed[0]?.read()),
      /^a\.json: its deflate data cannot be read \(.+\)$/,
    );
    assert.deepEqual(listed[1]?.read(), CSV_BODY);
    const crc = ZIP.readUInt32LE(B_ENTRY + 16);
    const wrong = zipEntries(altered((z) => z.writeUInt32LE((crc ^ 1) >>> 0, B_ENTRY + 16)));
    assert.deepEqual(wrong[0]?.read(), JSON_BODY);
    assert.match(
      refused(() => wrong[1]?.read()),
      /^b\.csv: CRC-32 /,
    );
  });

  test('an entry whose directory says more than the limit is refused before anything is inflated; one at the limit is listed', () => {
    const n = JSON_BODY.length;
    assert.deepEqual(
      zipEntries(ZIP, n).map((entry) => entry.name),
      ['a.json', 'b.csv'],
    );
    assert.equal(
      refused(() => zipEntries(ZIP, n - 1)),
      `a.json: the directory says ${n} bytes, more than the limit of ${n - 1}`,
    );
    // The size field alone, 4 GiB less a byte: the reader before this limit let zlib inflate up to it.
    const limit = 256 * 1024 * 1024;
    assert.equal(
      refused(() =>
        zipEntries(
          altered((z) => z.writeUInt32LE(0xffffffff, A_ENTRY + 24)),
          limit,
        ),
      ),
      `a.json: the directory says 4294967295 bytes, more than the limit of ${limit}`,
    );
  });
});

/** A response to `decoded` with this body and Content-Encoding. */
const answer = (body: Buffer, coding?: string): Fetched => ({
  url: 'http://127.0.0.1:3000/api/markets',
  method: 'GET',
  status: 200,
  headers: coding === undefined ? {} : { 'content-encoding': coding },
  body,
  bytes: body.length,
  sha256: createHash('sha256').update(body).digest('hex'),
});

describe("verify's decoding of a compressed answer", () => {
  test('gzip, x-gzip, br and identity give the identity bytes; another coding is named', () => {
    const n = JSON_BODY.length;
    assert.deepEqual(decoded(answer(gzipSync(JSON_BODY), 'gzip'), n), JSON_BODY);
    assert.deepEqual(decoded(answer(gzipSync(JSON_BODY), 'X-Gzip'), n), JSON_BODY);
    assert.deepEqual(decoded(answer(brotliCompressSync(JSON_BODY), 'br'), n), JSON_BODY);
    assert.deepEqual(decoded(answer(JSON_BODY, 'identity'), n), JSON_BODY);
    assert.deepEqual(decoded(answer(JSON_BODY), n), JSON_BODY);
    assert.throws(() => decoded(answer(deflateRawSync(JSON_BODY), 'deflate'), n), { message: 'unknown Content-Encoding deflate' });
  });

  test('a body that cannot be decompressed says why; one that makes more than the identity body stops there', () => {
    assert.throws(() => decoded(answer(JSON_BODY, 'gzip'), JSON_BODY.length), { message: /^cannot decompress: .+/ });
    assert.throws(() => decoded(answer(JSON_BODY, 'br'), JSON_BODY.length), { message: /^cannot decompress: .+/ });
    const huge = Buffer.alloc(8 * 1024 * 1024);
    for (const [coding, body] of [
      ['gzip', gzipSync(huge)],
      ['br', brotliCompressSync(huge, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } })],
    ] as const) {
      assert.ok(body.length < 100_000, `premise: ${body.length} bytes of ${coding} make 8 MiB`);
      assert.throws(() => decoded(answer(body, coding), 100), { message: "decompresses to more than the identity body's 100 bytes" }, coding);
    }
    assert.throws(() => decoded(answer(gzipSync(JSON_BODY), 'gzip'), JSON_BODY.length - 1), {
      message: `decompresses to more than the identity body's ${JSON_BODY.length - 1} bytes`,
    });
    assert.deepEqual(decoded(answer(gzipSync(JSON_BODY), 'gzip'), JSON_BODY.length + 1), JSON_BODY, 'a shorter body is returned, to be compared');
    assert.deepEqual(decoded(answer(gzipSync(Buffer.alloc(0)), 'gzip'), 0), Buffer.alloc(0), 'an empty body');
    assert.deepEqual(decoded(answer(brotliCompressSync(Buffer.from('x')), 'br'), 0), Buffer.from('x'), 'one byte, to be compared, for an empty one');
  });
});
