// Conditional requests (RFC 9110 13): when a GET answers 304; nginx's maps mirror the If-None-Match rule.

/** Weak comparison (RFC 9110 8.8.3.2): W/ prefixes are ignored, `*` matches any current representation. */
export function ifNoneMatchHits(header: string, etag: string): boolean {
  // The common case: a client echoing the one ETag it was given.
  if (header === etag) return true;
  const bare = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*') return true;
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === bare) return true;
  }
  return false;
}

export interface Preconditions {
  ifNoneMatch: string | undefined;
  ifModifiedSince: string | undefined;
  /** More than one If-Modified-Since: the field must be ignored (RFC 9110 13.1.3). */
  imsInvalid: boolean;
}

/** If-None-Match wins; If-Modified-Since is evaluated only without it (RFC 9110 13.2.2). */
export function notModified(request: Preconditions, etag: string, lastModifiedMs: number): boolean {
  if (request.ifNoneMatch !== undefined) return ifNoneMatchHits(request.ifNoneMatch, etag);
  if (request.ifModifiedSince === undefined || request.imsInvalid) return false;
  const since = Date.parse(request.ifModifiedSince);
  return !Number.isNaN(since) && lastModifiedMs <= since;
}
