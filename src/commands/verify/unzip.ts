// Reads a zip's central directory and inflates its entries, so `verify` can hold /api/download's files to the bytes served; stored and deflated entries only, no zip64.
import { inflateRawSync } from 'node:zlib';

export class ZipReadError extends Error {}

/** Every entry of the archive by name; throws ZipReadError on anything it cannot read. */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + 22 > zip.length) throw new ZipReadError('no end of central directory record');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new ZipReadError(`central directory entry ${i + 1} is malformed`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new ZipReadError(`${name}: no local header at ${local}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    const body = method === 0 ? Buffer.from(data) : method === 8 ? inflateRawSync(data) : undefined;
    if (body === undefined) throw new ZipReadError(`${name}: compression method ${method} is neither stored nor deflate`);
    if (body.length !== size) throw new ZipReadError(`${name}: ${body.length} bytes inflated, the directory says ${size}`);
    if (out.has(name)) throw new ZipReadError(`${name} is in the archive twice`);
    out.set(name, body);
    at += 46 + nameLength + extra + comment;
  }
  return out;
}
