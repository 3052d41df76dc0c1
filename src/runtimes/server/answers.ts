// Every answer the server can give, made ready once: route variants with flattened headers (at each route's first request), and bounded caches of repeated misses.
import {
  PREFLIGHT_HEADERS,
  internalErrorHeaders,
  notFoundPageHeaders,
  notModifiedHeaders,
  okHeaders,
  problemHeaders,
  type Header,
} from '../../protocol/headers.ts';
import { NO_HEADER, parseAcceptEncoding, type Acceptable } from '../../protocol/negotiation.ts';
import { pageMeant, pathHints, problem, problemText, unknownPathProblem, type PathHints, type ProblemDetails } from '../../protocol/problems.ts';
import { classifyPath, type PathVerdict } from '../../protocol/request-target.ts';
import type { Route, RouteTable, Variant } from '../../routes/route-table.ts';

export type Flat = string[];
export const flat = (pairs: readonly Header[]): Flat => pairs.flatMap(([k, v]) => [k, v]);

export interface PreparedVariant {
  variant: Variant;
  body: Buffer;
  /** Every header of the 200, flattened once so a response is one writeHead of ready strings. */
  ok: Flat;
  /** The headers a 304 may carry (RFC 9110 15.4.5) plus the common ones. */
  notModified: Flat;
  /** Set when the variant's bytes could not be had as built (a file of dist/ replaced since): its 500, for it alone. */
  refused?: Answer;
}

export interface PreparedRoute {
  identity: PreparedVariant;
  gzip: PreparedVariant | undefined;
  br: PreparedVariant | undefined;
  lastModifiedMs: number;
}

/** Says why a variant's bytes were refused, once per variant. */
export type Warn = (line: string) => void;

function prepare(route: Route, lastModifiedMs: number, refused: Answer, warn: Warn): PreparedRoute {
  const one = (variant: Variant): PreparedVariant => {
    let body: Buffer;
    try {
      body = variant.body;
    } catch (error) {
      // The route's other variants are still served; this one answers 500 until the server is started on a rebuilt dist/.
      warn(`refused to serve the ${variant.encoding} variant of ${route.path}: ${(error as Error).message}`);
      return { variant, body: refused.body, ok: [], notModified: [], refused };
    }
    return {
      variant,
      body,
      ok: flat(okHeaders(route.headers, { encoding: variant.encoding, etag: variant.etag, bytes: body.length })),
      notModified: flat(notModifiedHeaders(route.headers, variant.etag)),
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

/** The preflight answer (204), the same on every route. */
export const PREFLIGHT: Flat = flat(PREFLIGHT_HEADERS);

export function problemAnswer(body: ProblemDetails, extra: readonly Header[] = []): Answer {
  const bytes = Buffer.from(problemText(body));
  return { status: body.status, head: flat(problemHeaders(bytes.length, extra)), body: bytes };
}

/** The 500 of a bug, or of a variant whose bytes are not the build's: nothing of the request or of the fault in it. */
export const INTERNAL_ERROR: Answer = (() => {
  const body = Buffer.from(problemText(problem('', 'internal_server_error')));
  return { status: 500, head: flat(internalErrorHeaders(body.length)), body };
})();

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
  /** Each route's answers, made at its first request: start-up reads the table and prepares nothing (bench:startup). */
  private readonly prepared = new Map<string, PreparedRoute>();
  private readonly lastModifiedMs: number;
  private readonly knownIds: ReadonlySet<string>;
  private readonly notFoundPage: Answer;
  /** What a 404 can point to (canonical paths, snapshot dates, the page a path means), made at the first miss. */
  private hints: PathHints | undefined;
  private readonly accepts = new Bounded<Acceptable>(256);
  /** Misses repeat (a mistyped id, a probe for /wp-admin), so their answers are kept by decoded path, */
  private readonly byPath = new Bounded<Answer>(1024);
  /** and the path rules' verdicts by raw path, so a repeated miss is not decoded again. */
  private readonly verdicts = new Bounded<PathVerdict>(1024);

  constructor(
    private readonly table: RouteTable,
    private readonly warn: Warn = (line) => void process.stderr.write(`market-profiles: ${line}\n`),
  ) {
    this.lastModifiedMs = Date.parse(table.lastModified);
    this.knownIds = new Set(table.marketIds);
    this.notFoundPage = {
      status: 404,
      head: flat(notFoundPageHeaders(table.notFoundPage.length)),
      body: table.notFoundPage,
    };
  }

  /** The route at a path, its answers ready; undefined for a path that is no route. */
  readonly route = (path: string): PreparedRoute | undefined => this.prepared.get(path) ?? this.prepare(path);

  private prepare(path: string): PreparedRoute | undefined {
    const route = this.table.routes.get(path);
    if (route === undefined) return undefined;
    const ready = prepare(route, this.lastModifiedMs, INTERNAL_ERROR, this.warn);
    this.prepared.set(path, ready);
    return ready;
  }

  /** The q-values of an Accept-Encoding value, parsed once per distinct value. */
  accept(header: string | undefined): Acceptable {
    if (header === undefined) return NO_HEADER;
    return this.accepts.get(header) ?? this.accepts.remember(header, parseAcceptEncoding(header));
  }

  /** The path rules' verdict on a raw path that is not a route as sent, decided once per distinct path. */
  readonly classify = (raw: string): PathVerdict => this.verdicts.get(raw) ?? this.verdicts.remember(raw, classifyPath(raw));

  /** The 404 of a decoded path: the HTML page outside /api/, market_not_found for an unknown id, not_found otherwise. */
  notFound(path: string): Answer {
    return this.byPath.get(path) ?? this.byPath.remember(path, this.notFoundAnswer(path));
  }

  private notFoundAnswer(path: string): Answer {
    this.hints ??= pathHints(this.table.routes.keys(), this.table.pageHints);
    const problem = unknownPathProblem(this.table.baseUrl, path, this.knownIds, this.table.marketIds, this.hints);
    if (problem !== undefined) return problemAnswer(problem);
    // Outside /api/: the 404 page that names the page the path meant, where it means one.
    const meant = pageMeant(path, this.hints);
    const page = meant === undefined ? undefined : this.table.hintPages.get(meant);
    return page === undefined ? this.notFoundPage : { status: 404, head: flat(notFoundPageHeaders(page.length)), body: page };
  }
}
