// The checks `verify` runs, as tables: each check's name, the body that fills its faults, and what a PASS says; one loop runs them in order.
import { ENDPOINTS, contractDocumentPaths, describedDocuments, gatheringCsvs } from '../../contract/endpoints.ts';
import type { JsonDescriberId } from '../../contract/documents.ts';
import { keysOf } from '../../contract/records.ts';
import type { ValidateFunction } from 'ajv';
import { checkDataPackage, checkOpenApi } from './descriptions.ts';
import { Faults, TYPES, expectRepresentation, expectResponse, isObject, marketCsvFilename, readJsonBody } from './expect.ts';
import type { Probe } from './http.ts';
import { checkDeploymentLinks } from './links.ts';
import { checkManifest } from './manifest.ts';
import type { Manifest } from '../../artifact/manifest.ts';
import { checkCompression, checkConditional, checkErrors } from './protocol.ts';
import { checkBulkSeries, checkDownload, checkSeries, checkVintages } from './history.ts';
import {
  checkBulkCsv,
  checkDescriptor,
  checkIndex,
  checkProfile,
  expectAttachment,
  readCsv,
  schemaFaults,
  servedSchema,
  tieCsv,
  type IndexFacts,
  type Profile,
} from './resources.ts';

export interface CheckResult {
  name: string;
  ok: boolean;
  /** What held (PASS) or the faults found (FAIL). */
  detail: string;
  faults: string[];
}

/**
 * One check. The body fills `f` with what is wrong and returns what the detail needs; a throw (a timeout, a refused
 * connection) is a fault of the check, not a crash. The detail is what a PASS says; a FAIL shows the faults instead.
 */
interface Check<C, T> {
  name: string;
  body(f: Faults, on: C): Promise<T>;
  detail(value: T | undefined, on: C): string;
}

/** Several checks with one body: the markets' checks, and the error checks (one body, a result for each kind of error). */
interface Group<C> {
  group(on: C): Promise<CheckResult[]>;
}

/** A row of a table: checks of different value types (each typed where it is written, by check() or marketCheck()), or a group. */
type Entry<C> = Check<C, unknown> | Group<C>;

/** What the checks after the index share: the probe, the index, and what earlier checks found for later ones. */
interface Found {
  probe: Probe;
  indexDoc: unknown;
  facts: IndexFacts;
  /** The served profile schema, compiled; the market JSON checks validate against it. */
  validateProfile?: ValidateFunction;
  /** The served series and vintage index schemas, compiled. */
  validateSeries?: ValidateFunction;
  validateVintages?: ValidateFunction;
  /** One record per market of the index, in its order, filled by the market checks. */
  markets: Market[];
  /** The problem bodies the error checks received; their links are followed too. */
  problems: Record<string, unknown>[];
}

/** One market of the index, and what its checks found (the CSV is tied to the JSON, the page is the JSON's link). */
interface Market {
  id: string;
  /** Its entry in the index. */
  entry: Record<string, unknown>;
  profile?: Profile;
  rows?: string[][];
  seriesRows?: string[][];
  page?: { url: string; html: string };
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

/** Runs a body; an exception is a fault of that check, not a crash. */
async function attempt<T>(f: Faults, body: () => Promise<T>): Promise<T | undefined> {
  try {
    return await body();
  } catch (error) {
    f.add((error as Error).message);
    return undefined;
  }
}

async function runCheck<C, T>(check: Check<C, T>, on: C, prefix = ''): Promise<{ result: CheckResult; value: T | undefined }> {
  const f = new Faults();
  const value = await attempt(f, () => check.body(f, on));
  return { result: result(`${prefix}${check.name}`, f.list, check.detail(value, on)), value };
}

/** The one loop: the entries in order, one after another, since later ones read what earlier ones found. */
async function runChecks<C>(entries: readonly Entry<C>[], on: C, prefix = ''): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const entry of entries) {
    if ('group' in entry) results.push(...(await entry.group(on)));
    else results.push((await runCheck(entry, on, prefix)).result);
  }
  return results;
}

/** What a market's checks run on: the market, and what the checks before the markets found. */
type OnMarket = [Market, Found];

const check = <T>(name: string, body: Check<Found, T>['body'], detail: Check<Found, T>['detail']): Check<Found, T> => ({ name, body, detail });
const marketCheck = <T>(name: string, body: Check<OnMarket, T>['body'], detail: Check<OnMarket, T>['detail']): Check<OnMarket, T> => ({ name, body, detail });

/** Every market of the index: its JSON, its CSV tied to the JSON, its page; named `market <id> JSON` and so on. */
const MARKET_CHECKS: readonly Entry<OnMarket>[] = [
  marketCheck(
    'JSON',
    async (f, [m, { probe, validateProfile }]) => {
      const links = isObject(m.entry.links) ? m.entry.links : {};
      f.expect(links.json === `${probe.baseUrl}${ENDPOINTS.profile.path(m.id)}`, `index links.json of ${m.id} is ${JSON.stringify(links.json)}`);
      const profile = checkProfile(f, await probe.fetch(ENDPOINTS.profile.path(m.id)), m.id, validateProfile, probe.baseUrl);
      m.profile = profile;
      if (profile === undefined) return undefined;
      const p = isObject(profile.doc.profile) ? profile.doc.profile : {};
      f.expect(
        m.entry.updatedDate === p.updatedDate,
        `the index says ${m.id} was updated ${String(m.entry.updatedDate)}, the profile ${String(p.updatedDate)}`,
      );
      f.expect(JSON.stringify(m.entry.scores) === JSON.stringify(p.scores), `the index scores of ${m.id} differ from the profile's`);
      return profile;
    },
    (profile) => `application/json, valid against the served schema, ${Object.keys(profile?.metrics ?? {}).length} metrics`,
  ),
  marketCheck(
    'CSV',
    async (f, [m, { probe }]) => {
      const links = isObject(m.entry.links) ? m.entry.links : {};
      f.expect(links.csv === `${probe.baseUrl}${ENDPOINTS.marketCsv.path(m.id)}`, `index links.csv of ${m.id} is ${JSON.stringify(links.csv)}`);
      const path = ENDPOINTS.marketCsv.path(m.id);
      const res = await probe.fetch(path);
      if (!expectResponse(f, res, 200, TYPES.csv)) return undefined;
      expectRepresentation(f, res);
      expectAttachment(f, res, marketCsvFilename(m.id));
      const rows = readCsv(f, res, path);
      if (rows !== undefined && m.profile !== undefined) tieCsv(f, rows, m.profile, path);
      if (m.profile === undefined) f.add(`cannot tie the CSV of ${m.id} to its JSON, which could not be read`);
      m.rows = rows;
      return rows;
    },
    (rows, [m]) => `text/csv; charset=utf-8, ${marketCsvFilename(m.id)}, RFC 4180, ${rows?.length ?? 0} rows tied to the JSON`,
  ),
  marketCheck(
    'series',
    async (f, [m, { probe, validateSeries }]) => {
      const links = isObject(m.entry.links) ? m.entry.links : {};
      f.expect(links.series === `${probe.baseUrl}${ENDPOINTS.series.path(m.id)}`, `index links.series of ${m.id} is ${JSON.stringify(links.series)}`);
      m.seriesRows = await checkSeries(probe, f, m.id, validateSeries, m.profile);
      return m.seriesRows;
    },
    (rows) => `JSON valid against the served schema and holding each profile value at its period; CSV of ${rows?.length ?? 0} rows tied to it`,
  ),
  marketCheck(
    'page',
    async (f, [m, { probe }]) => {
      const url = m.profile !== undefined && isObject(m.profile.doc.links) ? String(m.profile.doc.links.html) : `${probe.baseUrl}/markets/${m.id}`;
      const res = await probe.fetch(url);
      if (!expectResponse(f, res, 200, TYPES.html)) return;
      expectRepresentation(f, res);
      m.page = { url, html: res.body.toString('utf8') };
    },
    () => 'text/html; charset=utf-8',
  ),
];

/** The resources whose ETags and compression are checked: the index, the bulk CSV, the descriptions, and each market's JSON and CSV. */
const representations = (ids: readonly string[]): string[] => [
  ENDPOINTS.index.path,
  ENDPOINTS.bulkCsv.path,
  ENDPOINTS.profileSchema.path,
  ENDPOINTS.openApi.path,
  ENDPOINTS.dataPackage.path,
  ...ids.flatMap((id) => [ENDPOINTS.profile.path(id), ENDPOINTS.marketCsv.path(id)]),
];

/** What verify does with a JSON kind's served schema once it compiles; returns what a PASS says. */
type SchemaUse = (f: Faults, found: Found, validate: ValidateFunction) => Promise<string>;

/** Keeps the compiled schema for the checks that read its documents later. */
const keptFor =
  (key: 'validateProfile' | 'validateSeries' | 'validateVintages'): SchemaUse =>
  async (_f, found, validate) => {
    found[key] = validate;
    return 'served, draft-07, compiles with Ajv';
  };

/** Validates every document of the kind as served (a service path once, a market path for each market of the index): for a kind no other check reads. */
const validatesEach =
  (id: JsonDescriberId): SchemaUse =>
  async (f, { probe, facts }, validate) => {
    const documents = describedDocuments(id, facts.ids);
    for (const { path } of documents) {
      const res = await probe.fetch(path);
      if (expectResponse(f, res, 200, TYPES.json)) for (const fault of schemaFaults(validate, readJsonBody(f, res), path)) f.add(fault);
    }
    const what = documents.length === 1 ? `${documents[0]?.path ?? ''} validates` : `${documents.length} documents validate`;
    return `served, compiles, and ${what} against it`;
  };

/**
 * Each JSON kind's schema, by its describer's id in the order of DOCUMENTS: a kind without an entry does not compile. The
 * profile, series and vintage schemas serve the checks that read those documents; the index's documents are validated
 * here, as a new kind's are (`validatesEach`).
 */
const SCHEMA_USES: { readonly [K in JsonDescriberId]: SchemaUse } = {
  profileSchema: keptFor('validateProfile'),
  indexSchema: validatesEach('indexSchema'),
  seriesSchema: keptFor('validateSeries'),
  vintagesSchema: keptFor('validateVintages'),
};

/** Everything after the index, in report order. */
const CHECKS: readonly Entry<Found>[] = [
  ...keysOf(SCHEMA_USES).map((id) =>
    check(
      `schema ${ENDPOINTS[id].path}`,
      async (f, found) => {
        const validate = await servedSchema(found.probe, f, ENDPOINTS[id].path);
        return validate === undefined ? undefined : SCHEMA_USES[id](f, found, validate);
      },
      (detail) => detail ?? '',
    ),
  ),
  check(
    `descriptor ${ENDPOINTS.csvDescriptor.path}`,
    (f, { probe }) => checkDescriptor(probe, f),
    () => 'eleven columns in contract order, types and constants',
  ),
  check(
    `OpenAPI ${ENDPOINTS.openApi.path}`,
    (f, { probe, facts }) => checkOpenApi(probe, f, facts.ids),
    (described) =>
      `OpenAPI 3.1, ${described ?? 0} paths each answering its declared content type, the market ids of the index, the served schemas as components`,
  ),
  check(
    `Data Package ${ENDPOINTS.dataPackage.path}`,
    (f, { probe, facts }) => checkDataPackage(probe, f, facts.ids),
    (pkg) => `tabular-data-package, ${pkg?.resources ?? 0} CSV resources whose bytes (${pkg?.bytes ?? 0} in all) and SHA-256 equal what is served`,
  ),
  {
    // The markets are checked side by side; each market's three checks run in order.
    async group(found) {
      found.markets = found.facts.ids.map((id) => ({ id, entry: found.facts.entries.get(id) ?? {} }));
      const results = await Promise.all(found.markets.map((m) => runChecks(MARKET_CHECKS, [m, found], `market ${m.id} `)));
      return results.flat();
    },
  },
  // Each CSV of every market holds the rows of the market CSVs its descriptor describes as well.
  ...gatheringCsvs('csvDescriptor').map((record) =>
    check(
      `bulk CSV ${record.path}`,
      (f, { probe, markets }) =>
        checkBulkCsv(
          probe,
          f,
          record,
          markets.map((m) => m.rows),
        ),
      () => `text/csv; charset=utf-8, ${record.attachment ?? ''}, equals the sorted union of the market CSVs`,
    ),
  ),
  ...gatheringCsvs('seriesCsvDescriptor').map((record) =>
    check(
      `bulk series CSV ${record.path}`,
      (f, { probe, markets }) =>
        checkBulkSeries(
          probe,
          f,
          record,
          markets.map((m) => m.seriesRows),
        ),
      (rows) => `text/csv; charset=utf-8, ${rows ?? 0} rows, the market series CSVs in market order`,
    ),
  ),
  check(
    `vintages ${ENDPOINTS.vintages.path}`,
    (f, { probe, validateVintages, indexDoc }) => checkVintages(probe, f, validateVintages, indexDoc),
    (found) =>
      `${found?.vintages ?? 0} snapshots, the current one first; ${found?.documents ?? 0} documents, each 200 with Cache-Control immutable (the current one's once archived)`,
  ),
  check(
    `download ${ENDPOINTS.download.path}`,
    (f, { probe, facts }) =>
      checkDownload(
        probe,
        f,
        contractDocumentPaths(facts.ids).map((d) => d.path),
      ),
    (files) => `application/zip, ${files ?? 0} files, each the bytes served at the path its name mirrors, and a README`,
  ),
  {
    // One body checks every kind of error and reports each as its own check; if it throws, the report has one "errors" check.
    async group(found) {
      const f = new Faults();
      const errors = await attempt(f, () => checkErrors(found.probe, found.facts.ids));
      if (errors === undefined) return [result('errors', f.list, '')];
      found.problems = errors.problems;
      return errors.checks.map((e) => result(e.name, e.faults.list, e.detail));
    },
  },
  check(
    'ETag and If-None-Match',
    async (f, { probe, facts }) => {
      const paths = representations(facts.ids);
      await checkConditional(probe, f, paths);
      return paths.length;
    },
    (count) => `${count ?? 0} resources, identity and gzip: a 304 without a body for the current ETag, distinct ETags per encoding`,
  ),
  check(
    'compression and Vary',
    async (f, { probe, facts }) => {
      const paths = representations(facts.ids);
      await checkCompression(probe, f, paths);
      return paths.length;
    },
    (count) => `${count ?? 0} resources: gzip and br offered and equal to the identity bytes, q=0 refused, Vary: Accept-Encoding`,
  ),
  check(
    'links',
    (f, { probe, indexDoc, markets, problems }) =>
      checkDeploymentLinks(probe, f, {
        indexDoc,
        profiles: markets.flatMap((m) => (m.profile === undefined ? [] : [m.profile])),
        problems,
        pages: markets.flatMap((m) => (m.page === undefined ? [] : [m.page])),
      }),
    (summary) => summary ?? '',
  ),
];

/** The index comes first: without its market ids there is nothing else to check. */
const INDEX_CHECK: Check<Probe, Awaited<ReturnType<typeof checkIndex>>> = {
  name: `index ${ENDPOINTS.index.path}`,
  body: (f, probe) => checkIndex(probe, f),
  detail: (index) => `${index?.facts?.ids.length ?? 0} markets, application/json, constants, sorted unique ids`,
};

/** With a build's manifest: every variant of every route it lists is its file, byte for byte. */
const manifestCheck = (file: string): Check<[Probe, Manifest], number> => ({
  name: `manifest ${file}`,
  body: (f, [probe, manifest]) => checkManifest(probe, f, manifest),
  detail: (count) => `${count ?? 0} answers (every variant of every route, and the 404 page) are the build's bytes, SHA-256 for SHA-256`,
});

/** Every check of a deployment, in report order; with a build's manifest, its check comes last. */
export async function runAllChecks(probe: Probe, manifest?: { file: string; manifest: Manifest }): Promise<CheckResult[]> {
  const all = await runContractChecks(probe);
  if (manifest === undefined) return all;
  return [...all, (await runCheck(manifestCheck(manifest.file), [probe, manifest.manifest])).result];
}

async function runContractChecks(probe: Probe): Promise<CheckResult[]> {
  const index = await runCheck(INDEX_CHECK, probe);
  const facts = index.value?.facts;
  if (facts === undefined) return [index.result];
  // Each kind of answer is refused past what it can be at the markets the index lists.
  probe.markets = facts.ids.length;
  const found: Found = { probe, indexDoc: index.value?.doc, facts, markets: [], problems: [] };
  return [index.result, ...(await runChecks(CHECKS, found))];
}
