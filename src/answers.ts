// The answers outside the route table (errors, preflight, 304 headers), defined once for the embedded server and the generated engine configs.
import { marketNotFound, problem, type ProblemDetails } from './render/problem.ts';
import { classifyPath } from './request-target.ts';
import { CACHE_CONTROL, COMMON_HEADERS, PAGE_HEADERS } from './routes.ts';

export type Header = readonly [string, string];

/** Headers of every problem answer besides Content-Type and Content-Length (design.md: errors carry a short Cache-Control). */
export const PROBLEM_HEADERS: readonly Header[] = [['Cache-Control', CACHE_CONTROL.error], ...COMMON_HEADERS];
export const ALLOW: Header = ['Allow', 'GET, HEAD'];
/** Headers of the HTML 404 page besides Content-Type and Content-Length. */
export const NOT_FOUND_PAGE_HEADERS: readonly Header[] = [['Cache-Control', CACHE_CONTROL.error], ...COMMON_HEADERS, ...PAGE_HEADERS];

/** The CORS preflight answer (204) on every route, as the embedded server sends it. */
export const PREFLIGHT_HEADERS: readonly Header[] = [
  ALLOW,
  ['Access-Control-Allow-Methods', 'GET, HEAD'],
  ['Access-Control-Allow-Headers', 'Accept, Accept-Encoding, If-None-Match, If-Modified-Since'],
  ['Access-Control-Max-Age', '86400'],
  ['Cache-Control', CACHE_CONTROL.ok],
  ...COMMON_HEADERS,
];

/** Route headers a 304 keeps (RFC 9110 15.4.5 plus the common ones); the ETag is added per representation. */
export const NOT_MODIFIED_KEEP: ReadonlySet<string> = new Set(['cache-control', 'vary', 'access-control-allow-origin', 'access-control-expose-headers', 'x-content-type-options']);

export const NOT_FOUND_DETAIL = 'Nothing is published at this path. Paths are exact and lower case, without a trailing slash; the data catalog lists every endpoint.';
export const ORIGIN_FORM_REASON = 'The request target must be a path beginning with "/" (origin form).';
/** For requests an engine's own HTTP parser refuses before any configuration applies (the embedded server's wording). */
export const UNPARSABLE_REASON = 'The request could not be parsed as HTTP/1.1 (RFC 9112).';

export const methodDetail = (method: string | undefined): string =>
  `The method ${method !== undefined && /^[A-Z-]{1,20}$/.test(method) ? method : 'used'} is not allowed; every path is read-only and answers GET and HEAD.`;

/** The rules of the embedded server's path check, in its order; the reason texts are read from it so they cannot drift. */
export const BAD_TARGET_RULES = ['control', 'backslash', 'encoding', 'utf8', 'encodedControl', 'dot'] as const;
export type BadTargetRule = (typeof BAD_TARGET_RULES)[number];
const SAMPLE: Record<BadTargetRule, string> = { control: '/\u007f', backslash: '/\\', encoding: '/%zz', utf8: '/%ff', encodedControl: '/%01', dot: '/.' };

export function badTargetReason(rule: BadTargetRule): string {
  const verdict = classifyPath(SAMPLE[rule]);
  if (verdict.kind !== 'bad_request') throw new Error(`the embedded server no longer refuses ${JSON.stringify(SAMPLE[rule])} (${rule}); regenerate the engine rules`);
  return verdict.reason;
}

export const problemText = (p: object): string => `${JSON.stringify(p, null, 2)}\n`;

export const notFoundProblem = (baseUrl: string, path?: string): ProblemDetails =>
  problem(baseUrl, 'not_found', NOT_FOUND_DETAIL, path, { catalog: `${baseUrl}/data-catalog` });

/** An unknown market; without a path (or with an id that is not a safe token) nothing from the request is echoed. */
export const marketProblem = (baseUrl: string, id: string, path: string | undefined, knownIds: readonly string[]): ProblemDetails =>
  marketNotFound(baseUrl, id, path ?? '', knownIds);

export const methodProblem = (baseUrl: string, method: string | undefined, path?: string): ProblemDetails =>
  problem(baseUrl, 'method_not_allowed', methodDetail(method), path);

export const badRequestProblem = (baseUrl: string, reason: string): ProblemDetails => problem(baseUrl, 'bad_request', reason);

const REASON_PHRASES: Record<number, string> = {
  400: 'Bad request', 403: 'Forbidden', 405: 'Method not allowed', 408: 'Request timeout', 411: 'Length required',
  412: 'Precondition failed', 413: 'Content too large', 414: 'URI too long', 416: 'Range not satisfiable', 417: 'Expectation failed',
  431: 'Request header fields too large', 500: 'Internal server error', 501: 'Not implemented', 502: 'Bad gateway',
  503: 'Service unavailable', 504: 'Gateway timeout', 505: 'HTTP version not supported',
};

/** Statuses an engine can produce on its own (parser limits, timeouts); each gets a problem body too. */
export const ENGINE_STATUSES: readonly number[] = Object.keys(REASON_PHRASES).map(Number);

/** A problem for a status the engine itself decided, shaped like the embedded server's parser-level refusals. */
export function statusProblem(baseUrl: string, status: number): Omit<ProblemDetails, 'code'> & { code: string } {
  if (status === 400) return badRequestProblem(baseUrl, UNPARSABLE_REASON);
  if (status === 405) return methodProblem(baseUrl, undefined);
  const title = REASON_PHRASES[status];
  if (title === undefined) throw new Error(`no problem body for status ${status}`);
  if (status === 431) return { type: 'about:blank', title, status, detail: 'The request line or a header is larger than this server accepts.', code: 'headers_too_large' };
  return { type: 'about:blank', title, status, detail: `${title}.`, code: title.toLowerCase().replaceAll(' ', '_') };
}
