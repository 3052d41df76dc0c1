// The HTTP checks of `verify`: error shapes, ETag revalidation and compression negotiation, on what the deployment answers.
import { API_PREFIX } from '../../contract/endpoints.ts';
import { PATHS } from '../../contract/paths.ts';
import { Faults, TYPES, PROBE_UNKNOWN_MARKET, decoded, requestText, expectResponse, isObject, readJsonBody, varies } from './expect.ts';
import { headerValue, type Probe, type Fetched } from './http.ts';

function expectProblem(f: Faults, res: Fetched, status: number, code: string): Record<string, unknown> | undefined {
  if (!expectResponse(f, res, status, TYPES.problem)) return undefined;
  const doc = readJsonBody(f, res);
  if (!f.expect(isObject(doc), `${requestText(res)}: the problem body is not a JSON object`) || !isObject(doc)) return undefined;
  for (const key of ['type', 'title', 'detail']) f.expect(typeof doc[key] === 'string', `${requestText(res)}: problem has no string "${key}"`);
  f.expect(doc.status === status, `${requestText(res)}: problem status is ${JSON.stringify(doc.status)}, expected ${status}`);
  f.expect(doc.code === code, `${requestText(res)}: problem code is ${JSON.stringify(doc.code)}, expected ${JSON.stringify(code)}`);
  return doc;
}

/** docs/contract.md 7: unknown market → 404 market_not_found listing the known ids; unknown path → 404; other methods → 405 with Allow. */
export async function checkErrors(
  probe: Probe,
  knownIds: readonly string[],
): Promise<{ checks: { name: string; faults: Faults; detail: string }[]; problems: Record<string, unknown>[] }> {
  const problems: Record<string, unknown>[] = [];
  const market = new Faults();
  for (const path of [PATHS.profile(PROBE_UNKNOWN_MARKET), PATHS.marketCsv(PROBE_UNKNOWN_MARKET)]) {
    const doc = expectProblem(market, await probe.fetch(path), 404, 'market_not_found');
    if (doc === undefined) continue;
    problems.push(doc);
    const listed = Array.isArray(doc.knownMarketIds) ? doc.knownMarketIds.map(String) : [];
    market.expect(listed.join(',') === [...knownIds].sort().join(','), `GET ${path}: knownMarketIds ${JSON.stringify(listed)} differ from the index's ids`);
    market.expect(doc.marketId === PROBE_UNKNOWN_MARKET, `GET ${path}: marketId is ${JSON.stringify(doc.marketId)}, expected the requested id echoed`);
  }
  const path = new Faults();
  const notFound = expectProblem(path, await probe.fetch(`${API_PREFIX}/verify-no-such-path`), 404, 'not_found');
  if (notFound !== undefined) problems.push(notFound);
  const page = await probe.fetch('/verify-no-such-page');
  path.expect(page.status === 404, `GET /verify-no-such-page answered ${page.status}, expected 404`);
  const method = new Faults();
  for (const target of [PATHS.index, PATHS.profile(knownIds[0] ?? PROBE_UNKNOWN_MARKET)]) {
    const res = await probe.fetch(target, { method: 'POST', headers: { 'Content-Length': '0' } });
    const doc = expectProblem(method, res, 405, 'method_not_allowed');
    if (doc !== undefined) problems.push(doc);
    const allow = (headerValue(res, 'allow') ?? '').split(',').map((t) => t.trim().toUpperCase());
    method.expect(
      allow.includes('GET') && allow.includes('HEAD'),
      `POST ${target}: Allow is ${JSON.stringify(headerValue(res, 'allow') ?? null)}, expected GET, HEAD`,
    );
  }
  return {
    problems,
    checks: [
      {
        name: 'errors: unknown market',
        faults: market,
        detail: '404 application/problem+json, code market_not_found, id echoed, known ids listed (JSON and CSV paths)',
      },
      { name: 'errors: unknown path', faults: path, detail: '404 problem+json not_found under /api/, 404 elsewhere' },
      { name: 'errors: method not allowed', faults: method, detail: 'POST answers 405 problem+json with Allow: GET, HEAD' },
    ],
  };
}

/** Each representation's ETag revalidates to a 304 without a body; gzip and identity carry different ETags. */
export async function checkConditional(probe: Probe, f: Faults, paths: readonly string[]): Promise<void> {
  await Promise.all(
    paths.map(async (path) => {
      for (const encoding of ['identity', 'gzip']) {
        const first = await probe.fetch(path, { headers: { 'Accept-Encoding': encoding } });
        const etag = headerValue(first, 'etag');
        if (
          !f.expect(first.status === 200 && etag !== undefined, `GET ${path} (${encoding}): ${first.status} without an ETag to revalidate`) ||
          etag === undefined
        )
          continue;
        const again = await probe.fetch(path, { headers: { 'Accept-Encoding': encoding, 'If-None-Match': etag } });
        f.expect(again.status === 304, `GET ${path} with If-None-Match ${etag} answered ${again.status}, expected 304`);
        f.expect(again.body.length === 0, `GET ${path} 304 carries a body`);
        f.expect(headerValue(again, 'etag') === etag, `GET ${path} 304 has ETag ${headerValue(again, 'etag') ?? 'none'}, expected ${etag}`);
      }
      const [plain, gzip] = await Promise.all([probe.fetch(path), probe.fetch(path, { headers: { 'Accept-Encoding': 'gzip' } })]);
      if (headerValue(gzip, 'content-encoding') === 'gzip') {
        f.expect(
          headerValue(plain, 'etag') !== headerValue(gzip, 'etag'),
          `GET ${path}: the gzip and identity representations share the ETag ${headerValue(plain, 'etag') ?? ''}`,
        );
      }
    }),
  );
}

/** gzip and br are offered, decompress to the identity bytes, q=0 refuses, and Vary: Accept-Encoding is always there. */
export async function checkCompression(probe: Probe, f: Faults, paths: readonly string[]): Promise<void> {
  await Promise.all(
    paths.map(async (path) => {
      const identity = await probe.fetch(path);
      if (!f.expect(identity.status === 200, `GET ${path} answered ${identity.status}`)) return;
      for (const [accept, want] of [
        ['gzip', 'gzip'],
        ['br', 'br'],
        ['gzip;q=0, br;q=0', 'identity'],
        ['identity', 'identity'],
      ] as const) {
        const res = await probe.fetch(path, { headers: { 'Accept-Encoding': accept } });
        const got = (headerValue(res, 'content-encoding') ?? 'identity').toLowerCase();
        f.expect(got === want, `GET ${path} with Accept-Encoding: ${accept} answered ${got}, expected ${want}`);
        f.expect(varies(res), `GET ${path} with Accept-Encoding: ${accept} lacks Vary: Accept-Encoding`);
        try {
          f.expect(decoded(res, identity.body.length).equals(identity.body), `GET ${path} ${got}: the decompressed bytes differ from the identity bytes`);
        } catch (error) {
          f.add(`GET ${path} ${got}: ${(error as Error).message}`);
        }
      }
    }),
  );
}
