// The error catalogue: every RFC 9457 problem any engine answers with (code, status, title, detail, what the data catalog says of it), and its builders.
import { renderJson } from '../contract/json.ts';
import { PATHS } from '../contract/paths.ts';
import { echoablePath, echoableSegment, isApiPath, marketIdOf } from './request-target.ts';

interface CatalogueEntry {
  status: number;
  title: string;
  /**
   * `catalog`: the problem's `type` links its entry on the data-catalog page. `about:blank`: an answer of the HTTP
   * layer with no route of its own (RFC 9457 4.2), produced before a request is read or by an engine on its own.
   */
  type: 'catalog' | 'about:blank';
  /** The detail, where it does not depend on the request. */
  detail?: string;
  /** When the code is answered, in the data-catalog page's words; codes without one are not listed there. */
  note?: string;
}

/** Every problem code, once. Statuses an engine can produce on its own (parser limits, timeouts) each have one too. */
export const PROBLEM_CATALOGUE = {
  bad_request: {
    status: 400,
    title: 'Bad request',
    type: 'catalog',
    note: 'The request target is not a usable path: it does not start with "/", or it has malformed percent-encoding, an encoded slash, a backslash, NUL or another control character.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    type: 'catalog',
    detail: 'Nothing is published at this path. Paths are exact and lower case, without a trailing slash; the data catalog lists every endpoint.',
    note: 'Nothing is published at the path under /api/. Paths are exact and lower case, without a trailing slash; the body links this catalog. Where a path differs from a published one only by case or a trailing slash, canonicalPath names that one (still a 404, never a redirect); under /api/vintages/ a date no snapshot has gets the list of snapshot dates, knownSnapshotDates. Unknown paths outside /api/ answer the HTML "page not found" page instead, which names first the page a path differs from only by case or a trailing slash, or the market it names by its id, city name or slug.',
  },
  market_not_found: {
    status: 404,
    title: 'Market not found',
    type: 'catalog',
    note: 'The <market-id> in a JSON or CSV path is not a supported market. The body echoes the id as marketId (when it is safe to echo), lists knownMarketIds and links the index; an id that is a known one in other case gets the path as canonicalPath.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    type: 'catalog',
    note: 'Any method other than GET and HEAD (OPTIONS answers a CORS preflight on existing paths). The answer carries Allow: GET, HEAD.',
  },
  headers_too_large: {
    status: 431,
    title: 'Request header fields too large',
    type: 'about:blank',
    detail: 'The request line or a header is larger than this server accepts.',
    note: 'The request line and headers are larger than the server accepts. The connection is closed after the answer.',
  },
  request_timeout: {
    status: 408,
    title: 'Request timeout',
    type: 'about:blank',
    detail: 'Request timeout.',
    note: 'The complete request did not arrive in time. The connection is closed after the answer.',
  },
  forbidden: { status: 403, title: 'Forbidden', type: 'about:blank', detail: 'Forbidden.' },
  length_required: { status: 411, title: 'Length required', type: 'about:blank', detail: 'Length required.' },
  precondition_failed: { status: 412, title: 'Precondition failed', type: 'about:blank', detail: 'Precondition failed.' },
  content_too_large: { status: 413, title: 'Content too large', type: 'about:blank', detail: 'Content too large.' },
  uri_too_long: { status: 414, title: 'URI too long', type: 'about:blank', detail: 'URI too long.' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable', type: 'about:blank', detail: 'Range not satisfiable.' },
  expectation_failed: { status: 417, title: 'Expectation failed', type: 'about:blank', detail: 'Expectation failed.' },
  internal_server_error: { status: 500, title: 'Internal server error', type: 'about:blank', detail: 'Internal server error.' },
  not_implemented: { status: 501, title: 'Not implemented', type: 'about:blank', detail: 'Not implemented.' },
  bad_gateway: { status: 502, title: 'Bad gateway', type: 'about:blank', detail: 'Bad gateway.' },
  service_unavailable: { status: 503, title: 'Service unavailable', type: 'about:blank', detail: 'Service unavailable.' },
  gateway_timeout: { status: 504, title: 'Gateway timeout', type: 'about:blank', detail: 'Gateway timeout.' },
  http_version_not_supported: { status: 505, title: 'HTTP version not supported', type: 'about:blank', detail: 'HTTP version not supported.' },
} as const satisfies Record<string, CatalogueEntry>;

export type ProblemCode = keyof typeof PROBLEM_CATALOGUE;
export const PROBLEM_CODES = Object.keys(PROBLEM_CATALOGUE) as ProblemCode[];

/** The codes whose `type` links their entry on the data-catalog page. */
export const CATALOG_CODES = PROBLEM_CODES.filter((code) => PROBLEM_CATALOGUE[code].type === 'catalog');

/** The codes the data-catalog page documents, in its order. */
export const DOCUMENTED_CODES = PROBLEM_CODES.filter((code) => (PROBLEM_CATALOGUE[code] as CatalogueEntry).note !== undefined);

/** For requests an engine's own HTTP parser refuses before any configuration applies. */
export const UNPARSABLE_REASON = 'The request could not be parsed as HTTP/1.1 (RFC 9112).';

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  code: ProblemCode;
  [extension: string]: unknown;
}

export const problemType = (baseUrl: string, code: ProblemCode): string =>
  PROBLEM_CATALOGUE[code].type === 'about:blank' ? 'about:blank' : `${baseUrl}${PATHS.dataCatalog}#problem-${code.replaceAll('_', '-')}`;

/** A problem of the catalogue; the detail is the catalogue's unless the request gives a more precise one. */
export function problem(baseUrl: string, code: ProblemCode, detail?: string, path?: string, extensions: Record<string, unknown> = {}): ProblemDetails {
  const entry: CatalogueEntry = PROBLEM_CATALOGUE[code];
  const text = detail ?? entry.detail;
  // A plain Error here and in codeOfStatus, not InvariantError: the edge Worker bundles this module, and the class would
  // ship in every Worker for a throw that cannot happen with the catalogue as it is.
  if (text === undefined) throw new Error(`the problem ${code} needs a detail`);
  return {
    type: problemType(baseUrl, code),
    title: entry.title,
    status: entry.status,
    detail: text,
    ...(path !== undefined && echoablePath(path) ? { instance: path } : {}),
    code,
    ...extensions,
  };
}

/** The problem body as served: the one JSON serialiser. */
export const problemText = (p: ProblemDetails): string => renderJson(p);

export const notFoundProblem = (baseUrl: string, path?: string): ProblemDetails =>
  problem(baseUrl, 'not_found', undefined, path, { catalog: `${baseUrl}${PATHS.dataCatalog}` });

/**
 * What a 404 can point to. Under /api/: the published path a request's path differs from only by case or a trailing
 * slash (by that path lower-cased without its trailing slashes), and the snapshot dates with vintages, newest first.
 * Outside it: the page a path means (pageHints), which the HTML 404 page names first.
 */
export interface PathHints {
  readonly canonical: ReadonlyMap<string, string>;
  readonly snapshotDates: readonly string[];
  readonly pages: readonly PageHint[];
}

/**
 * A page a path outside /api/ can be meant for: a regular expression (matched without regard to case, the same source
 * in every engine: compiled by the embedded server and the Worker, written into nginx's map) and the page's path.
 */
export interface PageHint {
  pattern: string;
  path: string;
}

/** A market as a mistyped path may name it: its id, city name, slug and state. */
export interface MarketAliases {
  id: string;
  name: string;
  slug: string;
  state: string;
  stateCode: string;
}

const escapeRegExp = (text: string): string => text.replace(/[.\\^$|?*+()[\]{}]/g, '\\$&');
/** Words of a name as a path may write them: lower case, one separator or none between ("san-francisco", "San Francisco", "sanfrancisco"). */
const wordsPattern = (text: string): string =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
    .map(escapeRegExp)
    .join('[-_ ]?');

/**
 * The pages a 404 outside /api/ can name, tried in order: a published page path in other case or with trailing slashes
 * ("/Methodology", "/data-status/"); then a market named by its id, city name or slug, with or without /markets/ before
 * it, its state code or name before or after it ("/markets/austin", "/Austin", "/markets/us-tx-austin/", "/austin-tx",
 * "/markets/San Francisco, CA"). A name two markets share hints only with its state; `marketPage` is a market's page path.
 */
export function pageHints(paths: Iterable<string>, markets: readonly MarketAliases[], marketPage: (id: string) => string): PageHint[] {
  const pages = [...paths].filter((p) => !isApiPath(p) && p !== '/').map((path) => ({ pattern: `^${escapeRegExp(path)}/*$`, path }));
  const names = (m: MarketAliases): string[] => [...new Set([wordsPattern(m.name), wordsPattern(m.slug)])];
  const shared = (name: string): boolean => markets.filter((m) => names(m).includes(name)).length > 1;
  const byName = markets.map((m) => {
    const state = `(?:${[...new Set([wordsPattern(m.stateCode), wordsPattern(m.state)])].join('|')})`;
    const before = `(?:us[-_ ]?)?${state}[-_ ]?`;
    const after = `,?[-_ ]?${state}`;
    const name = `(?:${names(m).join('|')})`;
    const either = names(m).some(shared) ? `(?:${before}${name}|${name}${after})` : `(?:${before})?${name}(?:${after})?`;
    return { pattern: `^/(?:markets?/)?${either}/*$`, path: marketPage(m.id) };
  });
  return [...pages, ...byName];
}

const compiled = new WeakMap<PageHint, RegExp>();

/** The page a path outside /api/ is meant for, by the first hint whose pattern it matches; undefined for none (or an /api/ path). */
export function pageMeant(path: string, hints: Pick<PathHints, 'pages'>): string | undefined {
  if (isApiPath(path)) return undefined;
  for (const hint of hints.pages) {
    let re = compiled.get(hint);
    if (re === undefined) {
      re = new RegExp(hint.pattern, 'i');
      compiled.set(hint, re);
    }
    if (re.test(path)) return hint.path;
  }
  return undefined;
}

const hintKey = (path: string): string => path.toLowerCase().replace(/(?<=.)\/+$/, '');
/** The date segment of a vintage path (/api/vintages/<date>/…). */
const VINTAGE_PATH = new RegExp(`^${PATHS.vintages.replaceAll('/', '\\/')}\\/([^/]+)(?:\\/|$)`);
/** A segment that is a date, as snapshot dates are written. */
export const DATE_SEGMENT_SOURCE = '[0-9]{4}-[0-9]{2}-[0-9]{2}';

/** The hints of a set of published paths (a route table's), with the table's page hints. */
export function pathHints(paths: Iterable<string>, pages: readonly PageHint[] = []): PathHints {
  const canonical = new Map<string, string>();
  const dates = new Set<string>();
  for (const path of paths) {
    if (!isApiPath(path)) continue;
    canonical.set(hintKey(path), path);
    const date = VINTAGE_PATH.exec(path)?.[1];
    if (date !== undefined) dates.add(date);
  }
  return { canonical, snapshotDates: [...dates].sort().reverse(), pages };
}

const NO_HINTS: PathHints = { canonical: new Map(), snapshotDates: [], pages: [] };

/** The sentence and field a 404 adds when its path differs from a published one only by case or a trailing slash. */
export const canonicalHint = (problem: ProblemDetails, canonical: string): ProblemDetails => ({
  ...problem,
  detail: `${problem.detail} Did you mean ${canonical}? Paths are case-sensitive and end without a slash.`,
  canonicalPath: canonical,
});

/** An unknown date under /api/vintages/: the dates there are, newest first, and the list of vintages. */
export function vintageProblem(baseUrl: string, date: string, path: string | undefined, snapshotDates: readonly string[]): ProblemDetails {
  const named = new RegExp(`^${DATE_SEGMENT_SOURCE}$`).test(date) ? `There is no snapshot of ${date}.` : 'There is no snapshot of that date.';
  return problem(baseUrl, 'not_found', `${named} The snapshots are those of ${snapshotDates.join(', ')}; /api/vintages lists them.`, path, {
    catalog: `${baseUrl}${PATHS.dataCatalog}`,
    knownSnapshotDates: snapshotDates,
    vintages: `${baseUrl}${PATHS.vintages}`,
  });
}

/** The answer to an unknown market id on the JSON or CSV path: echo the id (when it is a safe token), list the known ones. */
export function marketProblem(baseUrl: string, id: string, path: string | undefined, knownIds: readonly string[]): ProblemDetails {
  const echo = echoableSegment(id);
  return problem(
    baseUrl,
    'market_not_found',
    echo
      ? `There is no market with id "${id}". Market ids are lower case, of the form us-<state code>-<city slug>.`
      : 'There is no market with that id. Market ids are lower case, of the form us-<state code>-<city slug>.',
    path,
    { ...(echo ? { marketId: id } : {}), knownMarketIds: knownIds, index: baseUrl + PATHS.index },
  );
}

/**
 * What a path without a route answers: the HTML 404 page (`undefined`) outside /api/, market_not_found for an unknown
 * id on a market path, not_found for anything else under /api/ (and /healthz's neighbours).
 */
export function unknownPathProblem(
  baseUrl: string,
  path: string,
  known: ReadonlySet<string>,
  knownIds: readonly string[],
  hints: PathHints = NO_HINTS,
): ProblemDetails | undefined {
  if (!isApiPath(path)) return undefined;
  // Only a path of unreserved characters is compared (as it is echoed): case folds the same way on every engine.
  const canonical = echoablePath(path) ? hints.canonical.get(hintKey(path)) : undefined;
  const date = VINTAGE_PATH.exec(path)?.[1];
  const id = marketIdOf(path);
  const found =
    id !== undefined && !known.has(id)
      ? marketProblem(baseUrl, id, path, knownIds)
      : canonical === undefined && date !== undefined && hints.snapshotDates.length > 0 && !hints.snapshotDates.includes(date)
        ? vintageProblem(baseUrl, date, path, hints.snapshotDates)
        : notFoundProblem(baseUrl, path);
  return canonical === undefined ? found : canonicalHint(found, canonical);
}

export const methodDetail = (method: string | undefined): string =>
  `The method ${method !== undefined && /^[A-Z-]{1,20}$/.test(method) ? method : 'used'} is not allowed; every path is read-only and answers GET and HEAD.`;

export const methodProblem = (baseUrl: string, method: string | undefined, path?: string): ProblemDetails =>
  problem(baseUrl, 'method_not_allowed', methodDetail(method), path);

export const badRequestProblem = (baseUrl: string, reason: string): ProblemDetails => problem(baseUrl, 'bad_request', reason);

/** The code an engine answers with for a status it decided on its own. */
export function codeOfStatus(status: number): ProblemCode {
  if (status === 400) return 'bad_request';
  if (status === 405) return 'method_not_allowed';
  const code = PROBLEM_CODES.find((c) => PROBLEM_CATALOGUE[c].status === status && PROBLEM_CATALOGUE[c].type === 'about:blank');
  if (code === undefined) throw new Error(`no problem in the catalogue for status ${status}`);
  return code;
}

/** Statuses an engine can produce on its own (parser limits, timeouts); each gets a problem body too. */
export const ENGINE_STATUSES: readonly number[] = [
  400,
  405,
  ...PROBLEM_CODES.filter((c) => PROBLEM_CATALOGUE[c].type === 'about:blank').map((c) => PROBLEM_CATALOGUE[c].status),
].sort((a, b) => a - b);

/** A problem for a status the engine itself decided, shaped like the embedded server's parser-level refusals. */
export function statusProblem(baseUrl: string, status: number): ProblemDetails {
  if (status === 400) return badRequestProblem(baseUrl, UNPARSABLE_REASON);
  if (status === 405) return methodProblem(baseUrl, undefined);
  return problem(baseUrl, codeOfStatus(status));
}
