// The reading commands, `list` and `get` (shared by the client's own bin, market-profiles-client, and the service's CLI), and the bin's `vintages` and `download`: the data on stdout (or the download's file), everything else on stderr.
import {
  CLIENT_SCHEMA_VERSION,
  KNOWN_MARKET_IDS,
  ProblemError,
  createClient,
  isKnownMarketId,
  type DownloadResult,
  type MarketProfilesClient,
} from './client.ts';
import { CLIENT_VERSION } from './generated/version.ts';
import { documentForTerminal, forTerminal } from './generated/untrusted.ts';

/** Where a command writes: the data, and everything else. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** Writes a file (the download): `replace` false refuses one that exists. Absent where the program writes no file. */
  writeFile?(path: string, bytes: Uint8Array, replace: boolean): void;
}

/** What `list` and `get` read with. */
export interface ReadOptions {
  /** The service, at its address (with any path prefix). */
  baseUrl: string;
  /** The CSV instead of JSON. */
  csv: boolean;
  /** The series instead of the profile (with list, every market's series CSV). */
  series: boolean;
  /** Time allowed for each request, from sending it to the last byte of the answer. */
  timeoutMs: number;
  /** get: the profile (or CSV) as the snapshot of this date published it. */
  vintage?: string | undefined;
  /** download: the file to write, instead of the name the service gives it. */
  output?: string | undefined;
}

/** The name the messages start with, and the client to read with (made from the options when not given). */
export interface Context {
  program: string;
  io: Output;
  client?: MarketProfilesClient;
  /** The caveats said on stderr so far in this run: each is said once. */
  said?: Set<string>;
}

/**
 * A value as JSON text. JSON.stringify escapes the C0 controls inside strings but not DEL and the C1 controls (a C1 CSI
 * starts an escape sequence on some terminals): those are escaped too, which only strings can hold.
 */
const json = (value: unknown): string =>
  `${JSON.stringify(value, null, 2).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;

/**
 * The caveats that come with data written as CSV or to a file, which carry none of their own (a JSON document printed
 * carries its own): each on one line of stderr, once per run, whatever else the run reads.
 */
function surface(context: Context, caveats: readonly string[]): void {
  const said = (context.said ??= new Set());
  for (const caveat of caveats) {
    if (said.has(caveat)) continue;
    said.add(caveat);
    context.io.err(`${context.program}: caveat: ${forTerminal(caveat.replace(/\s+/g, ' ').trim())}\n`);
  }
}

/** Edits from one word to the other (insertions, deletions, substitutions, two neighbours swapped), for the option, command or id a typo meant. */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i] ?? [];
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(at(i, j), at(i - 2, j - 2) + 1);
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate a typed word most likely meant: the same in another case, the one it ends (a city's slug for its
 * market id), or the nearest within two edits and fewer than half the word's length; undefined when none is that close.
 */
export function nearest(typed: string, candidates: readonly string[]): string | undefined {
  const word = typed.toLowerCase();
  const same = candidates.find((c) => c.toLowerCase() === word);
  if (same !== undefined) return same;
  const ending = candidates.filter((c) => word.length > 2 && c.toLowerCase().endsWith(`-${word}`));
  if (ending.length === 1) return ending[0];
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.ceil(word.length / 2) - 1) + 1;
  for (const candidate of candidates) {
    const d = distance(word, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

const strings = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined);

/**
 * What a problem answer says on the command line: its code and status, then, where an id or a date was typed that the
 * service does not know, that id, the nearest known one and every known one; else the service's own detail.
 */
function problemLine(error: ProblemError, typed: { marketId?: string | undefined; date?: string | undefined }): string {
  const head = `${error.code} (${error.status})`;
  const knownIds = strings(error.problem.knownMarketIds);
  if (error.code === 'market_not_found' && knownIds !== undefined && typed.marketId !== undefined) {
    const near = nearest(typed.marketId, knownIds);
    return `${head}: there is no market "${typed.marketId}"${near === undefined ? '.' : `; did you mean ${near}?`} Known market ids: ${knownIds.join(', ')}.`;
  }
  const dates = strings(error.problem.knownSnapshotDates);
  if (dates !== undefined && typed.date !== undefined && !dates.includes(typed.date)) {
    const near = nearest(typed.date, dates);
    return `${head}: there is no snapshot of "${typed.date}"${near === undefined ? '.' : `; did you mean ${near}?`} The snapshot dates: ${dates.join(', ')}.`;
  }
  // A snapshot that has no such market names no market ids: the nearest of those this client knows is said.
  if (error.code === 'not_found' && typed.date !== undefined && typed.marketId !== undefined && !isKnownMarketId(typed.marketId)) {
    const near = nearest(typed.marketId, KNOWN_MARKET_IDS);
    return `${head}: the snapshot of ${typed.date} has no market "${typed.marketId}"${near === undefined ? '' : `; did you mean ${near}?`}`;
  }
  const known = knownIds === undefined ? '' : ` Known market ids: ${knownIds.join(', ')}.`;
  return `${head}: ${error.problem.detail}${known}`;
}

/**
 * Runs a read; a failure is one message on stderr and exit code 1, never a stack trace. Whatever of it came from the
 * server (a problem's detail and code, a message quoting an answer) is written with its control characters escaped.
 */
async function reading(
  command: string,
  { program, io }: Context,
  body: () => Promise<void>,
  typed: { marketId?: string | undefined; date?: string | undefined } = {},
): Promise<number> {
  try {
    await body();
    return 0;
  } catch (error) {
    if (error instanceof ProblemError) {
      io.err(`${program}: ${command}: ${forTerminal(problemLine(error, typed))}\n`);
      return 1;
    }
    // Any other failure (the service's, or an answer too large to hold) in one line: what was refused, and why.
    io.err(`${program}: ${command}: ${forTerminal(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  }
}

const clientOf = (options: ReadOptions, context: Context): MarketProfilesClient =>
  context.client ?? createClient({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs });

/** A usage error of a command: one line naming the fix, exit code 2. */
const usage = ({ program, io }: Context, command: string, message: string): number => {
  io.err(`${program}: ${command}: ${message} (${program} ${command} --help says more)\n`);
  return 2;
};

/** A CSV read goes out as served, its caveats on stderr: its line ends kept, every other control character of the server's text escaped. */
const csvOut = (context: Context, { text, caveats }: { text: string; caveats: readonly string[] }): void => {
  context.io.out(documentForTerminal(text));
  surface(context, caveats);
};

/** `list`: the index of every market as JSON; with --csv every market's CSV, with --series --csv every market's series CSV. */
export async function listCommand(args: readonly string[], options: ReadOptions, context: Context): Promise<number> {
  if (args.length > 0) return usage(context, 'list', `takes no argument, got "${args[0] ?? ''}"`);
  if (options.series && !options.csv)
    return usage(
      context,
      'list',
      "--series needs --csv: every market's series is one CSV (list --series --csv); get <market-id> --series gives one market's as JSON",
    );
  const reader = clientOf(options, context);
  return reading('list', context, async () => {
    if (options.series) csvOut(context, await reader.getBulkSeriesCsv());
    else if (options.csv) csvOut(context, await reader.getBulkCsv());
    else context.io.out(json((await reader.listMarkets()).data));
  });
}

/** A snapshot date as the vintages are addressed: YYYY-MM-DD. */
const SNAPSHOT_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** `get <market-id>`: a profile as JSON, or its CSV; with `series`, the series; with `vintage`, as that snapshot published it. */
export async function getCommand(args: readonly string[], options: ReadOptions, context: Context): Promise<number> {
  const { program } = context;
  const [id, extra] = args;
  if (id === undefined || id === '' || extra !== undefined) {
    const got = extra === undefined ? '' : `, got also "${extra}"`;
    return usage(context, 'get', `needs exactly one market id${got}, e.g. ${program} get us-tx-austin`);
  }
  const { vintage } = options;
  if (vintage !== undefined && !SNAPSHOT_DATE.test(vintage))
    return usage(context, 'get', `--vintage must be a snapshot date, YYYY-MM-DD (${program} vintages lists them), got "${vintage}"`);
  if (vintage !== undefined && options.series)
    return usage(context, 'get', '--vintage takes no --series: a snapshot keeps its profiles and CSVs, not the series');
  const reader = clientOf(options, context);
  return reading(
    'get',
    context,
    async () => {
      if (vintage !== undefined && options.csv) csvOut(context, await reader.getVintageCsv(vintage, id));
      else if (vintage !== undefined) context.io.out(json((await reader.getVintageProfile(vintage, id)).data));
      else if (options.series && options.csv) csvOut(context, await reader.getSeriesCsv(id));
      else if (options.series) context.io.out(json((await reader.getSeries(id)).data));
      else if (options.csv) csvOut(context, await reader.getMarketCsv(id));
      else context.io.out(json((await reader.getProfile(id)).data));
    },
    { marketId: id, date: vintage },
  );
}

/** `vintages`: every published snapshot, newest first, as JSON. */
export async function vintagesCommand(args: readonly string[], options: ReadOptions, context: Context): Promise<number> {
  if (args.length > 0) return usage(context, 'vintages', `takes no argument, got "${args[0] ?? ''}"; get <market-id> --vintage <date> reads one`);
  const reader = clientOf(options, context);
  return reading('vintages', context, async () => context.io.out(json((await reader.listVintages()).data)));
}

/** `download`: the zip of every document, written to the file the service names (never over one that exists), or to --output. */
export async function downloadCommand(args: readonly string[], options: ReadOptions, context: Context): Promise<number> {
  const { program, io } = context;
  if (args.length > 0) return usage(context, 'download', `takes no argument, got "${args[0] ?? ''}"; -o <file> names the file to write`);
  const write = io.writeFile;
  if (write === undefined) return usage(context, 'download', 'writes a file, which this program cannot');
  const reader = clientOf(options, context);
  let got: DownloadResult | undefined;
  const code = await reading('download', context, async () => {
    got = await reader.getDownload();
  });
  if (got === undefined) return code;
  const { data, filename, caveats } = got;
  const file = options.output ?? filename;
  try {
    write(file, data, options.output !== undefined);
  } catch (error) {
    const exists = (error as { code?: unknown }).code === 'EEXIST';
    io.err(`${program}: download: ${exists ? `${file} exists; -o ${file} replaces it` : `cannot write ${file}: ${(error as Error).message}`}\n`);
    return 1;
  }
  io.err(`${program}: download: wrote ${file} (${data.length} bytes)\n`);
  surface(context, caveats);
  return 0;
}

const PROGRAM = 'market-profiles-client';
const DEFAULT_BASE_URL = 'http://localhost:3000';
const DEFAULT_TIMEOUT_MS = 10_000;
const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/** The commands, and the options each reads besides --base-url and --timeout-ms, which all read. */
const COMMANDS = {
  list: ['--csv', '--series'],
  get: ['--csv', '--series', '--vintage'],
  vintages: [],
  download: ['--output'],
} as const satisfies Record<string, readonly string[]>;
type Command = keyof typeof COMMANDS;
const COMMAND_NAMES = Object.keys(COMMANDS) as Command[];
const isCommand = (name: string): name is Command => Object.hasOwn(COMMANDS, name);

const USAGE = `usage: ${PROGRAM} <command> [options]

commands:
  list              the index of every market (/api/markets) as JSON; --csv every market's CSV
                    (/api/markets/csv), --series --csv every market's series CSV (/api/markets/series/csv)
  get <market-id>   one market's profile as JSON; --csv its CSV, --series its series (JSON), --series --csv
                    its series CSV; --vintage <date> its profile, or --csv its CSV, as that snapshot published it
  vintages          every published snapshot, newest first, as JSON (/api/vintages)
  download          every JSON and CSV document in one zip (/api/download), written to the file the service
                    names (never over a file that exists), or to -o <file>

options:
  --base-url <url>     the service to read, with any path prefix (BASE_URL; default ${DEFAULT_BASE_URL})
  --timeout-ms <ms>    time allowed for each request, to the last byte of the answer (default ${DEFAULT_TIMEOUT_MS})
  --csv, --series      switches of list and get; a word after = says it outright: --csv=false
                       (${TRUE.map((t, i) => `${t}/${FALSE[i] ?? ''}`).join(', ')})
  --vintage <date>     get: a snapshot date, YYYY-MM-DD, of those vintages lists
  -o, --output <file>  download: the file to write (replaced if it exists)
  -v, --version        the version of this client and the schemaVersion it reads
  -h, --help           this text

examples:
  ${PROGRAM} list --base-url http://localhost:3000 > markets.json
  ${PROGRAM} get us-tx-austin --csv > austin.csv
  ${PROGRAM} list --series --csv > every-observation.csv
  ${PROGRAM} download -o markets.zip

Data go to stdout (the download to its file), messages to stderr. A CSV's caveats (its descriptor's) and the
download's go to stderr, each once, one line each; a JSON document carries its own. Show them with the data.

exit codes: 0 the data was printed (or written); 1 the service answered an error (its problem code is printed,
e.g. market_not_found), could not be reached, or answered a schemaVersion other than "${CLIENT_SCHEMA_VERSION}", or the file
could not be written; 2 a usage error
`;

/** `--version`: the package's version and the schemaVersion it reads. */
export const versionText = (): string => `${PROGRAM} ${CLIENT_VERSION} (reads schemaVersion "${CLIENT_SCHEMA_VERSION}")\n`;

const OPTION_NAMES = ['--base-url', '--timeout-ms', '--csv', '--series', '--vintage', '--output', '--version', '--help'];

type Parsed = { command: string; args: string[]; options: ReadOptions; given: string[]; help: boolean; version: boolean } | { error: string };

/** The command line of the bin: flags win over BASE_URL, which wins over the default; every error names what was typed. */
export function parseReadLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Parsed {
  const options: ReadOptions = { baseUrl: env['BASE_URL'] ?? DEFAULT_BASE_URL, csv: false, series: false, timeoutMs: DEFAULT_TIMEOUT_MS };
  const positional: string[] = [];
  const given: string[] = [];
  let help = false;
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (arg === '-v' || arg === '--version') {
      version = true;
      continue;
    }
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const typed = eq === -1 ? arg : arg.slice(0, eq);
    const name = typed === '-o' ? '--output' : typed;
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    if (name === '--csv' || name === '--series') {
      const key = name === '--csv' ? 'csv' : 'series';
      if (inline === undefined) options[key] = true;
      else if (TRUE.includes(inline.toLowerCase())) options[key] = true;
      else if (FALSE.includes(inline.toLowerCase())) options[key] = false;
      else return { error: `${name} is a switch: ${arg} is not one of ${[...TRUE, ...FALSE].join(', ')}` };
      given.push(name);
      continue;
    }
    if (name === '--base-url' || name === '--timeout-ms' || name === '--vintage' || name === '--output') {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') return { error: `${typed} needs a value` };
      given.push(name);
      if (name === '--base-url') {
        let url: URL | undefined;
        try {
          url = new URL(value);
        } catch {
          url = undefined;
        }
        if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
          const guess = /^[a-z0-9.-]+(:[0-9]+)?(\/.*)?$/i.test(value) ? `; did you mean http://${value}?` : '';
          return { error: `--base-url must be an http(s) URL such as ${DEFAULT_BASE_URL}, not "${value}"${guess}` };
        }
        options.baseUrl = value;
      } else if (name === '--timeout-ms') {
        const ms = /^[0-9]{1,9}$/.test(value) ? Number(value) : Number.NaN;
        if (!(ms >= 1)) return { error: `--timeout-ms must be a whole number of milliseconds from 1, not "${value}"` };
        options.timeoutMs = ms;
      } else if (name === '--vintage') options.vintage = value;
      else options.output = value;
      continue;
    }
    const near = nearest(name, OPTION_NAMES);
    return { error: near === undefined ? `unknown option ${typed}` : `unknown option ${typed}; did you mean ${near}?` };
  }
  const [command = '', ...args] = positional;
  return { command, args, options, given, help, version };
}

/** The bin: one of the commands, its exit code out. */
export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: Output): Promise<number> {
  const parsed = parseReadLine(argv, env);
  if ('error' in parsed) {
    io.err(`${PROGRAM}: ${parsed.error} (${PROGRAM} --help says more)\n`);
    return 2;
  }
  if (parsed.version) {
    io.out(versionText());
    return 0;
  }
  if (parsed.help || parsed.command === '') {
    (parsed.help ? io.out : io.err)(USAGE);
    return parsed.help ? 0 : 2;
  }
  const { command } = parsed;
  if (!isCommand(command)) {
    const near = nearest(command, COMMAND_NAMES);
    const hint = near === undefined ? `the commands are ${COMMAND_NAMES.join(', ')}` : `did you mean ${near}?`;
    io.err(`${PROGRAM}: unknown command "${command}"; ${hint} (${PROGRAM} --help says more)\n`);
    return 2;
  }
  const reads: readonly string[] = COMMANDS[command];
  const foreign = parsed.given.find((name) => name !== '--base-url' && name !== '--timeout-ms' && !reads.includes(name));
  if (foreign !== undefined) {
    const readers = COMMAND_NAMES.filter((c) => (COMMANDS[c] as readonly string[]).includes(foreign));
    io.err(`${PROGRAM}: ${command}: ${foreign} is an option of ${readers.join(' and ')}, not of ${command} (${PROGRAM} --help says more)\n`);
    return 2;
  }
  const context: Context = { program: PROGRAM, io };
  const run = { list: listCommand, get: getCommand, vintages: vintagesCommand, download: downloadCommand }[command];
  return run(parsed.args, parsed.options, context);
}
