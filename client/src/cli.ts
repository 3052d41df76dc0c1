// The reading commands, `list` and `get`, shared by the client's own bin (market-profiles-client, in any project that installed the client) and the service's CLI: the data on stdout, everything else on stderr.
import { ProblemError, createClient, type MarketProfilesClient } from './client.ts';
import { documentForTerminal, forTerminal } from './generated/untrusted.ts';

/** Where a command writes: the data, and everything else. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** What `list` and `get` read with. */
export interface ReadOptions {
  /** The service, at its address (with any path prefix). */
  baseUrl: string;
  /** The CSV instead of JSON. */
  csv: boolean;
  /** The series instead of the profile (get only). */
  series: boolean;
  /** Time allowed for each request, from sending it to the last byte of the answer. */
  timeoutMs: number;
}

/** The name the messages start with, and the client to read with (made from the options when not given). */
export interface Context {
  program: string;
  io: Output;
  client?: MarketProfilesClient;
}

/**
 * A value as JSON text. JSON.stringify escapes the C0 controls inside strings but not DEL and the C1 controls (a C1 CSI
 * starts an escape sequence on some terminals): those are escaped too, which only strings can hold.
 */
const json = (value: unknown): string =>
  `${JSON.stringify(value, null, 2).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;

/**
 * Runs a read; a failure is one message on stderr and exit code 1, never a stack trace. Whatever of it came from the
 * server (a problem's detail and code, a message quoting an answer) is written with its control characters escaped.
 */
async function reading(command: string, { program, io }: Context, body: () => Promise<void>): Promise<number> {
  try {
    await body();
    return 0;
  } catch (error) {
    if (error instanceof ProblemError) {
      const known = Array.isArray(error.problem.knownMarketIds) ? ` Known market ids: ${error.problem.knownMarketIds.map(String).join(', ')}.` : '';
      io.err(`${program}: ${command}: ${forTerminal(`${String(error.code)} (${error.status}): ${String(error.problem.detail)}${known}`)}\n`);
      return 1;
    }
    // Any other failure (the service's, or an answer too large to hold) in one line: what was refused, and why.
    io.err(`${program}: ${command}: ${forTerminal(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  }
}

const clientOf = (options: ReadOptions, context: Context): MarketProfilesClient =>
  context.client ?? createClient({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs });

/** `list`: the index of every market as JSON. */
export async function listCommand(args: readonly string[], options: ReadOptions, context: Context): Promise<number> {
  const { program, io } = context;
  if (args.length > 0) {
    io.err(`${program}: list: takes no argument, got "${args[0] ?? ''}" (${program} list --help says more)\n`);
    return 2;
  }
  const reader = clientOf(options, context);
  return reading('list', context, async () => {
    const { data } = await reader.listMarkets();
    io.out(json(data));
  });
}

/** `get <market-id>`: a profile as JSON, or its CSV; with `series`, the series. */
export async function getCommand(args: readonly string[], options: ReadOptions, context: Context): Promise<number> {
  const { program, io } = context;
  const [id, extra] = args;
  if (id === undefined || id === '' || extra !== undefined) {
    const got = extra === undefined ? '' : `, got also "${extra}"`;
    io.err(`${program}: get: needs exactly one market id${got}, e.g. ${program} get us-tx-austin (${program} get --help says more)\n`);
    return 2;
  }
  const reader = clientOf(options, context);
  // A CSV goes out exactly as served, its caveats on stderr; JSON goes out as the service writes it.
  // A CSV's cells are the server's text: its line ends are kept, every other control character escaped.
  const csv = ({ text, caveats }: { text: string; caveats: readonly string[] }): void => {
    io.out(documentForTerminal(text));
    for (const caveat of caveats) io.err(`${program}: caveat: ${forTerminal(caveat)}\n`);
  };
  return reading('get', context, async () => {
    if (options.series && options.csv) csv(await reader.getSeriesCsv(id));
    else if (options.series) io.out(json((await reader.getSeries(id)).data));
    else if (options.csv) csv(await reader.getMarketCsv(id));
    else io.out(json((await reader.getProfile(id)).data));
  });
}

const PROGRAM = 'market-profiles-client';
const DEFAULT_BASE_URL = 'http://localhost:3000';
const DEFAULT_TIMEOUT_MS = 10_000;
const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

const USAGE = `usage: ${PROGRAM} list [options]
       ${PROGRAM} get <market-id> [--csv] [--series] [options]

  list              print the index of every market (/api/markets) as JSON
  get <market-id>   print one market's profile as JSON; --csv its CSV exactly as served (caveats on stderr);
                    --series its series, --series --csv the long-format series CSV

options:
  --base-url <url>    the service to read, with any path prefix (BASE_URL; default ${DEFAULT_BASE_URL})
  --timeout-ms <ms>   time allowed for each request, to the last byte of the answer (default ${DEFAULT_TIMEOUT_MS})
  --csv, --series     switches; --csv=false (or true, 1, 0, yes, no, on, off) says it outright
  -h, --help          this text

exit codes: 0 the data was printed; 1 the service answered an error (its problem code is printed, e.g.
market_not_found), could not be reached, or answered a schemaVersion other than "1"; 2 a usage error
`;

const OPTION_NAMES = ['--base-url', '--timeout-ms', '--csv', '--series', '--help'];

/** Levenshtein distance, for the option a typo meant. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next.push(Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[b.length] ?? 0;
}

type Parsed = { command: string; args: string[]; options: ReadOptions; help: boolean } | { error: string };

/** The command line of the bin: flags win over BASE_URL, which wins over the default; every error names what was typed. */
export function parseReadLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Parsed {
  const options: ReadOptions = { baseUrl: env['BASE_URL'] ?? DEFAULT_BASE_URL, csv: false, series: false, timeoutMs: DEFAULT_TIMEOUT_MS };
  const positional: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') {
      if (arg !== '--') positional.push(arg);
      else positional.push(...argv.slice(i + 1));
      if (arg === '--') break;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    if (name === '--csv' || name === '--series') {
      const key = name === '--csv' ? 'csv' : 'series';
      if (inline === undefined) options[key] = true;
      else if (TRUE.has(inline.toLowerCase())) options[key] = true;
      else if (FALSE.has(inline.toLowerCase())) options[key] = false;
      else return { error: `${name} is a switch: ${arg} is not one of true, false, 1, 0, yes, no, on, off` };
      continue;
    }
    if (name === '--base-url' || name === '--timeout-ms') {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') return { error: `${name} needs a value` };
      if (name === '--base-url') {
        let url: URL;
        try {
          url = new URL(value);
        } catch {
          return { error: `--base-url must be an http(s) URL such as ${DEFAULT_BASE_URL}, not "${value}"` };
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:')
          return { error: `--base-url must be an http(s) URL such as ${DEFAULT_BASE_URL}, not "${value}"` };
        options.baseUrl = value;
      } else {
        const ms = /^[0-9]{1,9}$/.test(value) ? Number(value) : Number.NaN;
        if (!(ms >= 1)) return { error: `--timeout-ms must be a whole number of milliseconds from 1, not "${value}"` };
        options.timeoutMs = ms;
      }
      continue;
    }
    const near = OPTION_NAMES.find((known) => distance(known, name) <= 2);
    return { error: near === undefined ? `unknown option ${name}` : `unknown option ${name}; did you mean ${near}?` };
  }
  const [command = '', ...args] = positional;
  return { command, args, options, help };
}

/** The bin: `list` or `get`, its exit code out. */
export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: Output): Promise<number> {
  const parsed = parseReadLine(argv, env);
  if ('error' in parsed) {
    io.err(`${PROGRAM}: ${parsed.error} (${PROGRAM} --help says more)\n`);
    return 2;
  }
  if (parsed.help || parsed.command === '') {
    (parsed.help ? io.out : io.err)(USAGE);
    return parsed.help ? 0 : 2;
  }
  const context = { program: PROGRAM, io };
  if (parsed.command === 'list') return listCommand(parsed.args, parsed.options, context);
  if (parsed.command === 'get') return getCommand(parsed.args, parsed.options, context);
  io.err(`${PROGRAM}: unknown command "${parsed.command}": the commands are list and get (${PROGRAM} --help says more)\n`);
  return 2;
}
