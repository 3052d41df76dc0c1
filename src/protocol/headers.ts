// Content types and the headers every engine sends, named once for the route table, the server and the engine generators.
import type { Encoding } from './negotiation.ts';

export type Header = readonly [string, string];

export const CONTENT_TYPES = {
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  problem: 'application/problem+json',
  zip: 'application/zip',
  text: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
} as const;

export type Kind = keyof typeof CONTENT_TYPES;

/** Cache rules, the same on every engine. */
export const CACHE_CONTROL = {
  ok: 'public, max-age=300',
  error: 'public, max-age=60',
  health: 'no-store',
  /** An archived vintage: its bytes never change. */
  immutable: 'public, max-age=31536000, immutable',
} as const;

/** Headers on every response, errors and 304s included. */
export const COMMON_HEADERS: readonly Header[] = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', 'ETag, Link, Content-Disposition'],
  ['X-Content-Type-Options', 'nosniff'],
];

/**
 * Pages load only our own stylesheet and inline SVG; nothing else may run or load. `connect-src 'self'` lets a
 * crawler's in-page fetch of /robots.txt through (Lighthouse reads it so); pages run no script of their own.
 */
export const PAGE_HEADERS: readonly Header[] = [
  [
    'Content-Security-Policy',
    "default-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  ],
  ['Referrer-Policy', 'no-referrer'],
];

/** Headers of every problem answer besides Content-Type and Content-Length (errors carry a short Cache-Control). */
export const PROBLEM_HEADERS: readonly Header[] = [['Cache-Control', CACHE_CONTROL.error], ...COMMON_HEADERS];
/** A problem answered before any route was read (a parser refusal, a bug): nothing about it may be cached. */
export const UNCACHED_PROBLEM_HEADERS: readonly Header[] = [['Cache-Control', 'no-store'], ...COMMON_HEADERS];
export const ALLOW: Header = ['Allow', 'GET, HEAD'];
/** Headers of the HTML 404 page besides Content-Type and Content-Length. */
export const NOT_FOUND_PAGE_HEADERS: readonly Header[] = [['Cache-Control', CACHE_CONTROL.error], ...COMMON_HEADERS, ...PAGE_HEADERS];

/** The CORS preflight answer (204) on every route. */
export const PREFLIGHT_HEADERS: readonly Header[] = [
  ALLOW,
  ['Access-Control-Allow-Methods', 'GET, HEAD'],
  ['Access-Control-Allow-Headers', 'Accept, Accept-Encoding, If-None-Match, If-Modified-Since'],
  ['Access-Control-Max-Age', '86400'],
  ['Cache-Control', CACHE_CONTROL.ok],
  ...COMMON_HEADERS,
];

/** Route headers a 304 keeps (RFC 9110 15.4.5 plus the common ones); the ETag is added per representation. */
export const NOT_MODIFIED_KEEP: ReadonlySet<string> = new Set([
  'cache-control',
  'vary',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'x-content-type-options',
]);

/** One representation of a route, as its headers name it. */
export interface Representation {
  encoding: Encoding;
  /** Strong ETag, quotes included. */
  etag: string;
  /** Length of the bytes sent. */
  bytes: number;
}

/** Every header of a 200 for one representation: the route's own, then Content-Encoding (not for identity), ETag and Content-Length. */
export const okHeaders = (route: readonly Header[], r: Representation): Header[] => [
  ...route,
  ...(r.encoding === 'identity' ? [] : [['Content-Encoding', r.encoding] as const]),
  ['ETag', r.etag],
  ['Content-Length', String(r.bytes)],
];

/** The headers of a 304 for one representation: the route's that a 304 keeps (RFC 9110 15.4.5, the common ones) and its ETag. */
export const notModifiedHeaders = (route: readonly Header[], etag: string): Header[] => [
  ...route.filter(([k]) => NOT_MODIFIED_KEEP.has(k.toLowerCase())),
  ['ETag', etag],
];

/** Every header of the HTML 404 page. */
export const notFoundPageHeaders = (bytes: number): Header[] => [
  ['Content-Type', CONTENT_TYPES.html],
  ...NOT_FOUND_PAGE_HEADERS,
  ['Content-Length', String(bytes)],
];

/** Every header of a problem answer; `extra` is Allow on a 405, none otherwise. */
export const problemHeaders = (bytes: number, extra: readonly Header[]): Header[] => [
  ['Content-Type', CONTENT_TYPES.problem],
  ...PROBLEM_HEADERS,
  ...extra,
  ['Content-Length', String(bytes)],
];

/** Every header of the 500 a bug answers with: nothing about it may be cached. */
export const internalErrorHeaders = (bytes: number): Header[] => [
  ['Content-Type', CONTENT_TYPES.problem],
  ...UNCACHED_PROBLEM_HEADERS,
  ['Content-Length', String(bytes)],
];
