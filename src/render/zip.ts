// A deterministic zip archive (PKWARE APPNOTE 6.3, deflate, UTF-8 names): the same files give the same bytes, so two builds give one ETag.
import { deflateRawSync } from 'node:zlib';
import { InvariantError } from '../contract/errors.ts';
import { ZIP_DATES } from '../contract/periods.ts';

export interface ZipEntry {
  /** The path inside the archive, with forward slashes. */
  name: string;
  body: Buffer;
  /** The body's gzip file, where one was made already: its deflate stream and CRC-32 are the zip entry's, taken as they are. */
  gzip?: Buffer;
}

/** The raw deflate stream and CRC-32 inside a gzip file (RFC 1952) without optional header fields, as node:zlib writes one. */
function fromGzip(gz: Buffer | undefined, size: number): { data: Buffer; crc: number } | undefined {
  if (gz === undefined || gz.length < 18 || gz[0] !== 0x1f || gz[1] !== 0x8b || gz[2] !== 8 || gz[3] !== 0) return undefined;
  if (gz.readUInt32LE(gz.length - 4) !== size % 2 ** 32) return undefined;
  return { data: gz.subarray(10, gz.length - 8), crc: gz.readUInt32LE(gz.length - 8) };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (ISO 3309), as zip records it for every entry. */
export function crc32(body: Buffer): number {
  let c = 0xffffffff;
  for (const byte of body) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * An MS-DOS date of midnight on an ISO date (zip's timestamps have no zone): every entry carries the snapshot's date.
 * It holds 1980 to 2107 only; the load refuses a retrieval date outside (ZIP_DATES), so one here is a bug.
 */
function dosDate(isoDate: string): number {
  if (!(isoDate >= ZIP_DATES.first && isoDate <= ZIP_DATES.last)) {
    throw new InvariantError(`a zip dates its entries ${ZIP_DATES.first} to ${ZIP_DATES.last} only, not ${isoDate}: the load should have refused that date`);
  }
  const [y = 1980, m = 1, d = 1] = isoDate.split('-').map(Number);
  return ((y - 1980) << 9) | (m << 5) | d;
}

const UTF8_NAMES = 0x0800;
const VERSION_NEEDED = 20;
/** Made by Unix (3), version 2.0: the external attributes then carry the file mode, 0644 for a regular file. */
const VERSION_MADE_BY = (3 << 8) | VERSION_NEEDED;
const FILE_MODE = (0o100644 << 16) >>> 0;

/**
 * The archive of these entries, sorted by name, each deflated (or stored where deflate does not make it smaller), dated
 * `date`. Not zip64: an entry or the archive over 4 GiB, or more than 65,535 entries, is refused.
 */
export function zipArchive(entries: readonly ZipEntry[], date: string): Buffer {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (sorted.length > 0xffff) throw new RangeError(`a zip without zip64 holds at most 65,535 entries, not ${sorted.length}`);
  const day = dosDate(date);
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of sorted) {
    const name = Buffer.from(entry.name, 'utf8');
    const made = fromGzip(entry.gzip, entry.body.length);
    const deflated = made?.data ?? deflateRawSync(entry.body, { level: 9 });
    const stored = deflated.length >= entry.body.length;
    const data = stored ? entry.body : deflated;
    const crc = made?.crc ?? crc32(entry.body);
    if (entry.body.length > 0xfffffffe || offset > 0xfffffffe) throw new RangeError(`${entry.name}: a zip without zip64 holds files under 4 GiB`);
    // The fields the local header and the central directory's header share, in the same order (APPNOTE 4.3.7, 4.3.12).
    const shared = (into: Buffer, at: number): void => {
      into.writeUInt16LE(VERSION_NEEDED, at);
      into.writeUInt16LE(UTF8_NAMES, at + 2);
      into.writeUInt16LE(stored ? 0 : 8, at + 4);
      into.writeUInt16LE(0, at + 6);
      into.writeUInt16LE(day, at + 8);
      into.writeUInt32LE(crc, at + 10);
      into.writeUInt32LE(data.length, at + 14);
      into.writeUInt32LE(entry.body.length, at + 18);
      into.writeUInt16LE(name.length, at + 22);
      into.writeUInt16LE(0, at + 24);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    locals.push(local, name, data);
    // Comment length, disk number and internal attributes stay 0 (Buffer.alloc zero-fills).
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(VERSION_MADE_BY, 4);
    shared(header, 6);
    header.writeUInt32LE(FILE_MODE, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(sorted.length, 8);
  end.writeUInt16LE(sorted.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...locals, directory, end]);
}
