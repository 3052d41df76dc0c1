// What the edge Worker knows of the build: the manifest's routes, headers and representations, without bodies (those stay files behind the assets binding).
import type { Header } from '../protocol/headers.ts';
import type { Encoding } from '../protocol/negotiation.ts';
import type { Manifest } from './manifest.ts';

/** One representation: its coding, the file under the assets folder, its strong ETag and length. */
export type EdgeVariant = [encoding: Encoding, file: string, etag: string, bytes: number];

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
  /** Route header lists, each written once (most routes of a kind share one). */
  headerSets: Header[][];
  routes: Record<string, EdgeRoute>;
}

/** The asset files the Worker reads: each distinct body once. */
export const edgeAssetFiles = (data: EdgeData): Set<string> => new Set(Object.values(data.routes).flatMap((r) => r.v.map(([, file]) => file)));

export function edgeData(m: Manifest): EdgeData {
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
    const order = ['identity', 'gzip', 'br'];
    const variants = [...r.variants].sort((a, b) => order.indexOf(a.encoding) - order.indexOf(b.encoding));
    const fileOf = (v: (typeof variants)[number]): string => {
      const first = fileOfBytes.get(v.sha256);
      if (first !== undefined) return first;
      fileOfBytes.set(v.sha256, v.file);
      return v.file;
    };
    routes[r.path] = { h: setOf(r.headers), v: variants.map((v): EdgeVariant => [v.encoding, fileOf(v), v.etag, v.bytes]) };
  }
  return {
    baseUrl: m.baseUrl,
    lastModified: m.lastModified,
    marketIds: m.marketIds,
    notFoundPage: [m.notFoundPage.file, m.notFoundPage.bytes],
    headerSets,
    routes,
  };
}
