// What a request asks for, decided in one order by every engine that runs code (the embedded server, the edge Worker): target form, path rules, route, method.
import { ORIGIN_FORM_REASON, classifyPath, type PathVerdict } from './request-target.ts';

export type RequestVerdict<R> =
  /** GET or HEAD on a route. */
  | { kind: 'route'; route: R }
  /** OPTIONS on a route, or `OPTIONS *`: the CORS preflight (204). */
  | { kind: 'preflight' }
  /** GET, HEAD or OPTIONS on a path with no route: the 404 its path earns (HTML page, market_not_found or not_found). */
  | { kind: 'not_found'; path: string }
  /** A target that is not a usable path (400), with the rule's reason. */
  | { kind: 'bad_request'; reason: string }
  /** Any other method (405 with Allow), on a route or not. */
  | { kind: 'method_not_allowed'; path: string };

const PREFLIGHT: RequestVerdict<never> = { kind: 'preflight' };

/**
 * Decides a request from its method and raw target (path and query, as sent). The exact path is looked up first, so
 * a route costs one lookup; anything else is classified by the path rules (decoded once, safely) and looked up again.
 * Query strings are ignored. The order is the contract: a bad target is 400 whatever the method, then the method.
 * `classify` is the path rules; an engine may pass a cached copy of them, so a repeated miss is not decoded again.
 */
export function judgeRequest<R>(
  method: string,
  target: string,
  lookup: (path: string) => R | undefined,
  classify: (raw: string) => PathVerdict = classifyPath,
): RequestVerdict<R> {
  if (target.charCodeAt(0) !== 47 /* "/" */) {
    return method === 'OPTIONS' && target === '*' ? PREFLIGHT : { kind: 'bad_request', reason: ORIGIN_FORM_REASON };
  }
  const q = target.indexOf('?');
  const raw = q === -1 ? target : target.slice(0, q);
  let route = lookup(raw);
  let path = raw;
  if (route === undefined) {
    const verdict = classify(raw);
    if (verdict.kind === 'bad_request') return verdict;
    path = verdict.path;
    route = verdict.kind === 'route' ? lookup(path) : undefined;
  }
  if (method === 'GET' || method === 'HEAD') return route === undefined ? { kind: 'not_found', path } : { kind: 'route', route };
  if (method === 'OPTIONS') return route === undefined ? { kind: 'not_found', path } : PREFLIGHT;
  return { kind: 'method_not_allowed', path };
}
