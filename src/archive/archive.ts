// Published snapshots kept for ever (archive/<date>/): read back with every byte checked against its recorded hash, and added to without ever rewriting one.
import type { ValidateFunction } from 'ajv';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ArchiveError } from '../contract/errors.ts';
import { renderJson } from '../contract/json.ts';
import { ARCHIVE_BASE_URL, PATHS, VINTAGE_DOCUMENTS, vintageFileOf, type VintageFile } from '../contract/paths.ts';
import { ArchivedProfile, plainSchema, type MarketProfile } from '../contract/schemas.ts';
import { ArchiveRecord } from '../contract/vintages.ts';
import type { PastSnapshot } from '../methodology/series.ts';
import type { Snapshot } from '../methodology/snapshot.ts';
import { currentSources } from '../methodology/vintages.ts';
import { METHODOLOGY_VERSION } from '../methodology/version.ts';
import type { RouteTable } from '../routes/route-table.ts';
import { compilePublished, firstViolation } from '../validate/contract-checks.ts';

/** The record of one archived snapshot, beside its documents. */
export const RECORD_FILE = 'snapshot.json';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const sha256 = (body: Buffer): string => createHash('sha256').update(body).digest('hex');

/** Absolute URLs of this deployment written with the placeholder, so an archived byte does not depend on where it is served. */
const toArchived = (body: Buffer, baseUrl: string): Buffer => Buffer.from(body.toString('utf8').replaceAll(baseUrl, ARCHIVE_BASE_URL), 'utf8');

/** The current snapshot's documents as an archive keeps them, by archive name. */
export function snapshotDocuments(table: RouteTable): Map<string, Buffer> {
  const body = (path: string): Buffer => {
    const route = table.routes.get(path);
    if (route === undefined) throw new ArchiveError('archive_shape', { route: path }, 'the build has no such route to archive');
    return toArchived(route.identity.body, table.baseUrl);
  };
  const out = new Map<string, Buffer>([
    [VINTAGE_DOCUMENTS.index, body(PATHS.index)],
    [VINTAGE_DOCUMENTS.bulkCsv, body(PATHS.bulkCsv)],
  ]);
  for (const id of table.marketIds) {
    out.set(VINTAGE_DOCUMENTS.profile(id), body(PATHS.profile(id)));
    out.set(VINTAGE_DOCUMENTS.csv(id), body(PATHS.marketCsv(id)));
  }
  return out;
}

export function archiveRecord(snapshot: Snapshot, documents: ReadonlyMap<string, Buffer>): ArchiveRecord {
  return {
    snapshotDate: snapshot.snapshotDate,
    methodologyVersion: METHODOLOGY_VERSION,
    sources: currentSources(snapshot),
    documents: [...documents].sort(([a], [b]) => (a < b ? -1 : 1)).map(([file, body]) => ({ file, bytes: body.length, sha256: sha256(body) })),
  };
}

/** Every file `archive` writes for the current snapshot, by its name in the snapshot's folder: the documents and the record. */
export function snapshotFiles(snapshot: Snapshot, table: RouteTable): Map<string, Buffer> {
  const documents = snapshotDocuments(table);
  return new Map([...documents, [RECORD_FILE, Buffer.from(renderJson(archiveRecord(snapshot, documents)))]]);
}

/** The message of a snapshot whose bytes differ from those archived under its date, by `archive` and by the build alike. */
const changedSnapshot = (date: string): string =>
  `this build's bytes differ from those archived for ${date}; an archived snapshot is never rewritten (a changed snapshot needs a new retrieval date)`;

/**
 * A snapshot archived already under its date must be built again byte for byte, as `archive` compares its documents:
 * every profile, CSV and index. A build that differs (fixtures changed without a new retrieval date, or code that
 * changes what the documents say) would serve under that date what was never published there. Refused, naming the
 * first document that differs. (Its record, which `archive` compares too, names the sources' files: a fixture byte that
 * changes no document is for `archive` to refuse, not the build.)
 */
export function assertSameDocuments(snapshot: Snapshot, table: RouteTable): void {
  const archived = snapshot.archive.find((p) => p.snapshotDate === snapshot.snapshotDate);
  if (archived === undefined) return;
  const date = snapshot.snapshotDate;
  const now = snapshotDocuments(table);
  const names = [...new Set([...archived.documents.keys(), ...now.keys()])].sort();
  const changed = names.find((name) => {
    const was = archived.documents.get(name);
    const is = now.get(name);
    return was === undefined || is === undefined || !was.equals(is);
  });
  if (changed !== undefined) throw new ArchiveError('archive_changed', { file: `${date}/${changed}` }, changedSnapshot(date));
}

/**
 * The shapes `archive` writes, checked as a snapshot is read back: compiled when an archive is first read (about 70 ms),
 * not by every command that imports this module.
 */
let validators: { record: ValidateFunction; profile: ValidateFunction } | undefined;
const validatorsOf = (): { record: ValidateFunction; profile: ValidateFunction } =>
  (validators ??= {
    record: compilePublished(JSON.stringify(plainSchema(ArchiveRecord))),
    profile: compilePublished(JSON.stringify(plainSchema(ArchivedProfile))),
  });

/** JSON from an archived file, or an ArchiveError naming it. */
function parsed(text: string, file: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ArchiveError('archive_shape', { file }, `${what} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * Why a record's list of documents is not a snapshot's, or undefined: a snapshot holds its index and its bulk CSV, and
 * a JSON and a CSV for each of its markets, each once; nothing else (so nothing outside its folder is ever read).
 */
function documentsFault(names: readonly string[]): string | undefined {
  const listed = new Map<string, VintageFile>();
  for (const name of names) {
    const file = vintageFileOf(name);
    if (file === undefined) {
      return `it lists ${JSON.stringify(name)}, which is no document of a snapshot (markets.json, markets.csv, markets/<market-id>.json or .csv)`;
    }
    if (listed.has(name)) return `it lists ${name} twice`;
    listed.set(name, file);
  }
  for (const name of [VINTAGE_DOCUMENTS.index, VINTAGE_DOCUMENTS.bulkCsv]) if (!listed.has(name)) return `it lists no ${name}`;
  for (const [name, file] of listed) {
    if (file.kind === 'index' || file.kind === 'bulkCsv') continue;
    const pair = file.kind === 'profile' ? VINTAGE_DOCUMENTS.csv(file.id) : VINTAGE_DOCUMENTS.profile(file.id);
    if (!listed.has(pair)) return `it lists ${name} but not ${pair}`;
  }
  return undefined;
}

function readRecord(dir: string, date: string): ArchiveRecord {
  const file = `${date}/${RECORD_FILE}`;
  let text: string;
  try {
    text = readFileSync(join(dir, date, RECORD_FILE), 'utf8');
  } catch (error) {
    throw new ArchiveError('archive_shape', { file }, `cannot read the snapshot's record: ${(error as Error).message}`);
  }
  const record = parsed(text, file, "the snapshot's record");
  const violation = firstViolation(validatorsOf().record, record);
  if (violation !== undefined) throw new ArchiveError('archive_shape', { file, pointer: violation.pointer }, `not a snapshot record: ${violation.reason}`);
  const r = record as ArchiveRecord;
  if (r.snapshotDate !== date) throw new ArchiveError('archive_shape', { file, pointer: '/snapshotDate' }, `the record is of ${r.snapshotDate}, its folder of ${date}`);
  const fault = documentsFault(r.documents.map((d) => d.file));
  if (fault !== undefined) throw new ArchiveError('archive_shape', { file, pointer: '/documents' }, `not the documents of a snapshot: ${fault}`);
  return r;
}

/** An archived profile as the build reads it again, or an ArchiveError naming its file and what it lacks. */
function readProfile(body: Buffer, id: string, file: string): MarketProfile {
  const doc = parsed(body.toString('utf8'), file, 'the profile');
  const violation = firstViolation(validatorsOf().profile, doc);
  if (violation !== undefined) throw new ArchiveError('archive_shape', { file, pointer: violation.pointer }, `not a market profile: ${violation.reason}`);
  const profile = doc as MarketProfile;
  if (profile.market.id !== id) throw new ArchiveError('archive_shape', { file, pointer: '/market/id' }, `the profile is of ${profile.market.id}, its file of ${id}`);
  return profile;
}

/**
 * Every archived snapshot under `dir`, each document checked against the hash its record holds: an archived byte that
 * changed, a document missing or one the record does not list stops the build, naming the file. No folder: no archive.
 */
export function readArchive(dir: string): PastSnapshot[] {
  if (!existsSync(dir)) return [];
  const dates = readdirSync(dir)
    // A folder being written (.<date>.tmp-<pid>) is not a snapshot yet.
    .filter((name) => !name.startsWith('.') && statSync(join(dir, name)).isDirectory())
    .sort();
  return dates.map((date) => {
    if (!DATE.test(date)) throw new ArchiveError('archive_shape', { file: date }, 'an archived snapshot is a folder named by its date, YYYY-MM-DD');
    const record = readRecord(dir, date);
    const documents = new Map<string, Buffer>();
    for (const d of record.documents) {
      const file = `${date}/${d.file}`;
      let body: Buffer;
      try {
        body = readFileSync(join(dir, date, d.file));
      } catch {
        throw new ArchiveError('archive_tampered', { file }, `the record lists it, but it is missing`);
      }
      if (body.length !== d.bytes || sha256(body) !== d.sha256) {
        throw new ArchiveError(
          'archive_tampered',
          { file },
          `its bytes (${body.length}, SHA-256 ${sha256(body)}) are not the ones archived (${d.bytes}, ${d.sha256}); an archived snapshot is never changed`,
        );
      }
      documents.set(d.file, body);
    }
    const listed = new Set(record.documents.map((d) => d.file));
    const walk = (sub: string): string[] =>
      readdirSync(join(dir, date, sub)).flatMap((name) => {
        const rel = sub === '' ? name : `${sub}/${name}`;
        return statSync(join(dir, date, rel)).isDirectory() ? walk(rel) : [rel];
      });
    const extra = walk('').find((f) => f !== RECORD_FILE && !listed.has(f));
    if (extra !== undefined) throw new ArchiveError('archive_tampered', { file: `${date}/${extra}` }, `${RECORD_FILE} does not list it`);
    const profiles = new Map<string, MarketProfile>();
    for (const [name, body] of documents) {
      const file = vintageFileOf(name);
      if (file?.kind === 'profile') profiles.set(file.id, readProfile(body, file.id, `${date}/${name}`));
    }
    return { snapshotDate: date, methodologyVersion: record.methodologyVersion, sources: record.sources, profiles, documents };
  });
}

/** A metric as compared across two builds of one snapshot: what an analyst would cite. */
const cited = (m: MarketProfile['profile']['metrics'][string] | undefined): string =>
  m === undefined ? 'absent' : JSON.stringify([m.value, m.asOf, m.sourceId, m.marginOfError ?? null, m.illustrative ?? false]);

/**
 * A snapshot already archived under its date must give the same values again: fixtures that changed without a new
 * retrieval date would otherwise serve two sets of numbers under one date. Checked before anything is rendered, naming
 * the metric; assertSameDocuments then holds the rendered documents to the archived bytes.
 */
export function assertSameValues(snapshot: Snapshot): void {
  const archived = snapshot.archive.find((p) => p.snapshotDate === snapshot.snapshotDate);
  if (archived === undefined) return;
  const date = snapshot.snapshotDate;
  const now = new Map(snapshot.markets.map((m) => [m.profile.market.id, m.profile]));
  for (const id of new Set([...archived.profiles.keys(), ...now.keys()])) {
    const file = `${date}/${VINTAGE_DOCUMENTS.profile(id)}`;
    const before = archived.profiles.get(id);
    const after = now.get(id);
    if (before === undefined || after === undefined) {
      throw new ArchiveError(
        'archive_changed',
        { file },
        `the snapshot of ${date} ${before === undefined ? 'did not have' : 'had'} market ${id}; a changed snapshot needs a new retrieval date`,
      );
    }
    for (const key of new Set([...Object.keys(before.profile.metrics), ...Object.keys(after.profile.metrics)])) {
      const was = cited(before.profile.metrics[key]);
      const is = cited((after.profile.metrics as Record<string, MarketProfile['profile']['metrics'][string]>)[key]);
      if (was !== is) {
        throw new ArchiveError(
          'archive_changed',
          { file, pointer: `/profile/metrics/${key}` },
          `the fixtures give ${is} where the archived snapshot of ${date} has ${was}; a changed snapshot needs a new retrieval date (fetch records one)`,
        );
      }
    }
  }
}

/**
 * Fixtures retrieved before the newest archived snapshot are an older download (a stale mirror, an old copy of the
 * fixtures): built, they would serve older data as current, and `archive` would file them into the past. Refused, naming
 * the retrieval record that dates them and the archived snapshot they predate.
 */
export function assertNotBeforeArchive(snapshot: Snapshot): void {
  const newest = snapshot.archive.reduce<string | undefined>((latest, p) => (latest === undefined || p.snapshotDate > latest ? p.snapshotDate : latest), undefined);
  if (newest === undefined || newest <= snapshot.snapshotDate) return;
  const dating = snapshot.sources.find((s) => s.source.latestRetrievedAt === snapshot.snapshotDate)?.source.sourceId ?? 'fixtures';
  throw new ArchiveError(
    'archive_newer',
    { file: `${dating}/retrieval.json`, pointer: '/latestRetrievedAt' },
    `the fixtures were retrieved on ${snapshot.snapshotDate}, before the newest archived snapshot, ${newest}; fixtures older than the archive are refused (fetch the current files, or build with the archive they belong to)`,
  );
}

export interface ArchiveResult {
  /** The folder of the snapshot, relative to the archive. */
  folder: string;
  /** False when the same bytes were archived already. */
  written: boolean;
  documents: number;
  /** The staging folders of interrupted runs removed first (removeAbandoned). */
  removed: string[];
}

/** The folder `writeSnapshot` writes a snapshot into before renaming it into place: `.<date>.tmp-<pid>`, hidden from readArchive. */
const STAGING = /^\.\d{4}-\d{2}-\d{2}\.tmp-(\d+)$/;

/** Whether a process of that id exists (EPERM: it does, and is another user's). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the staging folders that `archive` runs killed before their rename left behind (a SIGKILL, a power cut): those
 * whose process is gone, or is this one. A run still writing keeps its folder, so two runs at once never remove each
 * other's; a dead run's id taken by another process keeps its folder until the next run after that one. Returns the
 * names removed.
 */
export function removeAbandoned(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const pid = STAGING.exec(name)?.[1];
    if (pid === undefined || (Number(pid) !== process.pid && running(Number(pid)))) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** What a test injects into `writeSnapshot`: a step between writing the staging folder and renaming it into place. */
export interface WriteHooks {
  /** Runs once the staging folder is whole, just before the rename (a test makes another run win the race here). */
  beforeRename?: (staging: string, target: string) => void;
}

/** The snapshot archived already: the same bytes (false when there is nothing there), or refused, naming the first file that differs. */
function archivedAlready(target: string, date: string, files: ReadonlyMap<string, Buffer>): boolean {
  if (!existsSync(target)) return false;
  for (const [name, body] of files) {
    const path = join(target, name);
    if (!existsSync(path) || !readFileSync(path).equals(body)) throw new ArchiveError('archive_changed', { file: `${date}/${name}` }, changedSnapshot(date));
  }
  return true;
}

/** A rename refused because its target is a folder that is there now (another run's, renamed into place first). */
const lostRace = (error: unknown): boolean => ['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * Adds the current snapshot to the archive: a new folder, written whole then renamed into place, once the staging folders
 * of interrupted runs are gone (removeAbandoned). A snapshot archived
 * already is left as it is when its bytes are the same, and refused, naming the first file that differs, when not. Two
 * runs at once: the one whose rename comes second finds the other's folder in place, and answers as a run after it
 * would (archived already, or refused if its bytes differ).
 */
export function writeSnapshot(dir: string, snapshot: Snapshot, table: RouteTable, hooks: WriteHooks = {}): ArchiveResult {
  const removed = removeAbandoned(dir);
  const files = snapshotFiles(snapshot, table);
  const documents = files.size - 1; // the record is the one file that is not a document
  const date = snapshot.snapshotDate;
  const target = join(dir, date);
  const already: ArchiveResult = { folder: date, written: false, documents, removed };
  if (archivedAlready(target, date, files)) return already;
  const staging = join(dir, `.${date}.tmp-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    for (const [name, body] of files) {
      mkdirSync(dirname(join(staging, name)), { recursive: true });
      writeFileSync(join(staging, name), body);
    }
    hooks.beforeRename?.(staging, target);
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (lostRace(error) && archivedAlready(target, date, files)) return already;
    throw error;
  }
  return { folder: date, written: true, documents, removed };
}
