// Reads a zip's central directory and inflates its entries, so `verify` can hold /api/download's files to the bytes served; stored and deflated entries only, no zip64.
import { crc32, inflateRawSync } from 'node:zlib';

export class ZipReadError extends Error {}

const END_OF_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

const hex = (n: number): string => n.toString(16).padStart(8, '0');
const longer = (name: string, size: number): ZipReadError => new ZipReadError(`${name}: inflates to more than the ${size} bytes the directory says`);

/** The entry's bytes from its data as stored (method 0) or deflated (8), exactly the `size` its directory entry says. */
function entryBody(name: string, method: number, data: Buffer, size: number): Buffer {
  if (method === 0) {
    if (data.length !== size) throw new ZipReadError(`${name}: ${data.length} bytes stored, the directory says ${size}`);
    return Buffer.from(data);
  }
  if (method !== 8) throw new ZipReadError(`${name}: compression method ${method} is neither stored nor deflate`);
  let body: Buffer;
  try {
    // One byte over the size the directory says tells a longer stream (or a bomb) without inflating it all.
    body = inflateRawSync(data, { maxOutputLength: size + 1 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE')
      throw new ZipReadError(`${name}: its deflate data cannot be read (${(error as Error).message})`);
    throw longer(name, size);
  }
  if (body.length > size) throw longer(name, size);
  if (body.length < size) throw new ZipReadError(`${name}: inflates to ${body.length} bytes, the directory says ${size}`);
  return body;
}

/** One file of the archive as its central directory lists it; `read()` inflates it and holds it to the directory's size and CRC-32. */
export interface ArchiveEntry {
  readonly name: string;
  /** The size the directory says, before anything is inflated. */
  readonly size: number;
  read(): Buffer;
}

/**
 * The archive's entries, in directory order, with nothing inflated yet. Throws ZipReadError, naming the entry and the
 * fault, on a record that runs past the data, a local header that does not match its directory entry, a name given
 * twice, or an entry whose directory says more than `maxEntryBytes`; `read()` throws it on a body of another size or
 * CRC-32 than the directory says. So a caller holds one entry at a time, and none larger than it chose.
 */
export function zipEntries(zip: Buffer, maxEntryBytes = Number.POSITIVE_INFINITY): ArchiveEntry[] {
  const end = zip.lastIndexOf(END_OF_DIRECTORY);
  if (end < 0 || end + 22 > zip.length) throw new ZipReadError('no end of central directory record');
  const count = zip.readUInt16LE(end + 10);
  const directory = zip.readUInt32LE(end + 16);
  if (directory + zip.readUInt32LE(end + 12) > end) throw new ZipReadError(`the central directory at ${directory} runs past its end record at ${end}`);
  let at = directory;
  const entries = new Map<string, ArchiveEntry>();
  for (let i = 0; i < count; i += 1) {
    if (at + 46 > end || zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new ZipReadError(`central directory entry ${i + 1} is malformed`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (next > end) throw new ZipReadError(`central directory entry ${i + 1} runs past the directory`);
    const rawName = zip.subarray(at + 46, at + 46 + nameLength);
    const name = rawName.toString('utf8');
    const local = zip.readUInt32LE(at + 42);
    if (local + 30 > directory || zip.readUInt32LE(local) !== LOCAL_HEADER) throw new ZipReadError(`${name}: no local header at ${local}`);
    const localName = zip.subarray(local + 30, local + 30 + zip.readUInt16LE(local + 26));
    if (!localName.equals(rawName)) throw new ZipReadError(`${name}: its local header names "${localName.toString('utf8')}"`);
    const start = local + 30 + localName.length + zip.readUInt16LE(local + 28);
    if (start + compressed > directory) throw new ZipReadError(`${name}: its ${compressed} bytes at ${start} run past the entries' data`);
    if (entries.has(name)) throw new ZipReadError(`${name} is in the archive twice`);
    if (size > maxEntryBytes) throw new ZipReadError(`${name}: the directory says ${size} bytes, more than the limit of ${maxEntryBytes}`);
    const data = zip.subarray(start, start + compressed);
    entries.set(name, {
      name,
      size,
      read() {
        const body = entryBody(name, method, data, size);
        const actual = crc32(body);
        if (actual !== crc) throw new ZipReadError(`${name}: CRC-32 ${hex(actual)}, the directory says ${hex(crc)}`);
        return body;
      },
    });
    at = next;
  }
  return [...entries.values()];
}

/** Every entry of the archive by name, each read (all of it in memory: for archives known to be small). */
export function unzip(zip: Buffer): Map<string, Buffer> {
  return new Map(zipEntries(zip).map((entry) => [entry.name, entry.read()]));
}
