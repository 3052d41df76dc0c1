// The request headers the server reads, in one pass over the raw header list (building req.headers is most of a request's cost).
import type { Preconditions } from '../../protocol/conditional.ts';

export interface RequestFacts extends Preconditions {
  acceptEncoding: string | undefined;
  hosts: number;
  /** The first Host value. */
  host: string | undefined;
  transferEncoding: string | undefined;
  /** The request announces a body (Transfer-Encoding, or a Content-Length other than 0). */
  framed: boolean;
  /**
   * The header lines' bytes as sent, less any spaces around the values (which the parser drops): each name, colon,
   * value and CRLF. node's parser counts only names and values against its limit.
   */
  headerBytes: number;
  /** The first field of ONCE_ONLY sent twice (lower case), if any: the request is refused with 400. */
  repeated: string | undefined;
}

/**
 * Fields a request may carry once, as nginx takes them: a second line is refused with 400 before its configuration
 * runs (Host and Content-Length are counted apart). The embedded server refuses them too, so the engines agree.
 */
export const ONCE_ONLY = [
  'if-modified-since',
  'if-unmodified-since',
  'if-match',
  'if-none-match',
  'if-range',
  'expect',
  'authorization',
  'content-range',
  'transfer-encoding',
] as const;
/** The 400's reason for a repeated field of ONCE_ONLY. */
export const repeatedReason = (name: string): string => `The request repeats the ${name} header, which it may send once.`;
const ONCE_LENGTHS = new Set<number>(ONCE_ONLY.map((n) => n.length));

/** Field names are case-insensitive; the usual spellings are compared first so most requests never lowercase. */
const is = (name: string, canonical: string, lowercase: string): boolean => name === canonical || name === lowercase || name.toLowerCase() === lowercase;
const join = (prev: string | undefined, value: string): string => (prev === undefined ? value : `${prev}, ${value}`);

export function readFacts(raw: readonly string[]): RequestFacts {
  let acceptEncoding: string | undefined;
  let ifNoneMatch: string | undefined;
  let ifModifiedSince: string | undefined;
  let imsInvalid = false;
  let hosts = 0;
  let host: string | undefined;
  let transferEncoding: string | undefined;
  let framed = false;
  let headerBytes = 0;
  let repeated: string | undefined;
  let once: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    headerBytes += name.length + (raw[i + 1] as string).length + 3;
    if (ONCE_LENGTHS.has(name.length)) {
      const lower = name.toLowerCase();
      if ((ONCE_ONLY as readonly string[]).includes(lower)) {
        once ??= new Set();
        if (once.has(lower)) repeated ??= lower;
        once.add(lower);
      }
    }
    switch (name.length) {
      case 4:
        if (is(name, 'Host', 'host')) {
          hosts += 1;
          host ??= raw[i + 1];
        }
        break;
      case 14:
        if (is(name, 'Content-Length', 'content-length') && raw[i + 1] !== '0') framed = true;
        break;
      case 13:
        if (is(name, 'If-None-Match', 'if-none-match')) ifNoneMatch = join(ifNoneMatch, raw[i + 1] as string);
        break;
      case 15:
        if (is(name, 'Accept-Encoding', 'accept-encoding')) acceptEncoding = join(acceptEncoding, raw[i + 1] as string);
        break;
      case 17:
        if (is(name, 'If-Modified-Since', 'if-modified-since')) {
          if (ifModifiedSince !== undefined) imsInvalid = true;
          ifModifiedSince = raw[i + 1];
        } else if (is(name, 'Transfer-Encoding', 'transfer-encoding')) {
          transferEncoding = join(transferEncoding, raw[i + 1] as string);
          framed = true;
        }
        break;
      default:
        break;
    }
  }
  return { acceptEncoding, ifNoneMatch, ifModifiedSince, imsInvalid, hosts, host, transferEncoding, framed, headerBytes, repeated };
}
