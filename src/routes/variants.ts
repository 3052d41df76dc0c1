// A route's precompressed variants, each made when first read: what the build and every server share, without the renderers.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { Encoding } from '../protocol/negotiation.ts';

export interface Variant {
  encoding: Encoding;
  body: Buffer;
  /** Strong ETag of these bytes, quotes included. */
  etag: string;
}

export function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/**
 * Brotli quality is a build-time trade: 11 costs about 30 times quality 7 for roughly 10 % fewer
 * bytes, a few hundred bytes on a profile (the same TCP segments either way), and at 11 the large
 * shared documents (bulk CSV, index) compress at about 400 KB/s. Quality 7 for ordinary bodies and 9
 * for large ones, and 5 from 4 MiB (the bulk series CSV of a thousand markets is about 45 MiB), keeps a
 * build of thousands of markets in seconds (npm run bench:build).
 */
export const brotliQuality = (bytes: number): number => (bytes >= 4 * 1024 * 1024 ? 5 : bytes >= 64 * 1024 ? 9 : 7);

/** A body in each coding: compressed variants only where compressing makes the bytes smaller (the keys are always there). */
export interface Variants {
  identity: Variant;
  gzip: Variant | undefined;
  br: Variant | undefined;
}

/** One compressed variant, kept only where it is smaller than the identity bytes. */
function smaller(encoding: 'gzip' | 'br', body: Buffer, compressed: Buffer): Variant | undefined {
  return compressed.length < body.length ? { encoding, body: compressed, etag: etagOf(compressed) } : undefined;
}

/** A value made when first read, then kept; the maker is dropped once used, so what it closed over can be freed. */
function once<T>(make: () => T): () => T {
  let maker: (() => T) | undefined = make;
  let made: { value: T } | undefined;
  return () => {
    if (made === undefined) {
      made = { value: (maker as () => T)() };
      maker = undefined;
    }
    return made.value;
  };
}

/**
 * Precompressed variants, each compressed when first read and kept: compression is about half of a build, and what
 * only reads the identity bytes (a check, most tests) never pays for it. The server reads every variant before it
 * listens (`compressAll`), and the artifact writes them all, so no request waits for a compression. The body itself
 * may be made on first read too (the download's zip, which nothing in the build reads).
 */
export function variants(bodyOf: () => Buffer): Variants {
  const body = once(bodyOf);
  const identity = once((): Variant => ({ encoding: 'identity', body: body(), etag: etagOf(body()) }));
  const gzip = once(() => smaller('gzip', body(), gzipSync(body(), { level: 9 })));
  const br = once(() =>
    smaller(
      'br',
      body(),
      brotliCompressSync(body(), {
        params: { [zlibConstants.BROTLI_PARAM_QUALITY]: brotliQuality(body().length), [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body().length },
      }),
    ),
  );
  return Object.defineProperties({} as Variants, {
    identity: { enumerable: true, get: identity },
    gzip: { enumerable: true, get: gzip },
    br: { enumerable: true, get: br },
  });
}

/** A route whose variants are those of `made` (shared by routes with the same bytes), read through without making them. */
export function routeOf<F extends object>(fields: F, made: Variants): F & Variants {
  return Object.defineProperties({ ...fields } as F & Variants, {
    identity: { enumerable: true, get: () => made.identity },
    gzip: { enumerable: true, get: () => made.gzip },
    br: { enumerable: true, get: () => made.br },
  });
}

/** Compresses every route's variants now: what a server does before it listens, so that no request pays for it. */
export function compressAll(routes: Iterable<Variants>): void {
  for (const route of routes) void (route.gzip, route.br);
}
