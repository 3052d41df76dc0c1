// Every answer the server can give, made ready before a request needs it: route variants with flattened headers, and bounded caches of repeated misses.
import { ALLOW, CONTENT_TYPES, NOT_FOUND_PAGE_HEADERS, NOT_MODIFIED_KEEP, PREFLIGHT_HEADERS, PROBLEM_HEADERS, type Header } from '../http/headers.ts';
import { NO_HEADER, parseAcceptEncoding, type Acceptable } from '../http/negotiation.ts';
import { marketProblem, notFoundProblem, problemText, type ProblemDetails } from '../http/problems.ts';
import { isApiPath, marketIdOf } from '../http/request-target.ts';
import type { Route, RouteTable, Variant } from '../routes.ts';

export type Flat = string[];
export const flat = (pairs: readonly Header[]): Flat => pairs.flatMap(([k, v]) => [k, v]);

export interface PreparedVariant {
  variant: Variant;
  body: Buffer;
  /** Every header of the 200, flattened once so a response is one writeHead of ready strings. */
  ok: Flat;
  /** The headers a 304 may carry (RFC 9110 15.4.5) plus the common ones. */
  notModified: Flat;
}

export interface PreparedRoute {
  identity: PreparedVariant;
  gzip: PreparedVariant | undefined;
  br: PreparedVariant | undefined;
  lastModifiedMs: number;
}

function prepare(route: Route, lastModifiedMs: number): PreparedRoute {
  const one = (variant: Variant): PreparedVariant => {
    const encoding: Header[] = variant.encoding === 'identity' ? [] : [['Content-Encoding', variant.encoding]];
    return {
      variant,
      body: variant.body,
      ok: flat([...route.headers, ...encoding, ['ETag', variant.etag], ['Content-Length', String(variant.body.length)]]),
      notModified: flat([...route.headers.filter(([k]) => NOT_MODIFIED_KEEP.has(k.toLowerCase())), ['ETag', variant.etag]]),
    };
  };
  return {
    identity: one(route.identity),
    gzip: route.gzip === undefined ? undefined : one(route.gzip),
    br: route.br === undefined ? undefined : one(route.br),
    lastModifiedMs,
  };
}

/** A ready answer outside the route table: status, every header (Content-Length included) and the body a GET gets. */
export interface Answer {
  status: number;
  head: Flat;
  body: Buffer;
}

const PROBLEM_HEAD = flat([['Content-Type', CONTENT_TYPES.problem], ...PROBLEM_HEADERS]);
/** The preflight answer (204), the same on every route. */
export const PREFLIGHT: Flat = flat(PREFLIGHT_HEADERS);
export const ALLOW_HEADER: Flat = [...ALLOW];

export function problemAnswer(body: ProblemDetails, extra: Flat = []): Answer {
  const bytes = Buffer.from(problemText(body));
  return { status: body.status, head: [...PROBLEM_HEAD, ...extra, 'Content-Length', String(bytes.length)], body: bytes };
}

/** A cache that is cleared when full, so a client sending endless distinct keys cannot grow memory. */
class Bounded<V> extends Map<string, V> {
  constructor(private readonly limit: number) {
    super();
  }

  remember(key: string, value: V): V {
    if (this.size >= this.limit) this.clear();
    this.set(key, value);
    return value;
  }
}

export class Answers {
  readonly routes = new Map<string, PreparedRoute>();
  private readonly knownIds: ReadonlySet<string>;
  private readonly notFoundPage: Answer;
  private readonly accepts = new Bounded<Acceptable>(256);
  /**
   * Misses repeat (a mistyped id, a probe for /wp-admin), so their answers are kept: by decoded path, and by the raw
   * target so a repeat is not even decoded again.
   */
  private readonly byPath = new Bounded<Answer>(1024);
  private readonly byTarget = new Bounded<Answer>(1024);

  constructor(private readonly table: RouteTable) {
    const lastModifiedMs = Date.parse(table.lastModified);
    for (const [path, route] of table.routes) this.routes.set(path, prepare(route, lastModifiedMs));
    this.knownIds = new Set(table.marketIds);
    this.notFoundPage = {
      status: 404,
      head: flat([['Content-Type', CONTENT_TYPES.html], ...NOT_FOUND_PAGE_HEADERS, ['Content-Length', String(table.notFoundPage.length)]]),
      body: table.notFoundPage,
    };
  }

  /** The q-values of an Accept-Encoding value, parsed once per distinct value. */
  accept(header: string | undefined): Acceptable {
    if (header === undefined) return NO_HEADER;
    return this.accepts.get(header) ?? this.accepts.remember(header, parseAcceptEncoding(header));
  }

  /** A target that was classified as not found before, or undefined. */
  knownMiss(rawPath: string): Answer | undefined {
    return this.byTarget.get(rawPath);
  }

  /** The 404 of a decoded path: the HTML page outside /api/, market_not_found for an unknown id, not_found otherwise. */
  notFound(path: string, rawPath: string): Answer {
    const answer = this.byPath.get(path) ?? this.byPath.remember(path, this.notFoundAnswer(path));
    return this.byTarget.remember(rawPath, answer);
  }

  private notFoundAnswer(path: string): Answer {
    if (!isApiPath(path)) return this.notFoundPage;
    const id = marketIdOf(path);
    if (id !== undefined && !this.knownIds.has(id)) return problemAnswer(marketProblem(this.table.baseUrl, id, path, this.table.marketIds));
    return problemAnswer(notFoundProblem(this.table.baseUrl, path));
  }
}
