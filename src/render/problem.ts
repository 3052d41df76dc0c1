// Renders RFC 9457 problem details: the one error shape every path and every engine answers with.
import { PATHS } from '../paths.ts';

export type ProblemCode = 'market_not_found' | 'not_found' | 'method_not_allowed' | 'bad_request';

export const PROBLEMS: Record<ProblemCode, { status: number; title: string }> = {
  bad_request: { status: 400, title: 'Bad request' },
  not_found: { status: 404, title: 'Not found' },
  market_not_found: { status: 404, title: 'Market not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
};

export const problemType = (baseUrl: string, code: ProblemCode): string => `${baseUrl}${PATHS.dataCatalog}#problem-${code.replaceAll('_', '-')}`;

/**
 * Only a path made of unreserved characters and slashes is echoed back as `instance`; anything else
 * is left out rather than escaped, so an error body never carries request bytes that need escaping.
 */
const SAFE_PATH = /^\/[A-Za-z0-9._~/-]{0,255}$/;
const SAFE_SEGMENT = /^[A-Za-z0-9._~-]{1,128}$/;
export const echoablePath = (path: string): boolean => SAFE_PATH.test(path);
export const echoableSegment = (segment: string): boolean => SAFE_SEGMENT.test(segment);

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  code: ProblemCode;
  [extension: string]: unknown;
}

export function problem(baseUrl: string, code: ProblemCode, detail: string, path?: string, extensions: Record<string, unknown> = {}): ProblemDetails {
  const { status, title } = PROBLEMS[code];
  return {
    type: problemType(baseUrl, code),
    title,
    status,
    detail,
    ...(path !== undefined && echoablePath(path) ? { instance: path } : {}),
    code,
    ...extensions,
  };
}

/** The answer to an unknown market id on the JSON or CSV path: echo the id, list the known ones. */
export function marketNotFound(baseUrl: string, id: string, path: string, knownIds: readonly string[]): ProblemDetails {
  const echo = echoableSegment(id);
  return problem(
    baseUrl,
    'market_not_found',
    echo ? `There is no market with id "${id}". Market ids are lower case, of the form us-<state code>-<city slug>.` : 'There is no market with that id. Market ids are lower case, of the form us-<state code>-<city slug>.',
    path,
    { ...(echo ? { marketId: id } : {}), knownMarketIds: knownIds, index: baseUrl + PATHS.index },
  );
}
