// The checks of what analysts and mirrors take whole: each market's series tied to its profile, the bulk series, the vintages at their immutable addresses, and the zip against the bytes served.
import { createHash } from 'node:crypto';
import { API_PREFIX, type EndpointRecord } from '../../contract/endpoints.ts';
import { PATHS } from '../../contract/paths.ts';
import type { ValidateFunction } from 'ajv';
import {
  DOWNLOAD_FILENAME,
  Faults,
  IMMUTABLE,
  NOT_YET_ARCHIVED,
  SERIES_CSV_COLUMNS,
  TYPES,
  VINTAGE,
  expectRepresentation,
  expectResponse,
  isObject,
  readJsonBody,
  requestText,
  seriesCsvFilename,
} from './expect.ts';
import { headerValue, type Probe } from './http.ts';
import { expectAttachment, readCsv, schemaFaults, type Profile } from './resources.ts';
import { ZipReadError, zipEntries, type ArchiveEntry } from './unzip.ts';
import { DATA_PACKAGE_ENTRY, README_ENTRY, downloadFolder, localDataPackage } from '../../render/site-files.ts';

const column = (name: (typeof SERIES_CSV_COLUMNS)[number]): number => SERIES_CSV_COLUMNS.indexOf(name);

/**
 * One market's series: the JSON valid against the served schema and holding each of the profile's values at its
 * period; the CSV in the series columns with one row per observation of the JSON, each the same value.
 */
export async function checkSeries(
  probe: Probe,
  f: Faults,
  id: string,
  validate: ValidateFunction | undefined,
  profile: Profile | undefined,
): Promise<string[][] | undefined> {
  const path = PATHS.series(id);
  const res = await probe.fetch(path);
  if (!expectResponse(f, res, 200, TYPES.json)) return undefined;
  expectRepresentation(f, res);
  const doc = readJsonBody(f, res);
  if (!isObject(doc)) return undefined;
  if (validate === undefined) f.add(`${path}: cannot be validated, the series schema could not be read`);
  else for (const fault of schemaFaults(validate, doc, path)) f.add(fault);
  const metrics = isObject(doc.metrics) ? doc.metrics : {};
  // Every observation by metric, area and period: the market's own (its metric's area, or its own where it differs) and its state's and the nation's.
  const observations = new Map<string, Record<string, unknown>>();
  const codeOf = (g: unknown): string => (isObject(g) ? String(g.code) : '');
  const own = new Map<string, string>();
  for (const [key, m] of Object.entries(metrics)) {
    if (!isObject(m)) continue;
    own.set(key, codeOf(m.geography));
    const lines = [{ geography: m.geography, observations: m.observations }, ...(Array.isArray(m.comparisons) ? m.comparisons.filter(isObject) : [])];
    for (const line of lines) {
      const list = Array.isArray(line.observations) ? line.observations.filter(isObject) : [];
      for (const o of list) observations.set(`${key}\u0000${codeOf(o.geography ?? line.geography)}\u0000${String(o.period)}`, o);
    }
  }
  for (const [key, metric] of Object.entries(profile?.metrics ?? {})) {
    const o = observations.get(`${key}\u0000${own.get(key) ?? ''}\u0000${String(metric.asOf)}`);
    f.expect(
      o !== undefined && o.value === metric.value && o.marginOfError === metric.marginOfError && o.illustrative === metric.illustrative,
      `${path}: ${key} at ${String(metric.asOf)} is ${JSON.stringify(o === undefined ? null : [o.value, o.marginOfError, o.illustrative])}, the profile has ${JSON.stringify([metric.value, metric.marginOfError, metric.illustrative])}`,
    );
  }
  const csvPath = `${path}/csv`;
  const csv = await probe.fetch(csvPath);
  if (!expectResponse(f, csv, 200, TYPES.csv)) return undefined;
  expectRepresentation(f, csv);
  expectAttachment(f, csv, seriesCsvFilename(id));
  const rows = readCsv(f, csv, csvPath, SERIES_CSV_COLUMNS);
  if (rows === undefined) return undefined;
  f.expect(rows.length === observations.size, `${csvPath} has ${rows.length} rows, the JSON ${observations.size} observations`);
  for (const [i, row] of rows.entries()) {
    const o = observations.get(`${row[column('metric_id')] ?? ''}\u0000${row[column('geography_code')] ?? ''}\u0000${row[column('period')] ?? ''}`);
    const margin = row[column('margin_of_error')] ?? '';
    f.expect(
      row[column('market_id')] === id &&
        o !== undefined &&
        Number(row[column('value')]) === o.value &&
        (margin === '' ? o.marginOfError === undefined : Number(margin) === o.marginOfError) &&
        row[column('illustrative')] === String(o.illustrative === true) &&
        row[column('live_data')] === 'false',
      `${csvPath} line ${i + 2} does not tie to the JSON: ${row.join(',')}`,
    );
  }
  return rows;
}

/** A CSV of every market's series (its record): the market series CSVs' rows, all of them, in market order. */
export async function checkBulkSeries(
  probe: Probe,
  f: Faults,
  record: EndpointRecord<'service'>,
  marketRows: readonly (string[][] | undefined)[],
): Promise<number> {
  const path = record.path;
  const res = await probe.fetch(path);
  if (!expectResponse(f, res, 200, TYPES.csv)) return 0;
  expectRepresentation(f, res);
  expectAttachment(f, res, record.attachment ?? '');
  const rows = readCsv(f, res, path, SERIES_CSV_COLUMNS);
  if (rows === undefined) return 0;
  const union = [...marketRows.flatMap((r) => r ?? [])];
  union.sort((a, b) => ((a[0] ?? '') < (b[0] ?? '') ? -1 : (a[0] ?? '') > (b[0] ?? '') ? 1 : 0));
  const line = (r: readonly string[]): string => JSON.stringify(r);
  const first = rows.findIndex((r, i) => line(r) !== line(union[i] ?? []));
  f.expect(
    rows.length === union.length && first === -1,
    `${path} differs from the market series CSVs in market order (${rows.length} vs ${union.length} rows${first === -1 ? '' : `; first difference at line ${first + 2}`})`,
  );
  return rows.length;
}

/** A document a vintage links: where the link should lead, its content type, and the name a CSV is saved under. */
interface VintageDocument {
  /** How the fault names the link: `index`, `markets.us-tx-austin.csv`. */
  name: string;
  link: unknown;
  path: string;
  type: string;
  attachment?: string;
  /** The current snapshot's: immutable once archived, the ordinary rule until then. */
  current: boolean;
}

/** The documents one vintage of the index links, each with what the contract says of it; `current`: the snapshot of the index's date. */
function documentsOf(v: Record<string, unknown>, date: string, current: boolean): VintageDocument[] {
  const links = isObject(v.links) ? v.links : {};
  const markets = isObject(links.markets) ? Object.entries(links.markets) : [];
  return [
    { name: 'index', link: links.index, path: VINTAGE.index(date), type: TYPES.json, current },
    { name: 'bulkCsv', link: links.bulkCsv, path: VINTAGE.bulkCsv(date), type: TYPES.csv, attachment: VINTAGE.bulkCsvFilename(date), current },
    ...markets.flatMap(([id, m]): VintageDocument[] => {
      const market = isObject(m) ? m : {};
      return [
        { name: `markets.${id}.json`, link: market.json, path: VINTAGE.profile(date, id), type: TYPES.json, current },
        {
          name: `markets.${id}.csv`,
          link: market.csv,
          path: VINTAGE.csv(date, id),
          type: TYPES.csv,
          attachment: VINTAGE.csvFilename(date, id),
          current,
        },
      ];
    }),
  ];
}

/**
 * /api/vintages: valid against its served schema, the current snapshot first (the index's date), and every document it
 * links at the deployment's own address for it (a link elsewhere is a fault, and is not followed), answering 200 with
 * its content type, Cache-Control immutable (the current snapshot's: immutable once archived, the ordinary rule until
 * then) and, for a CSV, the attachment name with the snapshot's date.
 */
export async function checkVintages(
  probe: Probe,
  f: Faults,
  validate: ValidateFunction | undefined,
  indexDoc: unknown,
): Promise<{ vintages: number; documents: number }> {
  const res = await probe.fetch(PATHS.vintages);
  if (!expectResponse(f, res, 200, TYPES.json)) return { vintages: 0, documents: 0 };
  expectRepresentation(f, res);
  const doc = readJsonBody(f, res);
  if (!isObject(doc)) return { vintages: 0, documents: 0 };
  if (validate !== undefined) for (const fault of schemaFaults(validate, doc, PATHS.vintages)) f.add(fault);
  const vintages = Array.isArray(doc.vintages) ? doc.vintages.filter(isObject) : [];
  const first = vintages[0];
  f.expect(
    first?.current === true && isObject(indexDoc) && first.snapshotDate === indexDoc.generatedAt,
    `${PATHS.vintages} does not list the current snapshot (${isObject(indexDoc) ? String(indexDoc.generatedAt) : '?'}) first`,
  );
  const documents = vintages.flatMap((v) => {
    // A vintage without a date string is the schema's fault, named above.
    if (typeof v.snapshotDate !== 'string') return [];
    const date = v.snapshotDate;
    // The current snapshot is the one of the index's date, whatever its entry says (a wrong `current` is named above).
    return documentsOf(v, date, isObject(indexDoc) && date === indexDoc.generatedAt).filter((d) => {
      // A link that is missing or not a string is the schema's fault too.
      if (typeof d.link !== 'string') return false;
      const expected = probe.baseUrl + d.path;
      if (d.link === expected) return true;
      f.add(`${PATHS.vintages}: the snapshot of ${date} links ${d.name} to ${d.link}, not ${expected}`);
      return false;
    });
  });
  // Their status and headers are checked, not their bytes: hashed as they stream, never kept.
  const answers = await Promise.all(documents.map(async (d) => ({ d, answer: await probe.fetch(d.path, { keep: false }) })));
  for (const { d, answer } of answers) {
    expectResponse(f, answer, 200, d.type);
    const rule = headerValue(answer, 'cache-control');
    f.expect(
      rule === IMMUTABLE || (d.current && rule === NOT_YET_ARCHIVED),
      `${requestText(answer)} has Cache-Control ${JSON.stringify(rule ?? null)}, expected ${IMMUTABLE}${d.current ? ` (or ${NOT_YET_ARCHIVED} until the current snapshot is archived)` : ''}`,
    );
    if (d.attachment !== undefined) expectAttachment(f, answer, d.attachment);
  }
  return { vintages: vintages.length, documents: documents.length };
}

/** The path a zip entry's name mirrors, below the API's prefix: markets/x.json → <prefix>/markets/x, markets/x.csv → <prefix>/markets/x/csv. */
const pathOfEntry = (name: string): string | undefined =>
  name.endsWith('.json') ? `${API_PREFIX}/${name.slice(0, -5)}` : name.endsWith('.csv') ? `${API_PREFIX}/${name.slice(0, -4)}/csv` : undefined;

/** An entry's bytes, or the ZipReadError that says why the archive cannot give them. */
function readEntry(entry: ArchiveEntry): Buffer | ZipReadError {
  try {
    return entry.read();
  } catch (error) {
    if (error instanceof ZipReadError) return error;
    throw error;
  }
}

const unreadable = (error: ZipReadError): string => `${PATHS.download} is not a readable zip: ${error.message}`;

/** The folder the download unpacks into: the download's name and a snapshot date. */
const DOWNLOAD_FOLDER = new RegExp(`^${downloadFolder('[0-9]{4}-[0-9]{2}-[0-9]{2}').replaceAll('.', '\\.')}/$`);

/**
 * /api/download: a zip of one folder named for the snapshot, whose every file is the bytes served at the path its name
 * mirrors, with a README. An entry is
 * inflated only once its answer has arrived and is the size the directory says, and let go once compared, so what the
 * archive holds is never all in memory, and no entry is larger than an answer may be.
 */
export async function checkDownload(probe: Probe, f: Faults, mustHold: readonly string[]): Promise<number> {
  const res = await probe.fetch(PATHS.download);
  if (!expectResponse(f, res, 200, TYPES.zip)) return 0;
  expectRepresentation(f, res);
  expectAttachment(f, res, DOWNLOAD_FILENAME);
  let entries: ArchiveEntry[];
  try {
    entries = zipEntries(res.body, probe.maxBytes);
  } catch (error) {
    if (!(error instanceof ZipReadError)) throw error;
    f.add(unreadable(error));
    return 0;
  }
  // One folder named for a snapshot holds everything: what is outside it is that one fault, and the names below are within it.
  const tops = [...new Set(entries.map((entry) => (entry.name.includes('/') ? `${entry.name.split('/')[0] ?? ''}/` : entry.name)))];
  const folder = (tops.find((top) => DOWNLOAD_FOLDER.test(top)) ?? '').slice(0, -1);
  if (tops.length !== 1 || folder === '')
    f.add(`${PATHS.download} unpacks into ${tops.length} top-level entries (${tops.slice(0, 3).join(', ')}), not one folder named for the snapshot`);
  const inFolder = entries.filter((entry) => folder !== '' && entry.name.startsWith(`${folder}/`));
  const within = (entry: ArchiveEntry): string => entry.name.slice(folder.length + 1);
  const readme = inFolder.find((entry) => within(entry) === README_ENTRY);
  if (readme === undefined) f.add(`${PATHS.download} has no ${README_ENTRY}`);
  else {
    const read = readEntry(readme);
    if (read instanceof ZipReadError) f.add(unreadable(read));
  }
  const files = inFolder.filter((entry) => entry !== readme);
  const answers = await Promise.all(
    files.map(async (entry) => {
      const path = pathOfEntry(within(entry));
      if (path === undefined) return `${entry.name} names no JSON or CSV document`;
      if (within(entry) === DATA_PACKAGE_ENTRY) {
        // The Data Package is the served one with its resources' paths made the names of the files beside it (small: kept).
        const served = await probe.fetch(path);
        const expected = served.status === 200 ? localDataPackage(served.body, probe.baseUrl) : served.body;
        const fault = `${entry.name} is not the bytes of GET ${path} with its resources' paths made the files' names (${served.status}, ${expected.length} vs ${entry.size} bytes)`;
        if (served.status !== 200 || expected.length !== entry.size) return fault;
        const body = readEntry(entry);
        if (body instanceof ZipReadError) return unreadable(body);
        return body.equals(expected) ? undefined : fault;
      }
      // The answer is hashed as it streams and the entry is inflated only when the sizes agree: their SHA-256s are compared.
      const served = await probe.fetch(path, { keep: false });
      const fault = `${entry.name} is not the bytes of GET ${path} (${served.status}, ${served.bytes} vs ${entry.size} bytes)`;
      if (served.status !== 200 || served.bytes !== entry.size) return fault;
      const body = readEntry(entry);
      if (body instanceof ZipReadError) return unreadable(body);
      return createHash('sha256').update(body).digest('hex') === served.sha256 ? undefined : fault;
    }),
  );
  for (const fault of answers) if (fault !== undefined) f.add(fault);
  const held = new Set(files.map((entry) => pathOfEntry(within(entry))));
  for (const path of mustHold) f.expect(held.has(path), `${PATHS.download} does not hold ${path}`);
  return files.length;
}
