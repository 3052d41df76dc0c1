// The edge Worker (Cloudflare Workers with static assets): the embedded server's answers by the same rules (src/protocol), the route bytes from the assets binding.
// Bundled by the build (src/artifact/edge.ts) with the build's data into dist/edge/worker.js; it must not import node: modules.
import { notModified } from '../protocol/conditional.ts';
import {
  ALLOW,
  PREFLIGHT_HEADERS,
  internalErrorHeaders,
  notFoundPageHeaders,
  notModifiedHeaders,
  okHeaders,
  problemHeaders,
  type Header,
} from '../protocol/headers.ts';
import { chooseEncoding, parseAcceptEncoding, type Acceptable, type Encoding } from '../protocol/negotiation.ts';
import {
  badRequestProblem,
  methodProblem,
  pageMeant,
  pathHints,
  problem,
  problemText,
  unknownPathProblem,
  type PathHints,
  type ProblemDetails,
} from '../protocol/problems.ts';
import { HOST_VALUE_REASON, validHost } from '../protocol/request-target.ts';
import { judgeRequest } from '../protocol/verdict.ts';
import { assetParts, type AssetPart, type EdgeData, type EdgeRoute } from '../artifact/edge-data.ts';

/** The assets binding (`env.ASSETS`): a fetch that answers the file at a URL's path, nothing else. */
export interface AssetsBinding {
  fetch(input: string): Promise<Response>;
}

export interface EdgeEnv {
  ASSETS: AssetsBinding;
}

/** What the Worker reads of a request: Cloudflare keeps the client's own Accept-Encoding in `cf.clientAcceptEncoding`. */
export type EdgeRequest = Pick<Request, 'method' | 'url' | 'headers'> & { cf?: { clientAcceptEncoding?: string } | undefined };

export interface EdgeWorker {
  fetch(request: EdgeRequest, env: EdgeEnv): Promise<Response>;
}

/**
 * The Workers runtime's identity stream of a stated length (not in Node): an answer read from its readable side keeps
 * that Content-Length, where a TransformStream's is sent chunked; fewer or more bytes error it.
 */
declare const FixedLengthStream: (new (length: number) => TransformStream<Uint8Array, Uint8Array>) | undefined;

/** The host part of asset URLs: the binding reads only the path. */
const ASSET_ORIGIN = 'https://assets.invalid/';

/**
 * Content types of this service that Cloudflare compresses on its own (its documented list: JSON, HTML, CSS, plain text
 * and XML — robots.txt and the sitemap; not CSV, zip or problem+json).
 */
const CLOUDFLARE_COMPRESSES: ReadonlySet<string> = new Set(['application/json', 'text/html', 'text/css', 'text/plain', 'application/xml']);

/**
 * What Cloudflare does to an answer it may compress, from the client's Accept-Encoding, as its local runtime models the
 * edge: it reads `coding;q=value` elements with the coding in lower case (others ignored), takes them by falling q in
 * the client's order, skips q=0, and picks the first of gzip or br, stopping at identity. `gzip`/`br`: it recodes any
 * answer not already in that coding. `identity`: it strips a gzip or br Content-Encoding. `refuse`: identity is
 * excluded and nothing else is acceptable, so it answers 415 itself. `undefined`: nothing readable, it leaves the
 * answer as sent. An answer whose Content-Encoding is something else (`identity`) is always left as sent.
 */
export function cloudflareCoding(header: string | undefined): Encoding | 'refuse' | undefined {
  if (header === undefined) return undefined;
  const codings: { coding: string; q: number }[] = [];
  for (const part of header.split(',')) {
    // As the runtime reads an element: a coding in lower-case letters only (`GZIP` is not read at all), and any one
    // character between the digits of q (`q=0x5` is 0, as parseFloat reads it).
    const m = /^([a-z]+|\*)(?:\s*;\s*q=(\d+(?:.\d+)?))?$/.exec(part.trim());
    if (m !== null) codings.push({ coding: m[1] as string, q: m[2] === undefined ? 1 : parseFloat(m[2]) });
  }
  if (codings.length === 0) return undefined;
  let identityExcluded = false;
  for (const { coding, q } of codings.sort((a, b) => b.q - a.q)) {
    if (q === 0) {
      if (coding === 'identity' || coding === '*') identityExcluded = true;
    } else if (coding === 'gzip' || coding === 'br') return coding;
    else if (coding === 'identity') break;
  }
  return identityExcluded ? 'refuse' : 'identity';
}

interface Prepared {
  variant: Encoding;
  /** The asset files that hold the body, in order: one, or the parts of a body over Cloudflare's asset size limit. */
  files: readonly [AssetPart, ...AssetPart[]];
  bytes: number;
  etag: string;
  ok: Header[];
  notModified: Header[];
}

interface PreparedRoute {
  identity: Prepared;
  gzip: Prepared | undefined;
  br: Prepared | undefined;
  /** Cloudflare compresses this route's content type on its own. */
  compressible: boolean;
}

const encoder = new TextEncoder();
const EXPLICIT_IDENTITY: Header = ['Content-Encoding', 'identity'];

export function createEdgeWorker(data: EdgeData): EdgeWorker {
  const routes = new Map<string, EdgeRoute>(Object.entries(data.routes));
  const prepared = new Map<EdgeRoute, PreparedRoute>();
  const known = new Set(data.marketIds);
  /** What a 404 can point to (canonical paths, snapshot dates, the page a path means), made at the first miss. */
  let hints: PathHints | undefined;
  const lastModifiedMs = Date.parse(data.lastModified);
  const [notFoundFile, notFoundBytes] = data.notFoundPage;
  const accepts = new Map<string, Acceptable>();

  /** A route's answers, made once per route the first time it is asked for. */
  const prepare = (path: string, route: EdgeRoute): PreparedRoute => {
    const headers = data.headerSets[route.h] ?? [];
    const contentType = headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    const one = ([encoding, file, etag, bytes, partBytes]: EdgeRoute['v'][number]): Prepared => ({
      variant: encoding,
      files: assetParts(file, bytes, partBytes),
      bytes,
      etag,
      ok: okHeaders(headers, { encoding, etag, bytes }),
      notModified: notModifiedHeaders(headers, etag),
    });
    const of = (encoding: Encoding): Prepared | undefined => {
      const v = route.v.find(([e]) => e === encoding);
      return v === undefined ? undefined : one(v);
    };
    const identity = of('identity');
    if (identity === undefined) throw new Error(`${path} has no identity representation`);
    const ready = { identity, gzip: of('gzip'), br: of('br'), compressible: CLOUDFLARE_COMPRESSES.has(contentType.split(';')[0] ?? '') };
    prepared.set(route, ready);
    return ready;
  };
  const lookup = (path: string): PreparedRoute | undefined => {
    const route = routes.get(path);
    return route === undefined ? undefined : (prepared.get(route) ?? prepare(path, route));
  };

  const accept = (header: string | undefined): Acceptable => {
    if (header === undefined) return parseAcceptEncoding(undefined);
    let parsed = accepts.get(header);
    if (parsed === undefined) {
      if (accepts.size >= 256) accepts.clear();
      parsed = parseAcceptEncoding(header);
      accepts.set(header, parsed);
    }
    return parsed;
  };

  /**
   * The embedded server's choice, kept clear of Cloudflare's own compression: where Cloudflare would recode the
   * chosen representation, the one it picks is sent when the route has it and the client accepts it, else identity.
   */
  const choose = (route: PreparedRoute, acceptable: Acceptable, edge: Encoding | 'refuse' | undefined): Prepared => {
    const chosen = chooseEncoding(route, acceptable);
    if (edge === undefined || chosen.variant === 'identity' || chosen.variant === edge) return chosen;
    if (edge === 'identity' || edge === 'refuse') return route.identity;
    const theirs = route[edge];
    return theirs !== undefined && acceptable[edge] > 0 ? theirs : route.identity;
  };

  /** `encodeBody: 'manual'`: the bytes go out as they are, under the Content-Encoding the headers name (a Workers extension). */
  const answer = (status: number, headers: readonly Header[], body: ReadableStream | Uint8Array | null, head: boolean): Response =>
    new Response(head ? null : (body as ConstructorParameters<typeof Response>[0]), {
      status,
      headers: headers as unknown as HeadersInit,
      encodeBody: 'manual',
    } as ResponseInit);

  const problemResponse = (p: ProblemDetails, head: boolean, extra: readonly Header[] = []): Response => {
    const bytes = encoder.encode(problemText(p));
    return answer(p.status, problemHeaders(bytes.length, extra), bytes, head);
  };

  const asset = async (env: EdgeEnv, file: string): Promise<ReadableStream> => {
    const res = await env.ASSETS.fetch(ASSET_ORIGIN + file);
    if (res.status !== 200 || res.body === null) throw new Error(`the assets binding answered ${res.status} for ${file}`);
    return res.body;
  };

  /**
   * A body from its asset files: one file as the binding streams it; parts one after another into one stream. The first
   * file is opened before the answer starts (a missing one is a 500); a later part that fails cuts the body short, so
   * the client sees fewer bytes than Content-Length says, never other bytes.
   */
  const stored = async (env: EdgeEnv, [{ file }, ...rest]: readonly [AssetPart, ...AssetPart[]], bytes: number): Promise<ReadableStream> => {
    const first = await asset(env, file);
    if (rest.length === 0) return first;
    const { readable, writable } = typeof FixedLengthStream === 'function' ? new FixedLengthStream(bytes) : new TransformStream<Uint8Array, Uint8Array>();
    const send = async (): Promise<void> => {
      await first.pipeTo(writable, { preventClose: true });
      for (const part of rest) await (await asset(env, part.file)).pipeTo(writable, { preventClose: true });
      await writable.close();
    };
    send().catch((error: unknown) => {
      console.error(`answer cut short: ${(error as Error).message}`);
      writable.abort(error).catch(() => undefined);
    });
    return readable;
  };

  const handle = async (request: EdgeRequest, env: EdgeEnv): Promise<Response> => {
    const method = request.method;
    const head = method === 'HEAD';
    const url = request.url;
    // A Host the runtime passed on but the embedded server refuses (an empty label: `a..b`), before the target, as it does.
    const host = request.headers.get('host');
    if (host !== null && !validHost(host)) return problemResponse(badRequestProblem(data.baseUrl, HOST_VALUE_REASON), head);
    // The target as the platform passes it on (path and query of the absolute URL).
    const target = url.slice(url.indexOf('/', url.indexOf('//') + 2));
    const verdict = judgeRequest(method, target, lookup);
    const clientEncoding = request.cf?.clientAcceptEncoding ?? request.headers.get('accept-encoding') ?? undefined;
    const edge = cloudflareCoding(clientEncoding);
    // Cloudflare recodes answers of the types it compresses, and bodiless ones: those state their coding.
    const explicit = edge === 'gzip' || edge === 'br' || edge === 'refuse';
    switch (verdict.kind) {
      case 'route': {
        const route = verdict.route;
        const chosen = choose(route, accept(clientEncoding), edge);
        const conditions = {
          ifNoneMatch: request.headers.get('if-none-match') ?? undefined,
          ifModifiedSince: request.headers.get('if-modified-since') ?? undefined,
          imsInvalid: false,
        };
        if (notModified(conditions, chosen.etag, lastModifiedMs)) {
          return answer(304, explicit ? [...chosen.notModified, ['Content-Encoding', chosen.variant]] : chosen.notModified, null, true);
        }
        const headers = explicit && chosen.variant === 'identity' && route.compressible ? [...chosen.ok, EXPLICIT_IDENTITY] : chosen.ok;
        return answer(200, headers, head ? null : await stored(env, chosen.files, chosen.bytes), head);
      }
      case 'not_found': {
        hints ??= pathHints(routes.keys(), data.pageHints);
        const p = unknownPathProblem(data.baseUrl, verdict.path, known, data.marketIds, hints);
        if (p !== undefined) return problemResponse(p, head);
        // Outside /api/: the 404 page that names the page the path meant, where it means one.
        const meant = pageMeant(verdict.path, hints);
        const [file, bytes] = (meant === undefined ? undefined : data.hintPages[meant]) ?? [notFoundFile, notFoundBytes];
        const headers = notFoundPageHeaders(bytes);
        return answer(404, explicit ? [...headers, EXPLICIT_IDENTITY] : headers, head ? null : await stored(env, assetParts(file, bytes), bytes), head);
      }
      case 'preflight':
        return answer(204, explicit ? [...PREFLIGHT_HEADERS, EXPLICIT_IDENTITY] : PREFLIGHT_HEADERS, null, true);
      case 'bad_request':
        return problemResponse(badRequestProblem(data.baseUrl, verdict.reason), head);
      case 'method_not_allowed':
        return problemResponse(methodProblem(data.baseUrl, method, verdict.path), false, [ALLOW]);
    }
  };

  const internalError = encoder.encode(problemText(problem('', 'internal_server_error')));
  return {
    async fetch(request, env) {
      try {
        return await handle(request, env);
      } catch (error) {
        console.error(`internal error: ${(error as Error).stack ?? String(error)}`);
        return answer(500, internalErrorHeaders(internalError.length), internalError, request.method === 'HEAD');
      }
    },
  };
}
