// The resource checks of `verify`: index, schemas, each market's JSON, CSV and page, and the bulk CSV, read from what is served.
import type { EndpointRecord } from '../../contract/endpoints.ts';
import { PATHS } from '../../contract/paths.ts';
import type { ValidateFunction } from 'ajv';
import { compilePublished } from '../../validate/contract-checks.ts';
import { CsvSyntaxError, parseCsv } from '../../contract/csv-format.ts';
import {
  CSV_COLUMNS,
  Faults,
  LINK_KEYS,
  TYPES,
  requestText,
  expectRepresentation,
  expectResponse,
  isObject,
  marketCsvFilename,
  readJsonBody,
} from './expect.ts';
import { headerValue, type Probe, type Fetched } from './http.ts';

export interface IndexFacts {
  ids: string[];
  entries: Map<string, Record<string, unknown>>;
  links: Record<string, string>;
}

const CONSTANTS = (f: Faults, doc: Record<string, unknown>, what: string): void => {
  f.expect(doc.schemaVersion === '1', `${what}: schemaVersion is ${JSON.stringify(doc.schemaVersion)}, expected "1"`);
  f.expect(doc.productionMode === 'static-fixture', `${what}: productionMode is ${JSON.stringify(doc.productionMode)}, expected "static-fixture"`);
  f.expect(doc.liveData === false, `${what}: liveData is ${JSON.stringify(doc.liveData)}, expected false`);
  f.expect(/^v\d+\.\d+$/.test(String(doc.methodologyVersion)), `${what}: methodologyVersion ${JSON.stringify(doc.methodologyVersion)} is not v<major>.<minor>`);
};

export async function checkIndex(probe: Probe, f: Faults): Promise<{ res: Fetched; facts?: IndexFacts; doc?: unknown }> {
  const res = await probe.fetch(PATHS.index);
  if (!expectResponse(f, res, 200, TYPES.json)) return { res };
  expectRepresentation(f, res);
  const doc = readJsonBody(f, res);
  if (!isObject(doc)) {
    f.add(`${PATHS.index} is not a JSON object`);
    return { res };
  }
  CONSTANTS(f, doc, PATHS.index);
  const markets = Array.isArray(doc.markets) ? doc.markets.filter(isObject) : [];
  f.expect(Array.isArray(doc.markets) && markets.length === doc.markets.length && markets.length > 0, `${PATHS.index} has no "markets" array of objects`);
  f.expect(doc.count === markets.length, `${PATHS.index} count is ${JSON.stringify(doc.count)} but lists ${markets.length} markets`);
  const ids = markets.map((m) => String(m.id));
  f.expect(
    ids.every((id) => /^us-[a-z]{2}-[a-z0-9]+(-[a-z0-9]+)*$/.test(id)),
    `${PATHS.index} lists ids not of the form us-<state>-<slug>: ${ids.filter((id) => !/^us-[a-z]{2}-[a-z0-9-]+$/.test(id)).join(', ')}`,
  );
  f.expect(new Set(ids).size === ids.length, `${PATHS.index} lists a market twice`);
  f.expect(
    ids.every((id, i) => i === 0 || (ids[i - 1] ?? '') < id),
    `${PATHS.index} is not sorted by id`,
  );
  for (const m of markets) {
    const links = isObject(m.links) ? m.links : {};
    for (const key of ['json', 'csv', 'html']) f.expect(typeof links[key] === 'string', `${PATHS.index}: market ${String(m.id)} has no links.${key}`);
  }
  const links = isObject(doc.links) ? Object.fromEntries(Object.entries(doc.links).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
  return { res, doc, facts: { ids, entries: new Map(markets.map((m) => [String(m.id), m])), links } };
}

/** Compiles a schema from its served bytes (draft-07, Ajv with formats); undefined when it cannot be. */
export async function servedSchema(probe: Probe, f: Faults, path: string): Promise<ValidateFunction | undefined> {
  const res = await probe.fetch(path);
  if (!expectResponse(f, res, 200, TYPES.json)) return undefined;
  expectRepresentation(f, res);
  const doc = readJsonBody(f, res);
  if (!isObject(doc)) return undefined;
  f.expect(
    String(doc.$schema).startsWith('http://json-schema.org/draft-07/schema'),
    `${path} does not declare JSON Schema draft-07 ($schema is ${JSON.stringify(doc.$schema)})`,
  );
  try {
    return compilePublished(res.body);
  } catch (error) {
    f.add(`${path} does not compile as a JSON Schema: ${(error as Error).message}`);
    return undefined;
  }
}

export const schemaFaults = (validate: ValidateFunction, doc: unknown, what: string): string[] =>
  validate(doc)
    ? []
    : (validate.errors ?? [])
        .slice(0, 5)
        .map(
          (e) =>
            `${what} fails the served schema at ${e.instancePath === '' ? '/' : e.instancePath}: ${e.message ?? e.keyword}${e.keyword === 'const' || e.keyword === 'enum' ? ` ${JSON.stringify(e.params)}` : ''}`,
        );

/** docs/contract.md 2.7: the descriptor lists the eleven columns in order, with their types and constants. */
export async function checkDescriptor(probe: Probe, f: Faults): Promise<void> {
  const res = await probe.fetch(PATHS.csvDescriptor);
  if (!expectResponse(f, res, 200, TYPES.json)) return;
  expectRepresentation(f, res);
  const doc = readJsonBody(f, res);
  if (!isObject(doc)) return;
  f.expect(
    doc.schemaVersion === '1' && doc.format === 'text/csv' && doc.encoding === 'utf-8' && doc.lineTerminator === 'CRLF' && doc.quoting === 'RFC 4180',
    `${PATHS.csvDescriptor}: schemaVersion, format, encoding, lineTerminator or quoting differs from docs/contract.md 2.7`,
  );
  const columns = Array.isArray(doc.columns) ? doc.columns.filter(isObject) : [];
  f.expect(
    columns.map((c) => c.name).join(',') === CSV_COLUMNS.join(','),
    `${PATHS.csvDescriptor} columns are ${columns.map((c) => String(c.name)).join(',')}, expected ${CSV_COLUMNS.join(',')}`,
  );
  for (const c of columns) {
    f.expect(
      c.type === (c.name === 'value' ? 'number' : 'string') && c.required === true,
      `${PATHS.csvDescriptor} column ${String(c.name)}: type ${String(c.type)}, required ${String(c.required)}`,
    );
  }
  const byName = new Map(columns.map((c) => [c.name, c]));
  f.expect(
    byName.get('production_mode')?.const === 'static-fixture' && byName.get('live_data')?.const === 'false',
    `${PATHS.csvDescriptor}: production_mode / live_data constants are not "static-fixture" / "false"`,
  );
}

export interface Profile {
  id: string;
  doc: Record<string, unknown>;
  metrics: Record<string, Record<string, unknown>>;
}

/** One market's JSON: exact type, valid against the served schema, and the rules a schema cannot say. */
export function checkProfile(f: Faults, res: Fetched, id: string, validate: ValidateFunction | undefined, baseUrl: string): Profile | undefined {
  if (!expectResponse(f, res, 200, TYPES.json)) return undefined;
  expectRepresentation(f, res);
  const doc = readJsonBody(f, res);
  if (!isObject(doc)) return undefined;
  if (validate === undefined) f.add(`${id}: cannot be validated, the profile schema could not be read`);
  else for (const fault of schemaFaults(validate, doc, id)) f.add(fault);
  CONSTANTS(f, doc, id);
  const market = isObject(doc.market) ? doc.market : {};
  const profile = isObject(doc.profile) ? doc.profile : {};
  const metrics = isObject(profile.metrics)
    ? Object.fromEntries(Object.entries(profile.metrics).filter((e): e is [string, Record<string, unknown>] => isObject(e[1])))
    : {};
  f.expect(market.id === id, `${id}: market.id is ${JSON.stringify(market.id)}`);
  f.expect(
    doc.generatedAt === profile.updatedDate,
    `${id}: generatedAt ${String(doc.generatedAt)} differs from profile.updatedDate ${String(profile.updatedDate)}`,
  );
  const sources = Array.isArray(doc.sources) ? doc.sources.filter(isObject).map((s) => String(s.sourceId)) : [];
  f.expect(
    sources.every((s, i) => i === 0 || (sources[i - 1] ?? '') < s),
    `${id}: sources are not sorted by sourceId`,
  );
  const confidence = new Map(Array.isArray(doc.sources) ? doc.sources.filter(isObject).map((s) => [String(s.sourceId), s.confidence]) : []);
  for (const [key, metric] of Object.entries(metrics)) {
    f.expect(metric.id === key, `${id}: metric "${key}" has id ${JSON.stringify(metric.id)}`);
    f.expect(sources.includes(String(metric.sourceId)), `${id}: metric "${key}" names source ${JSON.stringify(metric.sourceId)}, which is not in sources`);
    // A comparison is the same figure for a geography that holds the market's, for the same period.
    for (const c of Array.isArray(metric.comparisons) ? metric.comparisons.filter(isObject) : [])
      f.expect(c.asOf === metric.asOf, `${id}: metric "${key}" is as of ${String(metric.asOf)} but its ${String(c.name)} comparison as of ${String(c.asOf)}`);
    if (metric.illustrative !== true) continue;
    f.expect(metric.marginOfError === undefined, `${id}: metric "${key}" is illustrative but carries a margin of error`);
    f.expect(
      confidence.get(String(metric.sourceId)) !== 'high',
      `${id}: source ${String(metric.sourceId)} claims "high" confidence but serves the illustrative value of "${key}"`,
    );
  }
  // The scores computed from an illustrative value say so: each listed key is a score the profile has, and none is
  // listed when every value is published.
  const scores = isObject(profile.scores) ? profile.scores : {};
  const listed = Array.isArray(profile.illustrativeScores) ? profile.illustrativeScores.map(String) : [];
  for (const key of listed) f.expect(typeof scores[key] === 'number', `${id}: illustrativeScores lists "${key}", which is not one of its scores`);
  f.expect(
    listed.length === 0 || Object.values(metrics).some((m) => m.illustrative === true),
    `${id}: illustrativeScores lists ${listed.join(', ')} though no metric is illustrative`,
  );
  const links = isObject(doc.links) ? doc.links : {};
  for (const key of LINK_KEYS) {
    const url = links[key];
    f.expect(
      typeof url === 'string' && url.startsWith(`${baseUrl}/`),
      `${id}: links.${key} is ${JSON.stringify(url)}, not a URL of this deployment (${baseUrl}); was it built with another BASE_URL?`,
    );
  }
  return { id, doc, metrics };
}

/** Reads a served CSV: header, RFC 4180, CRLF; returns the data records. */
export function readCsv(f: Faults, res: Fetched, what: string, columns: readonly string[] = CSV_COLUMNS): string[][] | undefined {
  const text = res.body.toString('utf8');
  f.expect(!text.startsWith('\ufeff'), `${what} starts with a byte-order mark`);
  let records: string[][];
  try {
    records = parseCsv(text.replace(/^\ufeff/, ''));
  } catch (error) {
    f.add(`${what} is not RFC 4180 CSV: ${error instanceof CsvSyntaxError ? error.message : String(error)}`);
    return undefined;
  }
  const [header, ...rows] = records;
  if (
    !f.expect(
      header !== undefined && header.join(',') === columns.join(','),
      `${what} header is ${JSON.stringify(header?.join(',') ?? '')}, expected ${columns.join(',')}`,
    )
  )
    return undefined;
  rows.forEach((row, i) => f.expect(row.length === columns.length, `${what} line ${i + 2} has ${row.length} fields, expected ${columns.length}`));
  return rows.filter((row) => row.length === columns.length);
}

export function expectAttachment(f: Faults, res: Fetched, filename: string): void {
  const got = headerValue(res, 'content-disposition');
  f.expect(
    got === `attachment; filename="${filename}"`,
    `${requestText(res)} has Content-Disposition ${JSON.stringify(got ?? null)}, expected attachment; filename="${filename}"`,
  );
}

/** docs/contract.md 2.6 (the ties): every CSV row matches the JSON, one row per metric, sorted by metric id. */
export function tieCsv(f: Faults, rows: readonly string[][], p: Profile, what: string): void {
  const doc = p.doc;
  const market = isObject(doc.market) ? doc.market : {};
  const profile = isObject(doc.profile) ? doc.profile : {};
  const col = (row: readonly string[], name: (typeof CSV_COLUMNS)[number]): string => row[CSV_COLUMNS.indexOf(name)] ?? '';
  const seen: string[] = [];
  rows.forEach((row, i) => {
    const at = `${what} line ${i + 2}`;
    const metricId = col(row, 'metric_id');
    const metric = p.metrics[metricId];
    seen.push(metricId);
    const want: Partial<Record<(typeof CSV_COLUMNS)[number], string>> = {
      market_id: p.id,
      market_name: `${String(market.name)}, ${String(market.stateCode)}`,
      updated_date: String(profile.updatedDate),
      methodology_version: String(doc.methodologyVersion),
      production_mode: 'static-fixture',
      live_data: 'false',
      ...(metric === undefined ? {} : { metric_label: String(metric.label), unit: String(metric.unit), source_id: String(metric.sourceId) }),
    };
    for (const [name, value] of Object.entries(want)) {
      f.expect(
        col(row, name as (typeof CSV_COLUMNS)[number]) === value,
        `${at}: ${name} is ${JSON.stringify(col(row, name as (typeof CSV_COLUMNS)[number]))}, the JSON says ${JSON.stringify(value)}`,
      );
    }
    if (metric === undefined) {
      f.add(`${at}: metric_id ${JSON.stringify(metricId)} is not in the JSON's profile.metrics`);
      return;
    }
    const value = col(row, 'value');
    f.expect(/^-?\d+(\.\d+)?$/.test(value), `${at}: value ${JSON.stringify(value)} is not a plain decimal`);
    f.expect(Number(value) === metric.value, `${at}: value ${value} differs from the JSON's ${JSON.stringify(metric.value)}`);
  });
  const ids = Object.keys(p.metrics).sort();
  f.expect(
    seen.join(',') === ids.join(','),
    `${what} has metric rows ${seen.join(',') || '(none)'}, the JSON has ${ids.join(',')} (one row each, sorted by metric_id)`,
  );
}

/** A CSV of every market (its record): the market CSVs' rows, all of them and nothing else, sorted by market id and metric id. */
export async function checkBulkCsv(probe: Probe, f: Faults, record: EndpointRecord<'service'>, marketRows: readonly (string[][] | undefined)[]): Promise<void> {
  const res = await probe.fetch(record.path);
  if (!expectResponse(f, res, 200, TYPES.csv)) return;
  expectRepresentation(f, res);
  expectAttachment(f, res, record.attachment ?? '');
  const rows = readCsv(f, res, record.path);
  if (rows === undefined) return;
  const union = marketRows
    .flatMap((r) => r ?? [])
    .sort((a, b) => {
      const [x, y] = [`${a[0] ?? ''}\u0000${a[2] ?? ''}`, `${b[0] ?? ''}\u0000${b[2] ?? ''}`];
      return x < y ? -1 : x > y ? 1 : 0;
    });
  const line = (r: readonly string[]): string => JSON.stringify(r);
  const first = rows.findIndex((r, i) => line(r) !== line(union[i] ?? []));
  f.expect(
    rows.length === union.length && first === -1,
    `the bulk CSV differs from the sorted union of the market CSVs (${rows.length} vs ${union.length} rows${first === -1 ? '' : `; first difference at line ${first + 2}: ${rows[first]?.join(',') ?? '(missing)'}`})`,
  );
}

export { marketCsvFilename };
