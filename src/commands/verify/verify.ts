// `market-profiles verify <base-url>`: checks any running deployment against the contract from what it serves, trusting nothing it was meant to serve.
import { normalizeBaseUrl, type VerifyConfig } from '../config.ts';
import { renderJson } from '../../contract/json.ts';
import { BULK_CSV_FILENAME, Faults, TYPES, expectRepresentation, expectResponse, isObject, marketCsvFilename } from './expect.ts';
import { checkDataPackage, checkOpenApi } from './descriptions.ts';
import { createProbe, type Probe } from './http.ts';
import { checkLinks, jsonLinks, pageLinks } from './links.ts';
import { checkCompression, checkConditional, checkErrors } from './protocol.ts';
import { checkDescriptor, checkIndex, checkProfile, expectAttachment, readCsv, schemaFaults, servedSchema, tieCsv } from './resources.ts';

export interface CheckResult {
  name: string;
  ok: boolean;
  /** What held (PASS) or the faults found (FAIL). */
  detail: string;
  faults: string[];
}

export interface VerifyReport {
  baseUrl: string;
  ok: boolean;
  passed: number;
  failed: number;
  checks: CheckResult[];
}

export interface VerifyOptions {
  concurrency?: number;
  timeoutMs?: number;
}

const SHOWN_FAULTS = 3;

const result = (name: string, faults: readonly string[], detail: string): CheckResult => ({
  name,
  ok: faults.length === 0,
  detail:
    faults.length === 0
      ? detail
      : `${faults.slice(0, SHOWN_FAULTS).join('; ')}${faults.length > SHOWN_FAULTS ? ` (+${faults.length - SHOWN_FAULTS} more)` : ''}`,
  faults: [...faults],
});

/** Runs a check body; an exception (timeout, refused connection) is a fault of that check, not a crash. */
async function run<T>(f: Faults, body: () => Promise<T>): Promise<T | undefined> {
  try {
    return await body();
  } catch (error) {
    f.add((error as Error).message);
    return undefined;
  }
}

async function verifyWith(probe: Probe): Promise<CheckResult[]> {
  const checks: CheckResult[] = [];
  const fIndex = new Faults();
  const index = await run(fIndex, () => checkIndex(probe, fIndex));
  const facts = index?.facts;
  checks.push(result('index /api/markets', fIndex.list, `${facts?.ids.length ?? 0} markets, application/json, constants, sorted unique ids`));
  if (facts === undefined) return checks;

  const fSchema = new Faults();
  const validateProfile = await run(fSchema, () => servedSchema(probe, fSchema, '/api/schema/market-profile'));
  checks.push(result('schema /api/schema/market-profile', fSchema.list, 'served, draft-07, compiles with Ajv'));
  const fIndexSchema = new Faults();
  const validateIndex = await run(fIndexSchema, () => servedSchema(probe, fIndexSchema, '/api/schema/market-index'));
  if (validateIndex !== undefined) for (const fault of schemaFaults(validateIndex, index?.doc, '/api/markets')) fIndexSchema.add(fault);
  checks.push(result('schema /api/schema/market-index', fIndexSchema.list, 'served, compiles, and the index validates against it'));
  const fDescriptor = new Faults();
  await run(fDescriptor, () => checkDescriptor(probe, fDescriptor));
  checks.push(result('descriptor /api/schema/market-csv', fDescriptor.list, 'eleven columns in contract order, types and constants'));
  const fOpenApi = new Faults();
  const described = await run(fOpenApi, () => checkOpenApi(probe, fOpenApi, facts.ids));
  checks.push(
    result(
      'OpenAPI /api/openapi',
      fOpenApi.list,
      `OpenAPI 3.1, ${described ?? 0} paths each answering its declared content type, the market ids of the index, the served schemas as components`,
    ),
  );
  const fPackage = new Faults();
  const pkg = await run(fPackage, () => checkDataPackage(probe, fPackage, facts.ids));
  checks.push(
    result(
      'Data Package /api/datapackage',
      fPackage.list,
      `tabular-data-package, ${pkg?.resources ?? 0} CSV resources whose bytes (${pkg?.bytes ?? 0} in all) and SHA-256 equal what is served`,
    ),
  );

  // Every market of the index: JSON, CSV tied to it, page.
  const perMarket = await Promise.all(
    facts.ids.map(async (id) => {
      const fJson = new Faults();
      const fCsv = new Faults();
      const fPage = new Faults();
      const entry = facts.entries.get(id) ?? {};
      const links = isObject(entry.links) ? entry.links : {};
      fJson.expect(links.json === `${probe.baseUrl}/api/markets/${id}`, `index links.json of ${id} is ${JSON.stringify(links.json)}`);
      fCsv.expect(links.csv === `${probe.baseUrl}/api/markets/${id}/csv`, `index links.csv of ${id} is ${JSON.stringify(links.csv)}`);
      const profile = await run(fJson, async () => checkProfile(fJson, await probe.fetch(`/api/markets/${id}`), id, validateProfile, probe.baseUrl));
      if (profile !== undefined) {
        const p = isObject(profile.doc.profile) ? profile.doc.profile : {};
        fJson.expect(
          entry.updatedDate === p.updatedDate,
          `the index says ${id} was updated ${String(entry.updatedDate)}, the profile ${String(p.updatedDate)}`,
        );
        fJson.expect(JSON.stringify(entry.scores) === JSON.stringify(p.scores), `the index scores of ${id} differ from the profile's`);
      }
      const rows = await run(fCsv, async () => {
        const res = await probe.fetch(`/api/markets/${id}/csv`);
        if (!expectResponse(fCsv, res, 200, TYPES.csv)) return undefined;
        expectRepresentation(fCsv, res);
        expectAttachment(fCsv, res, marketCsvFilename(id));
        const read = readCsv(fCsv, res, `/api/markets/${id}/csv`);
        if (read !== undefined && profile !== undefined) tieCsv(fCsv, read, profile, `/api/markets/${id}/csv`);
        if (profile === undefined) fCsv.add(`cannot tie the CSV of ${id} to its JSON, which could not be read`);
        return read;
      });
      const pageUrl = profile !== undefined && isObject(profile.doc.links) ? String(profile.doc.links.html) : `${probe.baseUrl}/markets/${id}`;
      const html = await run(fPage, async () => {
        const res = await probe.fetch(pageUrl);
        if (!expectResponse(fPage, res, 200, TYPES.html)) return undefined;
        expectRepresentation(fPage, res);
        return res.body.toString('utf8');
      });
      return {
        id,
        profile,
        rows,
        pageUrl,
        html,
        results: [
          result(`market ${id} JSON`, fJson.list, `application/json, valid against the served schema, ${Object.keys(profile?.metrics ?? {}).length} metrics`),
          result(`market ${id} CSV`, fCsv.list, `text/csv; charset=utf-8, ${marketCsvFilename(id)}, RFC 4180, ${rows?.length ?? 0} rows tied to the JSON`),
          result(`market ${id} page`, fPage.list, 'text/html; charset=utf-8'),
        ],
      };
    }),
  );
  for (const m of perMarket) checks.push(...m.results);

  const fBulk = new Faults();
  await run(fBulk, async () => {
    const res = await probe.fetch('/api/markets/csv');
    if (!expectResponse(fBulk, res, 200, TYPES.csv)) return;
    expectRepresentation(fBulk, res);
    expectAttachment(fBulk, res, BULK_CSV_FILENAME);
    const rows = readCsv(fBulk, res, '/api/markets/csv');
    if (rows === undefined) return;
    const union = perMarket
      .flatMap((m) => m.rows ?? [])
      .sort((a, b) => {
        const [x, y] = [`${a[0] ?? ''}\u0000${a[2] ?? ''}`, `${b[0] ?? ''}\u0000${b[2] ?? ''}`];
        return x < y ? -1 : x > y ? 1 : 0;
      });
    const line = (r: readonly string[]): string => JSON.stringify(r);
    const first = rows.findIndex((r, i) => line(r) !== line(union[i] ?? []));
    fBulk.expect(
      rows.length === union.length && first === -1,
      `the bulk CSV differs from the sorted union of the market CSVs (${rows.length} vs ${union.length} rows${first === -1 ? '' : `; first difference at line ${first + 2}: ${rows[first]?.join(',') ?? '(missing)'}`})`,
    );
  });
  checks.push(result('bulk CSV /api/markets/csv', fBulk.list, `text/csv; charset=utf-8, ${BULK_CSV_FILENAME}, equals the sorted union of the market CSVs`));

  const fErrors = new Faults();
  const errors = await run(fErrors, () => checkErrors(probe, facts.ids));
  for (const e of errors?.checks ?? []) checks.push(result(e.name, e.faults.list, e.detail));
  if (errors === undefined) checks.push(result('errors', fErrors.list, ''));

  const representations = [
    '/api/markets',
    '/api/markets/csv',
    '/api/schema/market-profile',
    '/api/openapi',
    '/api/datapackage',
    ...facts.ids.flatMap((id) => [`/api/markets/${id}`, `/api/markets/${id}/csv`]),
  ];
  const fConditional = new Faults();
  await run(fConditional, () => checkConditional(probe, fConditional, representations));
  checks.push(
    result(
      'ETag and If-None-Match',
      fConditional.list,
      `${representations.length} resources, identity and gzip: a 304 without a body for the current ETag, distinct ETags per encoding`,
    ),
  );
  const fCompression = new Faults();
  await run(fCompression, () => checkCompression(probe, fCompression, representations));
  checks.push(
    result(
      'compression and Vary',
      fCompression.list,
      `${representations.length} resources: gzip and br offered and equal to the identity bytes, q=0 refused, Vary: Accept-Encoding`,
    ),
  );

  const fLinks = new Faults();
  const summary = await run(fLinks, async () => {
    const links: [string, string][] = [...jsonLinks(index?.doc, '/api/markets')];
    for (const m of perMarket) if (m.profile !== undefined) links.push(...jsonLinks(m.profile.doc, `/api/markets/${m.id}`));
    // A problem's type names where the error is documented, and a market_not_found points at the index.
    for (const p of errors?.problems ?? [])
      for (const key of ['type', 'index']) if (typeof p[key] === 'string') links.push([p[key] as string, `problem ${String(p.code)} ${key}`]);
    const fromJson = new Set(links.map(([href]) => href));
    // The pages the JSON names are read too, and their own links followed.
    const pages = new Map(perMarket.filter((m) => m.html !== undefined).map((m) => [m.pageUrl, m.html as string]));
    for (const href of fromJson) {
      const url = href.split('#')[0] ?? href;
      if (!url.startsWith(`${probe.baseUrl}/`) || pages.has(url) || url.includes('/api/')) continue;
      const res = await probe.fetch(url);
      if (res.status === 200 && res.headers['content-type'] === TYPES.html) pages.set(url, res.body.toString('utf8'));
    }
    for (const [url, html] of pages) links.push(...pageLinks(html, url));
    return checkLinks(probe, fLinks, links, fromJson);
  });
  checks.push(result('links', fLinks.list, summary ?? ''));
  return checks;
}

export async function verifyDeployment(baseUrl: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const probe = createProbe(normalizeBaseUrl(baseUrl), options);
  try {
    const checks = await verifyWith(probe);
    const failed = checks.filter((c) => !c.ok).length;
    return { baseUrl: probe.baseUrl, ok: failed === 0, passed: checks.length - failed, failed, checks };
  } finally {
    probe.close();
  }
}

export function formatReport(report: VerifyReport): string {
  const lines = report.checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  return `verify ${report.baseUrl}\n${lines.join('\n')}\n${report.checks.length} checks: ${report.passed} passed, ${report.failed} failed\n`;
}

/** The `verify` subcommand: the report on stdout (text, or JSON with --json); exit code 0 only when every check passed. */
export async function verifyCommand(args: readonly string[], options: VerifyConfig): Promise<number> {
  const target = args[0];
  if (target === undefined) {
    process.stderr.write('usage: market-profiles verify <base-url> [--json] [--concurrency N] [--timeout-ms N]\n');
    return 2;
  }
  const report = await verifyDeployment(target, { concurrency: options.concurrency, timeoutMs: options.timeoutMs });
  process.stdout.write(options.json ? renderJson(report) : formatReport(report));
  return report.ok ? 0 : 1;
}
