// What the machine-readable descriptions read of the route table: each path's content type, headers and identity bytes.
import { InvariantError } from '../contract/errors.ts';
import type { Header, Kind } from '../protocol/headers.ts';

export interface ServedRoute {
  kind: Kind;
  contentType: string;
  /** Every header of the 200 except ETag, Content-Length and Content-Encoding, which belong to the variant sent. */
  headers: readonly Header[];
  /** The identity bytes; undefined for the document being described, which does not exist yet. */
  body: Buffer | undefined;
}

/** The route at a path, or an error naming the path (a description never describes what is not served). */
export type Served = (path: string) => ServedRoute;

export const bodyOf = (served: Served, path: string): Buffer => {
  const body = served(path).body;
  if (body === undefined) throw new InvariantError(`no bytes yet for ${path}`);
  return body;
};
