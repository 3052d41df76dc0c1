// `verify --manifest`: a deployment held to the build it should serve, byte for byte: every route's every variant has the SHA-256 the build's manifest records, so a file replaced after the build (nginx and the Worker serve files as they find them) is named before it goes live.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Manifest } from '../../artifact/manifest.ts';
import { nestsDeeperThan } from '../../contract/untrusted.ts';
import { Faults, decoded, isObject } from './expect.ts';
import { headerValue as header, type Probe } from './http.ts';

/** What verify needs of a manifest, read from the file and checked for its shape; throws a one-line reason otherwise. */
export function readManifest(file: string): Manifest {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the manifest ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let doc: unknown;
  try {
    doc = nestsDeeperThan(text) ? undefined : JSON.parse(text);
  } catch {
    doc = undefined;
  }
  const routes = isObject(doc) && Array.isArray(doc.routes) ? doc.routes : [];
  const variantOk = (v: unknown): boolean =>
    isObject(v) && ['identity', 'gzip', 'br'].includes(String(v.encoding)) && Number.isSafeInteger(v.bytes) && /^[0-9a-f]{64}$/.test(String(v.sha256));
  const routeOk = (r: unknown): boolean =>
    isObject(r) && typeof r.path === 'string' && r.path.startsWith('/') && Array.isArray(r.variants) && r.variants.length > 0 && r.variants.every(variantOk);
  if (
    !isObject(doc) ||
    typeof doc.baseUrl !== 'string' ||
    routes.length === 0 ||
    !routes.every(routeOk) ||
    !variantOk({ encoding: 'identity', ...(isObject(doc.notFoundPage) ? doc.notFoundPage : {}) })
  )
    throw new Error(`${file} is not a manifest a build wrote (dist/manifest.json: baseUrl, routes with their variants' bytes and SHA-256)`);
  return doc as unknown as Manifest;
}

/** Each route's largest file (its identity bytes), by path: no answer at that path may be larger. */
export const manifestSizes = (m: Manifest): Map<string, number> => new Map(m.routes.map((r) => [r.path, Math.max(...r.variants.map((v) => v.bytes))]));

const sha256 = (body: Buffer): string => createHash('sha256').update(body).digest('hex');
const short = (hash: string): string => `${hash.slice(0, 12)}…`;

/** A path no deployment serves, so its answer is the HTML 404 page the build wrote. */
const NO_SUCH_PAGE = '/verify-manifest-no-such-page';

/**
 * Every variant of every route the manifest lists, asked for in its coding, against the manifest's bytes and SHA-256. A
 * compressed answer that is not the build's file passes only when it decompresses to the build's identity bytes (a CDN
 * that compresses itself); any other difference names the path and the coding. Then the 404 page.
 */
export async function checkManifest(probe: Probe, f: Faults, m: Manifest): Promise<number> {
  if (!f.expect(m.baseUrl === probe.baseUrl, `the manifest was built with BASE_URL=${m.baseUrl}, the deployment's is ${probe.baseUrl}: every byte differs`))
    return 0;
  const checks = m.routes.flatMap((route) => {
    const identity = route.variants.find((v) => v.encoding === 'identity');
    return route.variants.map(async (v) => {
      const res = await probe.fetch(route.path, {
        headers: { 'accept-encoding': v.encoding },
        keep: (headers) => headers['content-encoding'] !== undefined && v.encoding !== 'identity',
      });
      const what = `GET ${route.path} (${v.encoding})`;
      if (!f.expect(res.status === 200, `${what} answered ${res.status}, expected 200`)) return;
      const coding = header(res, 'content-encoding')?.toLowerCase();
      const built = (bytes: number, hash: string): boolean => res.bytes === bytes && res.sha256 === hash;
      if (coding === v.encoding && v.encoding !== 'identity' && !built(v.bytes, v.sha256)) {
        // Not the build's file: the build's identity bytes compressed by the engine itself, or not the build's at all.
        let same = false;
        try {
          same = identity !== undefined && sha256(decoded(res, identity.bytes)) === identity.sha256;
        } catch {
          same = false;
        }
        f.expect(
          same,
          `${what} is not the build's: ${res.bytes} bytes, SHA-256 ${short(res.sha256)}; the manifest's file ${v.file} has ${v.bytes} bytes, ${short(v.sha256)}, and it does not decompress to the build's identity bytes`,
        );
        return;
      }
      // An engine that sent no coding sent the identity bytes; one that did, the variant's.
      const expected = coding === undefined || coding === 'identity' ? identity : v;
      if (expected === undefined) return;
      f.expect(
        built(expected.bytes, expected.sha256),
        `${what} is not the build's: ${res.bytes} bytes, SHA-256 ${short(res.sha256)}; the manifest's file ${expected.file} has ${expected.bytes} bytes, ${short(expected.sha256)}`,
      );
    });
  });
  await Promise.all(checks);
  const page = await probe.fetch(NO_SUCH_PAGE, { headers: { 'accept-encoding': 'identity' }, keep: false });
  f.expect(
    page.status === 404 && page.sha256 === m.notFoundPage.sha256,
    `GET ${NO_SUCH_PAGE} answered ${page.status} with ${page.bytes} bytes, SHA-256 ${short(page.sha256)}; the build's 404 page ${m.notFoundPage.file} has ${m.notFoundPage.bytes}, ${short(m.notFoundPage.sha256)}`,
  );
  return checks.length + 1;
}
