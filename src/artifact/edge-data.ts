// What the edge Worker knows of the build: the manifest's routes, headers and representations, without bodies (those stay files behind the assets binding).
import { InvariantError } from '../contract/errors.ts';
import type { Header } from '../protocol/headers.ts';
import type { Encoding } from '../protocol/negotiation.ts';
import type { Manifest } from './manifest.ts';
import type { PageHint } from '../protocol/problems.ts';

/**
 * Cloudflare refuses a static asset over 25 MiB (wrangler checks each file before it uploads any); the bulk series CSV
 * passes it near 790 markets.
 */
export const ASSET_SIZE_LIMIT = 25 * 1024 * 1024;

/**
 * One representation: its coding, the file under the assets folder, its strong ETag and length, and, for a body longer
 * than the asset size limit, the length of its parts: it is stored as `<file>.part1`, `<file>.part2`… (assetParts) and
 * the Worker sends them in turn as one body.
 */
export type EdgeVariant = [encoding: Encoding, file: string, etag: string, bytes: number, partBytes?: number];

export interface EdgeRoute {
  /** Index into `headerSets`: every header of the route's 200 but Content-Encoding, ETag and Content-Length. */
  h: number;
  /** Identity first, then the precompressed variants that exist. */
  v: EdgeVariant[];
}

export interface EdgeData {
  baseUrl: string;
  /** Last-Modified of every route, for If-Modified-Since. */
  lastModified: string;
  marketIds: string[];
  /** The HTML 404 page's file and length. */
  notFoundPage: [file: string, bytes: number];
  /** What an unknown path outside /api/ may mean (problems.ts, pageHints), and the 404 page naming each page meant: its file and length, by path. */
  pageHints: PageHint[];
  hintPages: Record<string, [file: string, bytes: number]>;
  /** Route header lists, each written once (most routes of a kind share one). */
  headerSets: Header[][];
  routes: Record<string, EdgeRoute>;
}

/** One stored part of a body: its asset file and where it starts and ends in the body. */
export interface AssetPart {
  file: string;
  start: number;
  end: number;
}

/** Where a body is stored: in its own file, or, when it is longer than `partBytes`, in parts of that length (the last one shorter). */
export function assetParts(file: string, bytes: number, partBytes?: number): [AssetPart, ...AssetPart[]] {
  if (partBytes === undefined || bytes <= partBytes) return [{ file, start: 0, end: bytes }];
  const parts: [AssetPart, ...AssetPart[]] = [{ file: `${file}.part1`, start: 0, end: partBytes }];
  for (let start = partBytes, n = 2; start < bytes; start += partBytes, n += 1)
    parts.push({ file: `${file}.part${n}`, start, end: Math.min(bytes, start + partBytes) });
  return parts;
}

/** The asset files the Worker reads, by the file of the body they hold: each distinct body once, as its parts. */
export function edgeAssetFiles(data: EdgeData): Map<string, AssetPart[]> {
  const files = new Map<string, AssetPart[]>();
  for (const route of Object.values(data.routes)) for (const [, file, , bytes, partBytes] of route.v) files.set(file, assetParts(file, bytes, partBytes));
  return files;
}

/** The Worker's data; a body longer than `partBytes` (Cloudflare's asset size limit unless a test asks for less) is stored in parts. */
export function edgeData(m: Manifest, partBytes = ASSET_SIZE_LIMIT): EdgeData {
  if (!Number.isSafeInteger(partBytes) || partBytes < 1) throw new InvariantError(`partBytes ${partBytes} is not a positive whole number`);
  const headerSets: Header[][] = [];
  const index = new Map<string, number>();
  const setOf = (headers: Record<string, string>): number => {
    const key = JSON.stringify(headers);
    let i = index.get(key);
    if (i === undefined) {
      i = headerSets.push(Object.entries(headers)) - 1;
      index.set(key, i);
    }
    return i;
  };
  const routes: Record<string, EdgeRoute> = {};
  // Routes that serve the very same bytes (a vintage not yet archived and the current documents) share one asset file.
  const fileOfBytes = new Map<string, string>();
  for (const r of m.routes) {
    // The manifest lists a route's variants identity first, then gzip and br where they exist.
    const fileOf = (v: (typeof r.variants)[number]): string => {
      const first = fileOfBytes.get(v.sha256);
      if (first !== undefined) return first;
      fileOfBytes.set(v.sha256, v.file);
      return v.file;
    };
    routes[r.path] = {
      h: setOf(r.headers),
      v: r.variants.map((v): EdgeVariant =>
        v.bytes > partBytes ? [v.encoding, fileOf(v), v.etag, v.bytes, partBytes] : [v.encoding, fileOf(v), v.etag, v.bytes],
      ),
    };
  }
  return {
    baseUrl: m.baseUrl,
    lastModified: m.lastModified,
    marketIds: m.marketIds,
    notFoundPage: [m.notFoundPage.file, m.notFoundPage.bytes],
    pageHints: m.pageHints,
    hintPages: Object.fromEntries(m.hintPages.map((e) => [e.path, [e.file, e.bytes]])),
    headerSets,
    routes,
  };
}
