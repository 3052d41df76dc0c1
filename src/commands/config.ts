// Every option in one table (flag, environment variable, kind of value, default, help) and every command in another (what it does, which options it reads), read with node:util parseArgs; help.ts writes the usage text and the README table from them.
import { parseArgs } from 'node:util';
import { ConfigError } from '../contract/errors.ts';
import { closest } from './suggest.ts';
import { listWords } from '../contract/words.ts';
import { baseUrlKind, integerKind, mirrorUrlKind, normalizeBaseUrl, onOffKind, textKind, type ValueKind } from './option-kinds.ts';
import { keysOf } from '../contract/records.ts';
import { ENDPOINTS } from '../contract/endpoints.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** One option: how it is set, the kind of value it takes, its default and what it does. */
export interface OptionSpec<V> {
  /** The environment variable that sets it; flags win over it. */
  env?: string;
  /** Set only by its environment variable (a secret has no flag, so it stays out of shell histories and process lists). */
  envOnly?: boolean;
  kind: ValueKind<Exclude<V, undefined>>;
  /** The value when neither a flag nor the environment gives one; undefined for an option that may stay unset. */
  default: V;
  /** What an unset option means, in words, as the README and the usage text say it; only for one without a default. */
  absent?: string;
  help: string;
}

type OptionInput<T> = Omit<OptionSpec<T>, 'default' | 'absent'>;

/** An option with a default, or one without, which says in words what leaving it unset means. */
function option<T>(spec: OptionInput<T> & { default: T }): OptionSpec<T>;
function option<T>(spec: OptionInput<T> & { absent: string }): OptionSpec<T | undefined>;
function option<T>(spec: OptionInput<T> & { default?: T; absent?: string }): OptionSpec<T | undefined> {
  return { default: undefined, ...spec };
}

/** Every option, in the order the README and the usage text list them. */
export const OPTIONS = {
  port: option({
    env: 'PORT',
    kind: integerKind(0, 65535),
    default: 3000,
    help: 'Listen port (`0` picks a free one); without `BASE_URL`, also the port the links name.',
  }),
  host: option({
    env: 'HOST',
    kind: textKind('host or IP'),
    default: '127.0.0.1',
    help: 'Listen address; `0.0.0.0` in a container.',
  }),
  'base-url': option({
    env: 'BASE_URL',
    kind: baseUrlKind,
    absent: '`http://localhost:<PORT>`',
    help: "Origin of every absolute URL in a body (links, schema `$id`, problem `type`). Never taken from a request's Host header.",
  }),
  log: option({
    env: 'LOG',
    kind: onOffKind,
    default: false,
    help: 'One JSON access-log line per request on stdout (time, method, path without query, status, bytes, encoding, duration; no IP, no user agent).',
  }),
  fixtures: option({
    env: 'FIXTURES_DIR',
    kind: textKind('path'),
    default: 'fixtures',
    help: 'Raw source fixtures the data-loading run reads (and `fetch` writes).',
  }),
  archive: option({
    env: 'ARCHIVE_DIR',
    kind: textKind('path'),
    default: 'archive',
    help: 'Archived snapshots: the build serves each as a vintage and reads them for the series; `archive` adds the current one (never rewriting a byte).',
  }),
  out: option({
    env: 'OUT_DIR',
    kind: textKind('path'),
    default: 'dist',
    help: 'Where `npm run build` writes the deployable artifact.',
  }),
  json: option({
    kind: onOffKind,
    default: false,
    help: 'The report as JSON instead of text.',
  }),
  concurrency: option({
    kind: integerKind(1, 256),
    default: 8,
    help: 'Requests in flight at once.',
  }),
  'timeout-ms': option({
    kind: integerKind(1, 600_000),
    default: 10_000,
    help: 'Time allowed for each request, in milliseconds, from sending it to the last byte of the answer.',
  }),
  'max-bytes': option({
    kind: integerKind(1, 1_073_741_824),
    default: 67_108_864,
    help: "The most of one answer's body read, in bytes (64 MiB), whatever its kind; each kind is refused sooner, past what it can be at the markets the index lists (a profile 256 KiB). A body past its limit fails its check, naming the URL and the limit, and is never read further.",
  }),
  manifest: option({
    kind: textKind('path'),
    absent: 'none',
    help: "A build's manifest (dist/manifest.json): every variant of every route it lists must be served with its bytes (SHA-256), and no answer may be larger than its file; the step before a deployment goes live.",
  }),
  csv: option({
    kind: onOffKind,
    default: false,
    help: "The market's CSV instead of its JSON profile (the caveats then go to stderr).",
  }),
  series: option({
    kind: onOffKind,
    default: false,
    help: "The market's series (every observation per metric) instead of its profile; with --csv, the long-format series CSV.",
  }),
  vintage: option({
    kind: textKind('snapshot date'),
    absent: 'the current snapshot',
    help: `The profile (with --csv, the CSV) as the snapshot of this date published it, YYYY-MM-DD: one of those \`${ENDPOINTS.vintages.path}\` lists.`,
  }),
  'dry-run': option({
    kind: onOffKind,
    default: false,
    help: 'Download and check every file and print what would change, but write nothing.',
  }),
  'allow-older': option({
    kind: onOffKind,
    default: false,
    help: "Accept a download of an older vintage, with an earlier latest period for a market's value or for a series, or without a series the fixtures have, than the fixtures it replaces (an agency's withdrawal, a re-delineation); never one with less data (a market, a value, a series' first periods or a period among its others gone, a file cut mid-line).",
  }),
  source: option({
    kind: textKind('source id'),
    absent: 'every source',
    help: "Only this source, by its id (a profile's `sources[].sourceId`; the data-sources page lists them).",
  }),
  upstream: option({
    env: 'FETCH_UPSTREAM',
    kind: mirrorUrlKind,
    absent: "each agency's own",
    help: "Fetch from this origin instead of each agency's (a mirror); the agency's path and query are kept.",
  }),
  'fetch-timeout-ms': option({
    kind: integerKind(1, 3_600_000),
    default: 60_000,
    help: 'Time allowed for each download, in milliseconds; a download is tried three times.',
  }),
  verbose: option({
    kind: onOffKind,
    default: false,
    help: "Also print each file's full address (with the agency's whole query), its size and every retry, and each failure with its address; without it, one line per source.",
  }),
} as const;

/** How a credential (the sources' secrets: fetch.ts lists them) is shown in the usage text and the README: its type and what leaving it unset means. */
export const CREDENTIAL_KIND = textKind('string');
export const CREDENTIAL_ABSENT = 'none';

export type Name = keyof typeof OPTIONS;
type ValueOf<N extends Name> = (typeof OPTIONS)[N] extends OptionSpec<infer V> ? V : never;
export const NAMES: Name[] = keysOf(OPTIONS);

/** One command: how the usage text lists it, what it does, and the options it reads. */
export interface CommandSpec {
  /** The command with its arguments. */
  synopsis: string;
  /** What it does, as lines of the usage text. */
  summary: readonly string[];
  /** Its options; loadOptions reads them in this order, so the first bad value is the one reported. The usage text and the README list them in the options table's order. */
  options: readonly Name[];
  /** What `<command> --help` says it does, when that is more than the summary: lines of text, an example. */
  help?: readonly string[];
  /** What its exit codes mean, as `<command> --help` ends. */
  exitCodes: string;
  /** An option's help where this command reads it otherwise than the options table says (`--port` names no listen port for `list`). */
  optionHelp?: Partial<Record<Name, string>>;
  /** It reads the sources' credentials (CREDENTIALS), after its options. */
  credentials?: true;
}

/** What `--port` and `--base-url` mean to the commands that build without listening, and to those that read a running service. */
const LINKS_PORT = 'Without `BASE_URL`, the port the links name (`http://localhost:<PORT>`); nothing listens on it.';
const READ_OPTIONS: Partial<Record<Name, string>> = {
  port: 'Without `--base-url` or `BASE_URL`, read the service on this machine at this port (`http://localhost:<PORT>`).',
  'base-url': 'The service to read, at its address (with any path prefix), such as the one `serve` prints.',
};
const READ_EXIT_CODES =
  '0 the data was printed; 1 the service answered an error (its problem code is printed, e.g. market_not_found), could not be reached, or answered a schemaVersion other than "1"; 2 a usage error (unknown option, missing market id)';

/** Every command, in the order the usage text lists them. */
export const COMMANDS = {
  serve: {
    synopsis: 'serve',
    summary: ['build the route table in memory and serve it (default)'],
    help: [
      'Serves the route table build wrote to dist/ (or --out) when it was built from these very inputs (fixtures,',
      'archive, code, BASE_URL), and otherwise loads the fixtures and the archive and builds every route in memory;',
      'it serves on HOST:PORT until SIGTERM or SIGINT, then drains the requests in flight and exits 0. It prints the',
      'address it listens on, the BASE_URL its links use and where its table came from; market-profiles verify',
      '<either> checks it.',
    ],
    exitCodes: '0 after a shutdown; 1 bad data (the fixture and line are named) or an address in use; 2 a usage error; 70 a bug',
    options: ['port', 'base-url', 'host', 'log', 'fixtures', 'archive', 'out'],
    optionHelp: { out: 'Where to look for the artifact a build wrote; a stale one (other inputs) is never served.' },
  },
  build: {
    synopsis: 'build',
    summary: ['write the deployable artifact to dist/ (or --out)'],
    help: [
      'Writes the route table to dist/ (or --out): one file per route with its .gz and .br variants, manifest.json,',
      'and the nginx, edge Worker and CDN configurations. A failed build leaves the previous output as it was.',
    ],
    exitCodes: '0 written; 1 bad data or a disk error (the previous output is kept); 2 a usage error; 70 a bug',
    options: ['port', 'base-url', 'fixtures', 'archive', 'out'],
    optionHelp: { port: LINKS_PORT },
  },
  archive: {
    synopsis: 'archive',
    summary: [
      'add the current snapshot to the archive (archive/<date>/, or --archive): its documents as served,',
      "its sources' vintages and file hashes; run after fetch. A snapshot archived already is left as it is",
      'when its bytes are the same and refused, naming the file, when not',
    ],
    exitCodes: '0 archived, or archived already byte for byte; 1 bad data, a disk error or a changed snapshot; 2 a usage error; 70 a bug',
    options: ['port', 'base-url', 'fixtures', 'archive'],
    optionHelp: { port: LINKS_PORT },
  },
  fetch: {
    synopsis: 'fetch',
    summary: [
      "download every source, check it with the build's loader and against the fixtures, then replace",
      'the fixtures of each source that passed, one line per source (exit code 1 when any failed: that',
      "source's fixtures are left as they were)",
    ],
    exitCodes:
      "0 every source was downloaded and checked (and written, without --dry-run); 1 a source's download or check failed, or its download would publish less or older data: its fixtures were left as they were, the other sources' written; 2 a usage error",
    options: ['fixtures', 'dry-run', 'allow-older', 'source', 'upstream', 'fetch-timeout-ms', 'verbose'],
    credentials: true,
  },
  verify: {
    synopsis: 'verify <base-url>',
    summary: ['check a running deployment against the contract; exit code 0 only when everything holds,', '1 when a check fails, 2 on a usage error'],
    help: [
      'Checks a running deployment (the embedded server, nginx, the edge Worker, a CDN) against the contract from what',
      'it serves: every document, header, link, schema and error. <base-url> is the address serve prints, or the',
      'BASE_URL the deployment was built with; the same machine by another name (127.0.0.1 for localhost) is the same',
      'deployment. For example: market-profiles verify http://127.0.0.1:3000',
    ],
    exitCodes: '0 every check passed; 1 a check failed; 2 a usage error',
    options: ['json', 'concurrency', 'timeout-ms', 'max-bytes', 'manifest'],
  },
  list: {
    synopsis: 'list',
    summary: ["print the index of every market as JSON, or with --csv every market's CSV (from --base-url)"],
    help: [
      'Prints the index of every market (/api/markets) as JSON on stdout: ids, names, scores, coverage, freshness,',
      "links, and the caveats. With --csv, every market's CSV (/api/markets/csv) exactly as served, and with --series",
      "--csv every market's series CSV (/api/markets/series/csv); the caveats of a CSV go to stderr, once each.",
      "For example: market-profiles list | jq -r '.markets[].id'",
    ],
    exitCodes: READ_EXIT_CODES,
    options: ['port', 'base-url', 'csv', 'series', 'timeout-ms'],
    optionHelp: {
      ...READ_OPTIONS,
      csv: "Every market's CSV instead of the index (the caveats then go to stderr).",
      series: "With --csv, every market's series CSV (every observation of every metric, long format).",
    },
  },
  get: {
    synopsis: 'get <market-id>',
    summary: ["print one market's profile as JSON, or with --csv its CSV (caveats on stderr); with --series its series"],
    help: [
      "Prints one market's profile (/api/markets/<market-id>) as JSON on stdout, caveats included; with --csv, its CSV",
      '(/api/markets/<market-id>/csv) exactly as served, and the caveats of the CSV on stderr. With --series, its series',
      '(/api/markets/<market-id>/series: every observation per metric), and with --series --csv the long-format series CSV.',
      'With --vintage <date>, the profile (or with --csv the CSV) as the snapshot of that date published it.',
      'For example: market-profiles get us-tx-austin --csv > austin.csv',
    ],
    exitCodes: READ_EXIT_CODES,
    options: ['port', 'base-url', 'csv', 'series', 'vintage', 'timeout-ms'],
    optionHelp: READ_OPTIONS,
  },
} as const satisfies Record<string, CommandSpec>;

export type Command = keyof typeof COMMANDS;
export const COMMAND_NAMES: Command[] = keysOf(COMMANDS);
export const isCommand = (name: string): name is Command => Object.hasOwn(COMMANDS, name);

export interface ParsedArgs {
  positionals: string[];
  /** Flags as given, still raw (a switch: true when bare, else the word after `=`); `help` when --help or -h was given, `version` for --version or -v. */
  flags: Map<string, string | boolean>;
  /** The first flag that is unknown or lacks (or has a stray) value; loading the options refuses it. */
  problem: string | undefined;
}

const PARSE_OPTIONS = Object.fromEntries([
  ...NAMES.filter((name) => !(OPTIONS[name] as OptionSpec<unknown>).envOnly).map((name) => [
    name,
    { type: OPTIONS[name].kind.switch ? ('boolean' as const) : ('string' as const) },
  ]),
  ['help', { type: 'boolean' as const, short: 'h' }],
  ['version', { type: 'boolean' as const, short: 'v' }],
]) as Record<string, { type: 'boolean' | 'string'; short?: string }>;

/** The flags a command takes, as typed (`--port`), --help included. */
const flagsOfCommand = (command: Command): string[] => [...COMMANDS[command].options.map((name) => `--${name}`), '--help'];

/** What an unknown option gets: one line, with the closest flag of the command (or of any command) when one is near. */
function unknownOption(rawName: string, command: string | undefined): string {
  const known = command !== undefined && isCommand(command);
  const guess = closest(rawName, known ? flagsOfCommand(command) : [...Object.keys(PARSE_OPTIONS).map((name) => `--${name}`)]);
  if (guess !== undefined) return `unknown option ${rawName}; did you mean ${guess}?`;
  return `unknown option ${rawName} (market-profiles ${known ? `${command} ` : ''}--help lists the options)`;
}

/** Reads argv with parseArgs: the flags of the table and --help; the positionals are read even when a flag is bad, so an error can name the command. */
export function parseCommandLine(argv: readonly string[]): ParsedArgs {
  const { values, positionals, tokens } = parseArgs({ args: [...argv], options: PARSE_OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const problems = tokens.flatMap((t) => {
    if (t.kind !== 'option') return [];
    const type = PARSE_OPTIONS[t.name]?.type;
    if (type === undefined) return [unknownOption(t.rawName, positionals[0])];
    if (type === 'string' && t.value === undefined) return [`${t.rawName} needs a value`];
    // A switch may take a word after `=` (`--log=false`), which loading reads; --help and --version take none.
    if ((t.name === 'help' || t.name === 'version') && t.value !== undefined) return [`${t.rawName} takes no value`];
    return [];
  });
  const flags = new Map(Object.entries(values).filter((entry): entry is [string, string | boolean] => entry[1] !== undefined));
  return { positionals, flags, problem: problems[0] };
}

/**
 * The first flag given that the command does not read, as one line naming the commands that do read it; undefined
 * when every flag is the command's. (The options table is one for every command, so parsing alone accepts them.)
 */
export function foreignOption(command: Command, flags: ParsedArgs['flags']): string | undefined {
  const name = [...flags.keys()].find((flag) => flag !== 'help' && flag !== 'version' && !(COMMANDS[command].options as readonly string[]).includes(flag));
  if (name === undefined) return undefined;
  const readers = COMMAND_NAMES.filter((c) => (COMMANDS[c].options as readonly string[]).includes(name));
  return `--${name} is an option of ${listWords(readers)}, not of ${command} (market-profiles ${command} --help lists its options)`;
}

/** The flags of a command line, refusing the first bad one. */
function flagsOf(argv: readonly string[]): ParsedArgs['flags'] {
  const { flags, problem } = parseCommandLine(argv);
  if (problem !== undefined) throw new ConfigError(problem);
  return flags;
}

/**
 * One option's value: the flag, else the environment variable, else the default. A bad value is refused naming where
 * it came from: the flag as typed (`--port`) or the environment variable (`PORT`).
 */
function valueOf<N extends Name>(name: N, flags: ParsedArgs['flags'], env: Env): ValueOf<N> {
  const spec = OPTIONS[name] as OptionSpec<ValueOf<N>>;
  const flag = flags.get(name);
  if (flag !== undefined) return typeof flag === 'boolean' ? (flag as ValueOf<N>) : spec.kind.parse(flag, `--${name}`);
  const fromEnv = spec.env === undefined ? undefined : env[spec.env];
  return fromEnv === undefined || spec.env === undefined ? spec.default : spec.kind.parse(fromEnv, spec.env);
}

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
const camel = (name: string): string => name.replace(/-(.)/g, (_, letter: string) => letter.toUpperCase());

/** The values of some options, each under its name in camel case (`timeout-ms` → `timeoutMs`). */
export type OptionValues<N extends Name> = { [K in N as Camel<K>]: ValueOf<K> };
/** The values of a command's options, as the commands table lists them. */
export type CommandOptions<C extends Command> = OptionValues<(typeof COMMANDS)[C]['options'][number]>;

/** The values of these options, in this order; flags win over environment variables, which win over defaults; the first bad one is refused. */
function readOptions<N extends Name>(names: readonly N[], env: Env, argv: readonly string[]): OptionValues<N> {
  const flags = flagsOf(argv);
  return Object.fromEntries(names.map((name) => [camel(name), valueOf(name, flags, env)])) as OptionValues<N>;
}

/** The options of one command, typed from the commands table. */
export function loadOptions<C extends Command>(command: C, env: Env, argv: readonly string[]): CommandOptions<C> {
  return readOptions<(typeof COMMANDS)[C]['options'][number]>(COMMANDS[command].options, env, argv);
}

/** The service's address when no base URL is given: this machine, on the port. */
const localService = (port: number): string => normalizeBaseUrl(`http://localhost:${port}`);

export interface Config {
  /** Origin every absolute URL in a body is built from; never taken from a request. */
  baseUrl: string;
  /** No BASE_URL was given: links follow the port actually bound (which differs from `port` when that is 0). */
  baseUrlFollowsPort: boolean;
  host: string;
  port: number;
  /** One JSON access-log line per request on stdout. */
  log: boolean;
  fixturesDir: string;
  archiveDir: string;
  outDir: string;
}

export const DEFAULTS = {
  host: OPTIONS.host.default,
  port: OPTIONS.port.default,
  log: OPTIONS.log.default,
  fixturesDir: OPTIONS.fixtures.default,
  archiveDir: OPTIONS.archive.default,
  outDir: OPTIONS.out.default,
} as const;

/** serve and build share one Config (scripts/serve-nginx.ts and serve-edge.ts build with it, then serve), so each reads the other's options too. */
const SERVE_AND_BUILD = [...new Set([...COMMANDS.serve.options, ...COMMANDS.build.options])];

/** The options of `serve` and `build`, with the base URL following the port when none is given. */
export function loadConfig(env: Env, argv: readonly string[] = []): Config {
  const o = readOptions(SERVE_AND_BUILD, env, argv);
  return {
    baseUrl: o.baseUrl ?? localService(o.port),
    baseUrlFollowsPort: o.baseUrl === undefined,
    host: o.host,
    port: o.port,
    log: o.log,
    fixturesDir: o.fixtures,
    archiveDir: o.archive,
    outDir: o.out,
  };
}

export type VerifyConfig = CommandOptions<'verify'>;

/** The options of `verify` (none has an environment variable). */
export const loadVerifyConfig = (argv: readonly string[]): VerifyConfig => loadOptions('verify', {}, argv);

export interface ReadConfig {
  /** The service `list` and `get` read. */
  baseUrl: string;
  csv: boolean;
  /** The series instead of the profile (with list, every market's series CSV). */
  series: boolean;
  /** get: the snapshot of this date instead of the current one. */
  vintage: string | undefined;
  /** Time allowed for each request, from sending it to the last byte of the answer. */
  timeoutMs: number;
}

/** The options of `list` and `get`: the service's address as `serve` would name it, --csv, --series, --vintage and the deadline. */
export function loadReadConfig(env: Env, argv: readonly string[]): ReadConfig {
  const { baseUrl, csv, series, vintage, timeoutMs } = readOptions(['base-url', 'csv', 'series', 'vintage', 'timeout-ms'], env, argv);
  // The port names the service only when no base URL does, so only then is it read (and a bad one refused).
  return { baseUrl: baseUrl ?? localService(readOptions(['port'], env, argv).port), csv, series, vintage, timeoutMs };
}
