// `market-profiles fetch`: downloads every source from the agency, checks it with the build's own loader and against the fixtures it would replace, and only then replaces that source's fixtures, atomically; one line per source says how it went.
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CREDENTIAL_KIND, loadOptions, type CommandOptions } from './config.ts';
import { cutMidLine, implausibleLastModified, regressions, seriesRegressions } from './fetch-checks.ts';
import { renderJson } from '../contract/json.ts';
import { MARKETS, type MarketDefinition } from '../contract/markets.ts';
import { ConfigError, DataError } from '../contract/errors.ts';
import { closest } from './suggest.ts';
import { MAX_FIXTURE_BYTES, fixturesOnDisk, loadSources } from '../sources/load.ts';
import { decodeFixture, readRetrieval, type Retrieval } from '../sources/parse.ts';
import type { ReleaseDateBasis } from '../contract/schemas.ts';
import { SOURCES } from '../sources/registry.ts';
import type { Credential, Observation, ReadFixture, RemoteFile, SourceLoad, SourceModule } from '../sources/source.ts';

/**
 * The secrets the sources' APIs take (a source module declares its credential), each set only by its environment
 * variable: a secret has no flag, so it stays out of shell histories and process lists. Here, not in config.ts, so that
 * the commands that read no credential (serve) do not load the sources.
 */
export const CREDENTIALS: readonly Credential[] = SOURCES.flatMap((s) => (s.credential === undefined ? [] : [s.credential]));

export interface FetchConfig extends CommandOptions<'fetch'> {
  /** Each source credential's value, by its environment variable; unset ones are absent. */
  credentials: Readonly<Record<string, string>>;
}

/** The options of `fetch`, then the sources' credentials from their environment variables. */
export function loadFetchConfig(env: Readonly<Record<string, string | undefined>>, argv: readonly string[]): FetchConfig {
  const options = loadOptions('fetch', env, argv);
  const credentials = Object.fromEntries(
    CREDENTIALS.flatMap((c) => {
      const raw = env[c.env];
      return raw === undefined ? [] : [[c.env, CREDENTIAL_KIND.parse(raw, c.env)] as const];
    }),
  );
  return { ...options, credentials };
}

export interface FetchOptions {
  fixturesDir: string;
  /** Only these sources (ids); all when empty. */
  only?: readonly string[];
  /** Download and check, print what would change, write nothing. */
  dryRun?: boolean;
  /** Accept a download of an older vintage, or with an earlier latest period for a value, than the fixtures (said on stderr). */
  allowOlder?: boolean;
  /** Replaces the scheme and host of every agency address (a mirror, or the tests' replay server); the path and query stay. */
  upstream?: string;
  /** Secrets an agency's API takes, by the environment variable a source's credential names; never written to a file or a message. */
  credentials?: Readonly<Record<string, string | undefined>>;
  timeoutMs?: number;
  /** Attempts per file, the first included. */
  attempts?: number;
  /** Wait before the second attempt; doubled before each further one. */
  backoffMs?: number;
  /** Largest body accepted, in bytes. */
  maxBytes?: number;
  markets?: readonly MarketDefinition[];
  sources?: readonly SourceModule[];
  /** The clock that dates the retrieval (injected so tests are deterministic). */
  now?: () => Date;
  fetch?: typeof globalThis.fetch;
  /** Each file's full address, size and retries too, not only one line per source. */
  verbose?: boolean;
  /** Progress and changes (stdout); problems go to `warn` (stderr). */
  say?: (line: string) => void;
  warn?: (line: string) => void;
}

export const FETCH_DEFAULTS = { timeoutMs: 60_000, attempts: 3, backoffMs: 1_000, maxBytes: MAX_FIXTURE_BYTES } as const;

/**
 * A source that could not be fetched: its message names the source and the address (never the API key), for --verbose;
 * `outcome` is what its one line says after the source's id, without the address: `refused: <reason>`, `could not reach
 * the agency (ECONNREFUSED)`, `failed: <reason>`.
 */
export class FetchError extends Error {
  readonly outcome: string;
  constructor(
    readonly sourceId: string,
    readonly url: string,
    reason: string,
    outcome?: string,
  ) {
    super(`${sourceId}: ${url}: ${reason}`);
    this.name = 'FetchError';
    this.outcome = outcome ?? `failed: ${reason}`;
  }
}

/** A failure worth another attempt (a timeout, a reset, a 5xx); `unreachable` is the network's code when no answer came at all. */
class Transient extends Error {
  constructor(
    message: string,
    readonly unreachable?: string,
  ) {
    super(message);
  }
}

/**
 * An answer another attempt would not change (a 404, an HTML page, an empty or too large body): it is not retried.
 * `refusal` marks the shapes an API gives a request it will not serve (401, 403, an HTML page), where a credential may be why;
 * `status` an error status, which the source's line calls a failure of the agency's rather than a refusal of fetch's.
 */
class FinalAnswer extends Error {
  constructor(
    message: string,
    readonly refusal = false,
    readonly status = false,
  ) {
    super(message);
  }
}

interface Downloaded {
  remote: RemoteFile;
  body: Buffer;
  lastModified: string | undefined;
  /** The address the bytes came from, where a redirect to another origin led there. */
  servedFrom: string | undefined;
}

const HTML_START = /^\s*<(?:!doctype\s+html|html|head|body)\b/i;

/** Reads a body up to `maxBytes`, so a runaway answer cannot fill memory. */
async function readCapped(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) throw new FinalAnswer(`the answer declares ${declared} bytes, more than the limit of ${maxBytes}`);
  const chunks: Buffer[] = [];
  let total = 0;
  if (response.body === null) return Buffer.alloc(0);
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new FinalAnswer(`the answer is larger than the limit of ${maxBytes} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  const body = Buffer.concat(chunks);
  // Content-Length counts the bytes as sent: a compressed answer arrives decompressed here, longer than it says.
  const coding = (response.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (coding === 'identity' && Number.isFinite(declared) && body.length !== declared)
    throw new Transient(`truncated: ${body.length} of ${declared} bytes arrived`);
  return body;
}

/** Redirects followed per download, at most: an agency's address moves once or twice, a loop never ends. */
export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Where a redirect may lead: the origin asked (the agency's, or the mirror `--upstream` names) and the source's own
 * origins. A redirect elsewhere is refused before it is followed, and never from https down to http.
 */
function redirectRefusal(from: URL, to: URL, allowed: ReadonlySet<string>, sourceId: string): string | undefined {
  if (from.protocol === 'https:' && to.protocol !== 'https:') return `a redirect led from https to ${to.protocol.slice(0, -1)} (${to.origin}); refused`;
  if (!allowed.has(to.origin)) return `a redirect led to ${to.origin}, which is not ${sourceId}'s own (${[...allowed].join(', ')}); refused`;
  return undefined;
}

async function attempt(
  url: string,
  options: Required<Pick<FetchOptions, 'timeoutMs' | 'maxBytes'>> & { fetch: typeof globalThis.fetch; allowed: ReadonlySet<string>; sourceId: string },
): Promise<{ body: Buffer; lastModified: string | undefined; servedFrom: string | undefined }> {
  const asked = new URL(url);
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  let current = asked;
  // Redirects are followed here, one by one, so that each one's target is judged before anything is asked of it.
  for (let hops = 0; ; hops += 1) {
    try {
      response = await options.fetch(current.href, { signal, redirect: 'manual', headers: { 'accept-encoding': 'gzip, deflate' } });
    } catch (error) {
      throw new Transient(failureText(error, options.timeoutMs), networkCode(error));
    }
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) break;
    await response.body?.cancel();
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new FinalAnswer(`the server answered ${response.status} with a Location that is not a URL`);
    }
    const refusal = redirectRefusal(current, next, options.allowed, options.sourceId);
    if (refusal !== undefined) throw new FinalAnswer(refusal);
    if (hops + 1 > MAX_REDIRECTS) throw new FinalAnswer(`more than ${MAX_REDIRECTS} redirects; refused`);
    current = next;
  }
  // A fetch that follows redirects itself (an injected one) reports where it ended: judged as a redirect would be.
  const final = response.url === '' ? current : new URL(response.url);
  const refusal = final.href === current.href ? undefined : redirectRefusal(current, final, options.allowed, options.sourceId);
  if (refusal !== undefined) {
    await response.body?.cancel();
    throw new FinalAnswer(refusal);
  }
  if (response.status >= 500 || response.status === 429 || response.status === 408) {
    await response.body?.cancel();
    throw new Transient(`the server answered ${response.status}`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new FinalAnswer(`the server answered ${response.status}, not 200`, response.status === 401 || response.status === 403, true);
  }
  let body: Buffer;
  try {
    body = await readCapped(response, options.maxBytes);
  } catch (error) {
    if (error instanceof Transient || error instanceof FinalAnswer) throw error;
    throw new Transient(failureText(error, options.timeoutMs));
  }
  if (body.length === 0) throw new FinalAnswer('the answer is empty');
  const type = response.headers.get('content-type') ?? '';
  // Its type and length only: an answer that is not the data is never quoted.
  if (/text\/html/i.test(type) || HTML_START.test(body.subarray(0, 512).toString('latin1'))) {
    throw new FinalAnswer(`the answer is an HTML page (${type || 'no content type'}), not the data file`, true);
  }
  return { body, lastModified: response.headers.get('last-modified') ?? undefined, servedFrom: final.origin === asked.origin ? undefined : final.href };
}

/** The network's code for a request that got no answer at all (ECONNREFUSED, ENOTFOUND), if it gave one; not for a timeout. */
function networkCode(error: unknown): string | undefined {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' && /^E[A-Z_]+$/.test(code) ? code : undefined;
}

/** What went wrong with a request, as one line of a message; a timeout says how long it waited. */
function failureText(error: unknown, timeoutMs: number): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no complete answer within ${timeoutMs} ms`;
  const cause = e.cause?.code ?? e.cause?.message;
  return cause === undefined ? e.message : `${e.message} (${cause})`;
}

/** The agency's address, with the upstream override and the source's credential applied. */
export function addressOf(remote: RemoteFile, source: Pick<SourceModule, 'credential'>, options: Pick<FetchOptions, 'upstream' | 'credentials'>): string {
  const url = new URL(remote.url);
  if (options.upstream !== undefined) {
    const base = new URL(options.upstream);
    url.protocol = base.protocol;
    url.host = base.host;
  }
  const secret = source.credential === undefined ? undefined : options.credentials?.[source.credential.env];
  if (source.credential !== undefined && secret !== undefined && secret !== '') url.searchParams.set(source.credential.query, secret);
  return url.href;
}

/** The address as it may be shown and recorded: without the source's credential. */
const shown = (address: string, source: Pick<SourceModule, 'credential'>): string => {
  const url = new URL(address);
  if (source.credential !== undefined) url.searchParams.delete(source.credential.query);
  return url.href;
};

/** A file as its source's line names it: its path within the source's folder. */
const fileName = (adapter: Pick<SourceModule, 'sourceId'>, remote: RemoteFile): string =>
  remote.file.startsWith(`${adapter.sourceId}/`) ? remote.file.slice(adapter.sourceId.length + 1) : remote.file;

async function download(adapter: SourceModule, remote: RemoteFile, options: FetchOptions): Promise<Downloaded> {
  const address = addressOf(remote, adapter, options);
  const file = fileName(adapter, remote);
  const attempts = options.attempts ?? FETCH_DEFAULTS.attempts;
  const settings = {
    timeoutMs: options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs,
    maxBytes: options.maxBytes ?? FETCH_DEFAULTS.maxBytes,
    fetch: options.fetch ?? globalThis.fetch,
    allowed: new Set([new URL(address).origin, ...adapter.origins.map((o) => new URL(o).origin)]),
    sourceId: adapter.sourceId,
  };
  let last: Transient | undefined;
  for (let i = 0; i < attempts; i += 1) {
    if (i > 0) await new Promise((wake) => setTimeout(wake, (options.backoffMs ?? FETCH_DEFAULTS.backoffMs) * 2 ** (i - 1)));
    try {
      return { remote, ...(await attempt(address, settings)) };
    } catch (error) {
      if (!(error instanceof Transient)) {
        const hint = error instanceof FinalAnswer && error.refusal ? credentialHint(adapter, options) : '';
        const reason = `${(error as Error).message}${hint}`;
        throw new FetchError(
          adapter.sourceId,
          shown(address, adapter),
          reason,
          `${error instanceof FinalAnswer && !error.status ? 'refused' : 'failed'}: ${file}: ${reason}`,
        );
      }
      last = error;
      // The last attempt's failure is the source's, said once with the count of attempts.
      if (options.verbose === true && i + 1 < attempts)
        options.warn?.(`market-profiles: fetch: ${adapter.sourceId}: ${shown(address, adapter)}: ${error.message}; trying again`);
    }
  }
  const reason = `${last?.message ?? 'no attempt was made'} (after ${attempts} attempts)`;
  const where = options.upstream === undefined ? 'the agency' : new URL(options.upstream).origin;
  throw new FetchError(
    adapter.sourceId,
    shown(address, adapter),
    reason,
    last?.unreachable === undefined ? `failed: ${file}: ${reason}` : `could not reach ${where} (${last.unreachable})`,
  );
}

/**
 * What to add to a refusal (401, 403, an HTML page) from an API that takes a credential: that it is not set (the Census
 * Data API answers a request without a key with an HTML page), or that the one set may have been refused.
 */
function credentialHint(adapter: SourceModule, options: Pick<FetchOptions, 'credentials'>): string {
  const credential = adapter.credential;
  if (credential === undefined) return '';
  const value = options.credentials?.[credential.env];
  return value === undefined || value === ''
    ? `; ${credential.env} is not set, and this API refuses requests without a key: ${credential.signup}, then set ${credential.env}`
    : `; ${credential.env} is set: the API may have refused that key`;
}

const sha256 = (body: Buffer): string => createHash('sha256').update(body).digest('hex');
const isoDate = (d: Date): string => d.toISOString().slice(0, 10);

/** What fetch writes beside the data files: where each came from, when, its size and hash, and the dates the build reads. */
export interface RetrievalRecord {
  vintage: string;
  latestReleaseDate?: string;
  latestReleaseDateBasis?: ReleaseDateBasis;
  latestRetrievedAt: string;
  readFrom: string;
  files: {
    file: string;
    url: string;
    /** Where the bytes came from, when a redirect led to another origin (a mirror or a CDN). */
    servedFrom?: string;
    retrievedAt: string;
    bytes: number;
    sha256: string;
    lastModified?: string;
  }[];
}

/** One line per value that differs between two loads of a source: `us-tx-austin medianGrossRent 1712 → 1748`. */
export function changes(before: SourceLoad | undefined, after: SourceLoad): string[] {
  const key = (o: Observation): string => `${o.marketId} ${o.metricId}`;
  const old = new Map((before?.observations ?? []).map((o) => [key(o), o]));
  const now = new Map(after.observations.map((o) => [key(o), o]));
  const lines: string[] = [];
  for (const k of [...new Set([...old.keys(), ...now.keys()])].sort()) {
    const a = old.get(k);
    const b = now.get(k);
    if (a?.value === b?.value && a?.asOf === b?.asOf) continue;
    const value = (o: Observation | undefined): string => (o === undefined ? '(none)' : String(o.value));
    lines.push(`${k} ${value(a)} → ${value(b)}${a !== undefined && b !== undefined && a.asOf !== b.asOf ? ` (${a.asOf} → ${b.asOf})` : ''}`);
  }
  return lines;
}

/** A reader of the fixtures as they would be after the download: the new files over the old folder. */
function overlay(base: ReadFixture, files: ReadonlyMap<string, Buffer>): ReadFixture {
  return (path) => {
    const downloaded = files.get(path);
    return downloaded === undefined ? base(path) : decodeFixture(downloaded, path);
  };
}

async function writeAtomically(dir: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
  const staged: [string, string][] = [];
  try {
    for (const [file, body] of files) {
      const target = join(dir, file);
      const temp = `${target}.fetch-${process.pid}`;
      await mkdir(dirname(target), { recursive: true });
      await writeFile(temp, body);
      staged.push([temp, target]);
    }
  } catch (error) {
    await Promise.all(staged.map(([temp]) => rm(temp, { force: true })));
    throw error;
  }
  // Every file is on disk before the first rename, so an interruption before this point leaves the fixtures as they were.
  for (const [temp, target] of staged) await rename(temp, target);
}

export interface FetchReport {
  /** Every selected source passed its checks (and was written, unless a dry run). */
  ok: boolean;
  /** The sources that passed: their vintage, files downloaded and value changes. */
  sources: { sourceId: string; vintage: string; files: number; bytes: number; changes: string[] }[];
  /** The sources that failed, one error each, in the registry's order; their fixtures were left as they were. */
  failures: FetchError[];
  /** The files of the sources that passed were written (false on a dry run, or when none passed). */
  written: boolean;
}

/**
 * The message of an error the build's loader threw on a download: its place and reason, bounded. It may quote the one
 * field it names, never the answer: V8's JSON errors quote the start of the text, which is cut.
 */
function loaderText(error: unknown): string {
  const message = (error as Error).message.replace(/, ".*?"(?:\.\.\.)? is not valid JSON/s, '');
  const text = error instanceof DataError ? message : `the loader failed on it (a bug; please report it): ${message}`;
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** What one source's fetch gives when it passed: the files to write and its report. */
interface Passed {
  files: Map<string, Buffer>;
  report: FetchReport['sources'][number];
}

/** A fixture's text, or undefined where there is none yet (a first fetch). */
function fixtureText(read: ReadFixture, file: string): string | undefined {
  try {
    return read(file);
  } catch {
    return undefined;
  }
}

/** Every series of a source's files with its periods, where the source has series; undefined where they cannot be read (a first fetch). */
function seriesOf(adapter: SourceModule, read: ReadFixture): ReadonlyMap<string, ReadonlySet<string>> | undefined {
  try {
    return adapter.seriesPeriods?.(read);
  } catch {
    return undefined;
  }
}

/**
 * One source: downloads its files, loads them over the current fixtures with the build's own loader (every check the
 * build makes of a fixture), and refuses a download that would publish less or older data than the fixtures it
 * replaces. Throws a FetchError saying why it failed; writes nothing.
 */
async function fetchSource(
  adapter: SourceModule,
  options: FetchOptions,
  current: ReadFixture,
  markets: readonly MarketDefinition[],
  now: Date,
): Promise<Passed> {
  const say = options.say ?? (() => undefined);
  const downloads: Downloaded[] = [];
  for (const remote of adapter.remote) {
    const got = await download(adapter, remote, options);
    if (options.verbose === true)
      say(
        `${adapter.sourceId}: ${shown(addressOf(remote, adapter, options), adapter)}: ${got.body.length} bytes${got.servedFrom === undefined ? '' : `, served from ${shown(got.servedFrom, adapter)}`}`,
      );
    downloads.push(got);
  }
  const addresses = downloads.map((d) => shown(addressOf(d.remote, adapter, options), adapter)).join(' ');
  const unusable = (error: unknown): FetchError => {
    const reason = `the download does not pass the build's checks: ${loaderText(error)}`;
    return new FetchError(adapter.sourceId, addresses, reason, `refused: ${reason}`);
  };
  const refusal = (reasons: readonly string[], hint = ''): FetchError => {
    const reason = `it would publish less or older data than the fixtures: ${reasons.join('; ')}${hint}`;
    return new FetchError(adapter.sourceId, addresses, `refused, ${reason}`, `refused: ${reason}`);
  };
  // A file cut short at a line's middle, its Content-Length matching what was sent: before the loader, whose rules may not read that line.
  const cut = downloads.flatMap((d) => {
    const why = cutMidLine(fixtureText(current, d.remote.file), d.body);
    return why === undefined ? [] : [`${d.remote.file}: ${why}`];
  });
  if (cut.length > 0) throw refusal(cut);
  const files = new Map<string, Buffer>();
  let retrieval: RetrievalRecord;
  try {
    // The vintage is read from the download too, so a file the adapter cannot read fails here, named as a download.
    retrieval = retrievalRecord(adapter, downloads, current, now, options);
  } catch (error) {
    throw unusable(error);
  }
  for (const d of downloads) files.set(d.remote.file, d.body);
  files.set(`${adapter.sourceId}/retrieval.json`, Buffer.from(renderJson(retrieval)));
  // The build's own loader over the fixtures as they would be: whatever it refuses in a fixture, fetch refuses in a download.
  let after: SourceLoad;
  try {
    after = loadSources(overlay(current, files), markets, [adapter]).loads[0] as SourceLoad;
  } catch (error) {
    throw unusable(error);
  }
  let before: SourceLoad | undefined;
  try {
    before = adapter.load(current, markets);
  } catch {
    before = undefined; // the current fixtures may not load (a first fetch, a changed layout): every value is then new
  }
  const values = regressions(before, after);
  // Every series of the files, a market's or not: the fixtures keep every row of each series they keep.
  const series = seriesRegressions(seriesOf(adapter, current), seriesOf(adapter, overlay(current, files)) ?? new Map());
  const less = [...values.less, ...series.less];
  const older = [...values.older, ...series.older];
  const refused = [...less, ...(options.allowOlder === true ? [] : older)];
  if (refused.length > 0) {
    throw refusal(
      refused,
      options.allowOlder !== true && older.length > 0 ? ' (--allow-older accepts an older vintage, period or series, never less data)' : '',
    );
  }
  for (const reason of older) options.warn?.(`market-profiles: fetch: ${adapter.sourceId}: accepted with --allow-older: ${reason}`);
  return {
    files,
    report: {
      sourceId: adapter.sourceId,
      vintage: retrieval.vintage,
      files: downloads.length,
      bytes: downloads.reduce((n, d) => n + d.body.length, 0),
      changes: changes(before, after),
    },
  };
}

/** A source's line when it passed: `fhfa-hpi: fetched 2026 Q2, 1 file, unchanged` (or how many values changed). */
const passedLine = (r: FetchReport['sources'][number]): string =>
  `${r.sourceId}: fetched ${r.vintage}, ${r.files} ${r.files === 1 ? 'file' : 'files'}, ${
    r.changes.length === 0 ? 'unchanged' : `${r.changes.length} ${r.changes.length === 1 ? 'value' : 'values'} changed`
  }`;

/**
 * Fetches every selected source, each on its own: a source that passed every check has its files and retrieval.json
 * written atomically (unless a dry run), whatever became of the others; a source that failed leaves its fixtures as
 * they were. Each source's outcome is one line (stdout when it passed, with its changes below it; stderr when not), then
 * what was written and which sources failed. The report's `ok` is false when any failed.
 */
export async function fetchSources(options: FetchOptions): Promise<FetchReport> {
  const registered = options.sources ?? SOURCES;
  const adapters = registered.filter((a) => options.only === undefined || options.only.length === 0 || options.only.includes(a.sourceId));
  const unknown = (options.only ?? []).find((id) => !registered.some((a) => a.sourceId === id));
  if (unknown !== undefined) {
    // A usage error, before anything is fetched: the valid ids, and the one meant where a typo is near one.
    const ids = registered.map((a) => a.sourceId).sort();
    const guess = closest(unknown, ids);
    throw new ConfigError(`--source must be one of ${ids.join(', ')}, got "${unknown}"${guess === undefined ? '' : `; did you mean ${guess}?`}`);
  }
  const markets = options.markets ?? MARKETS;
  const say = options.say ?? (() => undefined);
  const warn = options.warn ?? (() => undefined);
  const current = fixturesOnDisk(options.fixturesDir);
  const now = (options.now ?? (() => new Date()))();
  const report: FetchReport = { ok: false, sources: [], failures: [], written: false };
  // Files of the sources that passed: written, or on a dry run, not.
  let files = 0;
  for (const adapter of adapters) {
    let passed: Passed;
    try {
      passed = await fetchSource(adapter, options, current, markets, now);
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      report.failures.push(error);
      warn(`${adapter.sourceId}: ${error.outcome}`);
      if (options.verbose === true) warn(`market-profiles: fetch: ${error.message}`);
      continue;
    }
    if (options.dryRun !== true) await writeAtomically(options.fixturesDir, passed.files);
    files += passed.files.size;
    report.sources.push(passed.report);
    say(passedLine(passed.report));
    for (const line of passed.report.changes) say(`  ${line}`);
  }
  report.ok = report.failures.length === 0;
  report.written = options.dryRun !== true && files > 0;
  if (options.dryRun === true && files > 0) say(`market-profiles: fetch: dry run, ${files} files not written`);
  else if (files > 0) say(`market-profiles: fetch: wrote ${files} files to ${options.fixturesDir}/`);
  if (!report.ok) {
    const failed = report.failures.map((f) => f.sourceId);
    warn(
      `market-profiles: fetch: ${failed.length} of ${adapters.length} ${adapters.length === 1 ? 'source' : 'sources'} failed (${failed.join(', ')}); ${
        failed.length === 1 ? 'its fixtures were' : 'their fixtures were'
      } left as they were${options.verbose === true ? '' : ' (--verbose names each address)'}`,
    );
  }
  return report;
}

/**
 * retrieval.json of one source: the vintage and release date from the data and the agency's answer, the retrieval from
 * the clock. A Last-Modified dates the release only when it is plausible (fetch-checks.ts); otherwise it is said and left out.
 */
function retrievalRecord(adapter: SourceModule, downloads: readonly Downloaded[], current: ReadFixture, now: Date, options: FetchOptions): RetrievalRecord {
  let previous: Retrieval | undefined;
  try {
    previous = readRetrieval(current, adapter.sourceId);
  } catch {
    previous = undefined;
  }
  const retrievedAt = now.toISOString();
  const vintage = adapter.vintageOf?.(overlay(current, new Map(downloads.map((d) => [d.remote.file, d.body])))) ?? previous?.vintage ?? 'unknown';
  const plausible = downloads.map((d) => {
    if (d.lastModified === undefined) return undefined;
    const why = implausibleLastModified(d.lastModified, vintage, now);
    if (why === undefined) return d.lastModified;
    options.warn?.(
      `market-profiles: fetch: ${adapter.sourceId}: ${d.remote.file}: Last-Modified "${d.lastModified.slice(0, 64)}" ${why}; ignored, it dates no release`,
    );
    return undefined;
  });
  const modified = plausible
    .map((h) => (h === undefined ? Number.NaN : Date.parse(h)))
    .filter((t) => !Number.isNaN(t))
    .sort((a, b) => b - a)[0];
  // Without a date from the agency's answer, a release date is kept only while the vintage is the one it dated.
  // The agency's server dating its file publishes the date; a date kept from before keeps how it was known.
  const kept = modified === undefined && previous?.vintage === vintage ? previous : undefined;
  const releaseDate = modified !== undefined ? isoDate(new Date(modified)) : kept?.latestReleaseDate;
  const basis: ReleaseDateBasis | undefined = modified !== undefined ? 'published' : kept?.latestReleaseDateBasis;
  return {
    vintage,
    ...(releaseDate === undefined ? {} : { latestReleaseDate: releaseDate }),
    ...(releaseDate === undefined || basis === undefined ? {} : { latestReleaseDateBasis: basis }),
    latestRetrievedAt: isoDate(now),
    readFrom: [`${adapter.attribution.agency}'s own downloads, retrieved on ${isoDate(now)} from the addresses listed under files.`, adapter.downloadNotice]
      .filter((s) => s !== undefined)
      .join(' '),
    files: downloads.map((d, i) => {
      const lastModified = plausible[i];
      return {
        file: d.remote.file,
        url: shown(addressOf(d.remote, adapter, { ...options, upstream: undefined }), adapter),
        ...(d.servedFrom === undefined ? {} : { servedFrom: shown(d.servedFrom, adapter) }),
        retrievedAt,
        bytes: d.body.length,
        sha256: sha256(d.body),
        ...(lastModified === undefined ? {} : { lastModified }),
      };
    }),
  };
}

/** The `fetch` subcommand: a line per source and the changes on stdout, problems on stderr; exit code 0 only when every source was fetched, checked and (unless a dry run) written, 1 when any failed. */
export async function fetchCommand(config: FetchConfig, inputs: Pick<FetchOptions, 'markets' | 'sources'> = {}): Promise<number> {
  try {
    const report = await fetchSources({
      ...inputs,
      fixturesDir: config.fixtures,
      only: config.source === undefined ? [] : [config.source],
      dryRun: config.dryRun,
      allowOlder: config.allowOlder,
      ...(config.upstream === undefined ? {} : { upstream: config.upstream }),
      credentials: config.credentials,
      timeoutMs: config.fetchTimeoutMs,
      verbose: config.verbose,
      say: (line) => process.stdout.write(`${line}\n`),
      warn: (line) => process.stderr.write(`${line}\n`),
    });
    return report.ok ? 0 : 1;
  } catch (error) {
    // A FetchError escapes fetchSources only before any source is fetched (a --source that names none is a ConfigError).
    if (!(error instanceof FetchError)) throw error;
    process.stderr.write(`market-profiles: fetch failed: ${error.message}\nmarket-profiles: the fixtures were left as they were.\n`);
    return 1;
  }
}
