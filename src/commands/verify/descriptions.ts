// The checks of `verify` on the machine-readable descriptions: the OpenAPI document and the Data Package, each held to what the deployment itself serves.
import { ENDPOINTS, ENDPOINT_LIST, dataPackagePaths, pathAt, type DescriberId } from '../../contract/endpoints.ts';
import { DOCUMENTS, type DocumentKind } from '../../contract/documents.ts';
import { PATHS } from '../../contract/paths.ts';
import { entriesOf } from '../../contract/records.ts';
import { isDeepStrictEqual } from 'node:util';
import { CSV_COLUMNS, Faults, SERIES_CSV_COLUMNS, TYPES, expectRepresentation, expectResponse, isObject, readJsonBody } from './expect.ts';
import { headerValue, type Probe } from './http.ts';
import { SERIES_CSV_KEY } from '../../contract/series.ts';

/** The endpoints of the contract (docs/contract.md section 4: the records marked `contract`), as OpenAPI path templates. */
export const CONTRACT_PATHS: readonly string[] = ENDPOINT_LIST.flatMap(([, r]) => (r.contract === true ? [pathAt(r, '{marketId}', '{snapshotDate}')] : []));

const withoutMeta = (doc: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(doc).filter(([k]) => k !== '$schema' && k !== '$id'));

/**
 * /api/openapi: OpenAPI 3.1; every contract endpoint with a 200 whose media type is the Content-Type the deployment
 * answers; the market-id parameter lists exactly the index's ids; the profile and index schemas are the served ones.
 */
export async function checkOpenApi(probe: Probe, f: Faults, ids: readonly string[]): Promise<number> {
  const res = await probe.fetch(PATHS.openApi);
  if (!expectResponse(f, res, 200, TYPES.json)) return 0;
  expectRepresentation(f, res);
  const doc = readJsonBody(f, res);
  if (!isObject(doc)) return 0;
  f.expect(typeof doc.openapi === 'string' && /^3\.1\.\d+$/.test(doc.openapi), `${PATHS.openApi}: openapi is ${JSON.stringify(doc.openapi)}, expected 3.1.x`);
  const paths = isObject(doc.paths) ? doc.paths : {};
  const components = isObject(doc.components) ? doc.components : {};
  const parameters = isObject(components.parameters) ? components.parameters : {};
  const marketId = isObject(parameters.marketId) && isObject(parameters.marketId.schema) ? parameters.marketId.schema : {};
  f.expect(
    isDeepStrictEqual(marketId.enum, [...ids].sort()),
    `${PATHS.openApi}: the marketId parameter lists ${JSON.stringify(marketId.enum)}, the index ${JSON.stringify([...ids].sort())}`,
  );
  const sample = ids[0] ?? 'us-zz-none';
  // A vintage path is tried at the snapshot date its parameter gives as an example (the current one).
  const snapshotDate = isObject(parameters.snapshotDate) ? String(parameters.snapshotDate.example) : '';
  let described = 0;
  for (const template of Object.keys(paths)) {
    const item = paths[template];
    const get = isObject(item) && isObject(item.get) ? item.get : undefined;
    const responses = get !== undefined && isObject(get.responses) ? get.responses : {};
    const ok = isObject(responses['200']) ? responses['200'] : undefined;
    if (!f.expect(ok !== undefined, `${PATHS.openApi}: ${template} has no GET 200 response`) || ok === undefined) continue;
    const types = Object.keys(isObject(ok.content) ? ok.content : {});
    const path = template.replace('{marketId}', sample).replace('{snapshotDate}', snapshotDate);
    const answer = await probe.fetch(path);
    f.expect(answer.status === 200, `${PATHS.openApi} lists ${template}, but GET ${path} answered ${answer.status}`);
    f.expect(
      types.length === 1 && types[0] === headerValue(answer, 'content-type'),
      `${PATHS.openApi}: ${template} answers ${JSON.stringify(types)}, the deployment ${JSON.stringify(headerValue(answer, 'content-type') ?? null)}`,
    );
    described += 1;
  }
  for (const template of CONTRACT_PATHS) f.expect(isObject(paths[template]), `${PATHS.openApi} does not describe ${template}`);
  const schemas = isObject(components.schemas) ? components.schemas : {};
  // Each JSON kind's component is the schema its describer serves (contract/documents.ts).
  const published = entriesOf(DOCUMENTS).flatMap(([id, kind]: [DescriberId, DocumentKind]) =>
    kind.format === 'json' ? [[kind.component, ENDPOINTS[id].path] as const] : [],
  );
  for (const [name, path] of published) {
    const servedSchema = readJsonBody(f, await probe.fetch(path));
    f.expect(
      isObject(servedSchema) && isObject(schemas[name]) && isDeepStrictEqual(withoutMeta(servedSchema), schemas[name]),
      `${PATHS.openApi}: components.schemas.${name} is not the schema served at ${path}`,
    );
  }
  return described;
}

interface DataPackageFacts {
  resources: number;
  bytes: number;
}

/** The CSVs of each snapshot /api/vintages lists, in its order: its bulk CSV, then its markets' (empty where it cannot be read: its own check says why). */
async function vintageCsvs(probe: Probe): Promise<string[]> {
  const res = await probe.fetch(PATHS.vintages);
  let doc: unknown;
  try {
    doc = res.status === 200 ? JSON.parse(res.body.toString('utf8')) : undefined;
  } catch {
    doc = undefined;
  }
  const vintages = isObject(doc) && Array.isArray(doc.vintages) ? doc.vintages.filter(isObject) : [];
  return vintages.flatMap((v) => {
    const links = isObject(v.links) ? v.links : {};
    const markets = isObject(links.markets) ? Object.values(links.markets).filter(isObject) : [];
    return [links.bulkCsv, ...markets.map((m) => m.csv)].map(String);
  });
}

/**
 * /api/datapackage: a tabular Data Package whose resources are the bulk CSV and every market's CSV, then the bulk series
 * CSV and every market's series CSV, then the CSVs of every snapshot /api/vintages lists, with the sizes and hashes of
 * the bytes served.
 */
export async function checkDataPackage(probe: Probe, f: Faults, ids: readonly string[]): Promise<DataPackageFacts> {
  const res = await probe.fetch(PATHS.dataPackage);
  if (!expectResponse(f, res, 200, TYPES.json)) return { resources: 0, bytes: 0 };
  expectRepresentation(f, res);
  const doc = readJsonBody(f, res);
  if (!isObject(doc)) return { resources: 0, bytes: 0 };
  f.expect(doc.profile === 'tabular-data-package', `${PATHS.dataPackage}: profile is ${JSON.stringify(doc.profile)}, expected "tabular-data-package"`);
  const resources = Array.isArray(doc.resources) ? doc.resources.filter(isObject) : [];
  const sorted = [...ids].sort();
  const want = [...dataPackagePaths(sorted).map((d) => `${probe.baseUrl}${d.path}`), ...(await vintageCsvs(probe))];
  f.expect(
    isDeepStrictEqual(
      resources.map((r) => r.path),
      want,
    ),
    `${PATHS.dataPackage}: the resources are ${JSON.stringify(resources.map((r) => r.path))}, expected the bulk CSV and each market's CSV of the index, then the same of the series, then each snapshot's of /api/vintages`,
  );
  let bytes = 0;
  for (const r of resources) {
    const path = String(r.path);
    // Only its size and hash are compared: hashed as it streams, never kept.
    const answer = await probe.fetch(path, { keep: false });
    if (!f.expect(answer.status === 200, `${PATHS.dataPackage}: ${path} answered ${answer.status}`)) continue;
    const hash = `sha256:${answer.sha256}`;
    f.expect(r.bytes === answer.bytes, `${PATHS.dataPackage}: ${path} is ${answer.bytes} bytes, the package says ${JSON.stringify(r.bytes)}`);
    f.expect(r.hash === hash, `${PATHS.dataPackage}: ${path} hashes to ${hash}, the package says ${JSON.stringify(r.hash)}`);
    const schema = isObject(r.schema) ? r.schema : {};
    const fields = Array.isArray(schema.fields) ? schema.fields.filter(isObject).map((x) => x.name) : [];
    const series = path.endsWith('/series/csv');
    const columns: readonly string[] = series ? SERIES_CSV_COLUMNS : CSV_COLUMNS;
    const key = series ? [...SERIES_CSV_KEY] : ['market_id', 'metric_id'];
    f.expect(fields.join(',') === columns.join(','), `${PATHS.dataPackage}: ${path} has fields ${fields.join(',')}, expected ${columns.join(',')}`);
    f.expect(
      isDeepStrictEqual(schema.primaryKey, key),
      `${PATHS.dataPackage}: ${path} has primary key ${JSON.stringify(schema.primaryKey)}, expected ${key.join(', ')}`,
    );
    bytes += answer.bytes;
  }
  return { resources: resources.length, bytes };
}
