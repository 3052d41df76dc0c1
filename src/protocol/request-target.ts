// Decides, once and safely, what a raw request target is: a route path, a bad request, a market path or an API path. Every engine follows these rules.
import { API_PREFIX, ENDPOINTS, ENDPOINT_LIST } from '../contract/endpoints.ts';

/** Longer request paths are never a route: they answer 404 once the path rules have passed them (400 otherwise, as nginx). */
export const MAX_PATH_LENGTH = 2048;

// eslint-disable-next-line no-control-regex -- matching control bytes is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const BAD_ENCODING = /%(?![0-9A-Fa-f]{2})|%2f|%5c|%00/i;

export type PathVerdict = { kind: 'route'; path: string } | { kind: 'bad_request'; reason: string } | { kind: 'not_found'; path: string };

/** The rules of the path check, in the order they are applied; engines without code (nginx) restate each as a pattern. */
export const BAD_TARGET_RULES = ['control', 'backslash', 'encoding', 'utf8', 'encodedControl', 'dot'] as const;
export type BadTargetRule = (typeof BAD_TARGET_RULES)[number];

export const BAD_TARGET_REASONS: Record<BadTargetRule, string> = {
  control: 'The request target contains a control character.',
  backslash: 'The request target contains a backslash.',
  encoding: 'The request target has malformed percent-encoding, an encoded slash, backslash or NUL.',
  utf8: 'The request target is not valid percent-encoded UTF-8.',
  encodedControl: 'The request target contains an encoded control character.',
  dot: 'The request target contains a dot segment.',
};

export const ORIGIN_FORM_REASON = 'The request target must be a path beginning with "/" (origin form).';

/**
 * How the target of a request line without a version (HTTP/0.9, never answered) begins, as nginx's parser takes one:
 * a path, or an absolute URI. Any other such line is malformed: 400.
 */
export const HTTP09_TARGET = '(?:/|[A-Za-z][A-Za-z0-9+.-]*://)';
const HTTP09 = new RegExp(`^${HTTP09_TARGET}`);
export const http09Target = (target: string): boolean => HTTP09.test(target);

/**
 * A Host value as RFC 9112 3.2 allows it: `uri-host [ ":" port ]` (RFC 3986: an IP literal in brackets, or a
 * registered name or IPv4 address of unreserved, percent-encoded and sub-delimiter characters), not empty, and without
 * an empty label (`a..b`, which nginx refuses on its own). Anything else answers 400, as a missing or repeated Host does
 * on HTTP/1.1. nginx restates it as a map over `$http_host`.
 */
export const HOST_SOURCE = "^(?!.*\\.\\.)(?:\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::[0-9]*)?$";
const HOST = new RegExp(HOST_SOURCE);
export const validHost = (value: string): boolean => HOST.test(value);
export const HOST_COUNT_REASON = 'An HTTP/1.1 request carries exactly one Host header.';
export const HOST_VALUE_REASON = 'The Host header is not a host name or address with an optional port (RFC 9112 3.2).';

const bad = (rule: BadTargetRule): PathVerdict => ({ kind: 'bad_request', reason: BAD_TARGET_REASONS[rule] });

/** Decodes a request path once and safely; only an exact canonical path can reach a route. */
export function classifyPath(raw: string): PathVerdict {
  if (CONTROL.test(raw)) return bad('control');
  if (raw.includes('\\')) return bad('backslash');
  if (BAD_ENCODING.test(raw)) return bad('encoding');
  let path = raw;
  if (raw.includes('%')) {
    try {
      path = decodeURIComponent(raw);
    } catch {
      return bad('utf8');
    }
    if (CONTROL.test(path)) return bad('encodedControl');
  }
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return bad('dot');
  // Checked like any other, but never a route; the raw path is what a 404 may echo.
  if (raw.length > MAX_PATH_LENGTH) return { kind: 'not_found', path: raw };
  // A scheme-relative (`//host/...`) or doubled slash is never canonical; it must not reach a route.
  if (path.includes('//')) return { kind: 'not_found', path };
  return { kind: 'route', path };
}

/** Unknown paths under these prefixes answer problem+json; any other unknown path gets the HTML 404 page. */
export const isApiPath = (path: string): boolean => path.startsWith(`${API_PREFIX}/`) || path === API_PREFIX || path === ENDPOINTS.health.path;

/** What marks the id's place when a market path is made from its record. */
const ID_MARK = '\u0000';
const escapeSource = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The market paths of the records (scope `market`): the start they share before the id, and what follows the id in each. */
const MARKET_PATHS = ENDPOINT_LIST.flatMap(([, r]) => (r.scope === 'market' ? [r.path(ID_MARK)] : []));
const MARKET_PREFIX = MARKET_PATHS[0]?.split(ID_MARK)[0] ?? '';
const MARKET_SUFFIXES = MARKET_PATHS.map((path) => {
  const [prefix, suffix = ''] = path.split(ID_MARK);
  if (prefix !== MARKET_PREFIX) throw new Error(`market path ${path} does not start with ${MARKET_PREFIX}`);
  return suffix;
});

/** A segment trie of suffixes (`/csv`, `/series/csv`): whether a suffix ends at a node, and its next segments in order of first use. */
interface Trie {
  ends: boolean;
  next: Map<string, Trie>;
}
function trieOf(suffixes: readonly string[]): Trie {
  const root: Trie = { ends: false, next: new Map() };
  for (const suffix of suffixes) {
    let node = root;
    for (const segment of suffix.split('/').slice(1)) {
      const child = node.next.get(segment) ?? { ends: false, next: new Map() };
      node.next.set(segment, child);
      node = child;
    }
    node.ends = true;
  }
  return root;
}
/** The regex source matching exactly the suffixes below a node: `(?:/csv|/series(?:/csv)?)?` for '', /csv, /series, /series/csv. */
function sourceOf(node: Trie): string {
  if (node.next.size === 0) return '';
  const alternatives = [...node.next].map(([segment, child]) => `/${escapeSource(segment)}${sourceOf(child)}`).join('|');
  return node.ends ? `(?:${alternatives})?` : node.next.size === 1 ? alternatives : `(?:${alternatives})`;
}
const MARKET_SUFFIX_SOURCE = sourceOf(trieOf(MARKET_SUFFIXES));

/**
 * The market paths (a market's profile path with `/csv`, `/series` or `/series/csv` after it or nothing: the records
 * of scope `market`), as a regex source; `id` is the pattern of the id segment.
 */
export const marketPathSource = (id: string): string => `^${escapeSource(MARKET_PREFIX)}${id}${MARKET_SUFFIX_SOURCE}$`;
const MARKET_PATH = new RegExp(marketPathSource('([^/]+)'));
/**
 * Segments in the id's place that name every market's documents (the bulk CSVs: records of scope `service` whose path
 * starts where a market path does), never a market.
 */
export const RESERVED_MARKET_SEGMENTS: readonly string[] = [
  ...new Set(
    ENDPOINT_LIST.flatMap(([, r]) =>
      r.scope === 'service' && String(r.path).startsWith(MARKET_PREFIX) ? [String(r.path).slice(MARKET_PREFIX.length).split('/')[0] ?? ''] : [],
    ),
  ),
];

/**
 * The market paths (the records of scope `market`) with `id` in the id's place, for engines whose rules list
 * paths rather than patterns (Netlify's `_redirects`); with a reserved segment in that place, the paths that name no market.
 */
export const marketPathsWith = (id: string): string[] => MARKET_PATHS.map((path) => path.replace(ID_MARK, id));
export const RESERVED_SEGMENT_SOURCE = `(?:${RESERVED_MARKET_SEGMENTS.map(escapeSource).join('|')})`;
const RESERVED = new RegExp(`^${RESERVED_SEGMENT_SOURCE}$`);

/** The id segment of a market path (`csv` and `series` are the bulk documents, not ids), or undefined. */
export function marketIdOf(path: string): string | undefined {
  const id = MARKET_PATH.exec(path)?.[1];
  return id === undefined || RESERVED.test(id) ? undefined : id;
}

/**
 * Only a path made of unreserved characters and slashes is echoed back as a problem's `instance` (and only such a
 * segment as `marketId`); anything else is left out rather than escaped, so an error body never carries request
 * bytes that need escaping.
 */
export const SAFE_PATH_SOURCE = '^/[A-Za-z0-9._~/-]{0,255}$';
export const SAFE_SEGMENT_SOURCE = '[A-Za-z0-9._~-]{1,128}';
const SAFE_PATH = new RegExp(SAFE_PATH_SOURCE);
const SAFE_SEGMENT = new RegExp(`^${SAFE_SEGMENT_SOURCE}$`);
export const echoablePath = (path: string): boolean => SAFE_PATH.test(path);
export const echoableSegment = (segment: string): boolean => SAFE_SEGMENT.test(segment);
