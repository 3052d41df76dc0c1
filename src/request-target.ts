// Decides, once and safely, whether a raw request target can reach a route: the path rules every engine follows.

/** Longer request paths are never a route; they answer 404 without being decoded. */
export const MAX_PATH_LENGTH = 2048;

// eslint-disable-next-line no-control-regex -- matching control bytes is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
const BAD_ENCODING = /%(?![0-9A-Fa-f]{2})|%2f|%5c|%00/i;

export type PathVerdict = { kind: 'route'; path: string } | { kind: 'bad_request'; reason: string } | { kind: 'not_found'; path: string };

/** Decodes a request path once and safely; only an exact canonical path can reach a route. */
export function classifyPath(raw: string): PathVerdict {
  if (raw.length > MAX_PATH_LENGTH) return { kind: 'not_found', path: raw };
  if (CONTROL.test(raw)) return { kind: 'bad_request', reason: 'The request target contains a control character.' };
  if (raw.includes('\\')) return { kind: 'bad_request', reason: 'The request target contains a backslash.' };
  if (BAD_ENCODING.test(raw)) return { kind: 'bad_request', reason: 'The request target has malformed percent-encoding, an encoded slash, backslash or NUL.' };
  let path = raw;
  if (raw.includes('%')) {
    try {
      path = decodeURIComponent(raw);
    } catch {
      return { kind: 'bad_request', reason: 'The request target is not valid percent-encoded UTF-8.' };
    }
    if (CONTROL.test(path)) return { kind: 'bad_request', reason: 'The request target contains an encoded control character.' };
  }
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) {
    return { kind: 'bad_request', reason: 'The request target contains a dot segment.' };
  }
  // A scheme-relative (`//host/...`) or doubled slash is never canonical; it must not reach a route.
  if (path.includes('//')) return { kind: 'not_found', path };
  return { kind: 'route', path };
}
