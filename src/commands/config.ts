// Every option of every command in one table (flag, environment variable, type, default, help), read with node:util parseArgs; the usage text and the README follow it.
import { parseArgs } from 'node:util';
import { ConfigError, InvariantError } from '../contract/errors.ts';
import { baseUrl, integer, normalizeBaseUrl, onOff, otherUrl, text, type Kind } from './option-kinds.ts';

export type Command = 'serve' | 'build' | 'verify' | 'fetch' | 'list' | 'get';

/** One option: how it is set, the kind of value it takes, its default, what it does, and which commands read it. */
interface OptionSpec<V> {
  /** The environment variable that sets it; flags win over it. */
  env?: string;
  /** Set only by its environment variable (a secret has no flag, so it stays out of shell histories and process lists). */
  envOnly?: boolean;
  kind: Kind<Exclude<V, undefined>>;
  /** The value when neither a flag nor the environment gives one; undefined for an option that may stay unset. */
  default: V;
  /** What an unset option means, in words, as the README and the usage text say it; only for one without a default. */
  absent?: string;
  help: string;
  commands: readonly Command[];
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
    kind: integer(0, 65535),
    default: 3000,
    help: 'Listen port (`0` picks a free one); without `BASE_URL`, also the port the links name (and that `list` and `get` read from).',
    commands: ['serve', 'build', 'list', 'get'],
  }),
  host: option({
    env: 'HOST',
    kind: text('host or IP'),
    default: '127.0.0.1',
    help: 'Listen address; `0.0.0.0` in a container.',
    commands: ['serve'],
  }),
  'base-url': option({
    env: 'BASE_URL',
    kind: baseUrl,
    absent: '`http://localhost:<PORT>`',
    help: "Origin of every absolute URL in a body (links, schema `$id`, problem `type`). Never taken from a request's Host header. For `list` and `get`, the service to read.",
    commands: ['serve', 'build', 'list', 'get'],
  }),
  log: option({
    env: 'LOG',
    kind: onOff,
    default: false,
    help: 'One JSON access-log line per request on stdout (time, method, path without query, status, bytes, encoding, duration; no IP, no user agent).',
    commands: ['serve'],
  }),
  fixtures: option({
    env: 'FIXTURES_DIR',
    kind: text('path'),
    default: 'fixtures',
    help: 'Raw source fixtures the data-loading run reads (and `fetch` writes).',
    commands: ['serve', 'build', 'fetch'],
  }),
  out: option({
    env: 'OUT_DIR',
    kind: text('path'),
    default: 'dist',
    help: 'Where `npm run build` writes the deployable artifact.',
    commands: ['build'],
  }),
  json: option({
    kind: onOff,
    default: false,
    help: 'The report as JSON instead of text.',
    commands: ['verify'],
  }),
  concurrency: option({
    kind: integer(1, 256),
    default: 8,
    help: 'Requests in flight at once.',
    commands: ['verify'],
  }),
  'timeout-ms': option({
    kind: integer(1, 600_000),
    default: 10_000,
    help: 'Time allowed for each request, in milliseconds.',
    commands: ['verify'],
  }),
  csv: option({
    kind: onOff,
    default: false,
    help: "The market's CSV instead of its JSON profile (the caveats then go to stderr).",
    commands: ['get'],
  }),
  'dry-run': option({
    kind: onOff,
    default: false,
    help: 'Download and check every file and print what would change, but write nothing.',
    commands: ['fetch'],
  }),
  source: option({
    kind: text('source id'),
    absent: 'every source',
    help: 'Only this source: `census-acs-5yr`, `census-bps` or `fhfa-hpi`.',
    commands: ['fetch'],
  }),
  upstream: option({
    env: 'FETCH_UPSTREAM',
    kind: otherUrl,
    absent: "each agency's own",
    help: "Fetch from this origin instead of each agency's (a mirror); the agency's path and query are kept.",
    commands: ['fetch'],
  }),
  'fetch-timeout-ms': option({
    kind: integer(1, 3_600_000),
    default: 60_000,
    help: 'Time allowed for each download, in milliseconds; a download is tried three times.',
    commands: ['fetch'],
  }),
  'census-api-key': option({
    env: 'CENSUS_API_KEY',
    envOnly: true,
    kind: text('string'),
    absent: 'none',
    help: 'Census Data API key, sent with the ACS requests; never written to a file or a message.',
    commands: ['fetch'],
  }),
} as const;

type Name = keyof typeof OPTIONS;
type ValueOf<N extends Name> = (typeof OPTIONS)[N] extends OptionSpec<infer V> ? V : never;
const NAMES = Object.keys(OPTIONS) as Name[];

/** The name an error message gives an option: its environment variable where it has one, else its flag. */
const label = (name: Name): string => (OPTIONS[name] as OptionSpec<unknown>).env ?? `--${name}`;

export interface ParsedArgs {
  positionals: string[];
  /** Flags as given, still raw; `help` when --help or -h was given. */
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
]) as Record<string, { type: 'boolean' | 'string'; short?: string }>;

/** Reads argv with parseArgs: the flags of the table and --help; the positionals are read even when a flag is bad, so an error can name the command. */
export function parseCommandLine(argv: readonly string[]): ParsedArgs {
  const { values, positionals, tokens } = parseArgs({ args: [...argv], options: PARSE_OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const problems = tokens.flatMap((t) => {
    if (t.kind !== 'option') return [];
    const type = PARSE_OPTIONS[t.name]?.type;
    if (type === undefined) return [`unknown option ${t.rawName} (see --help)`];
    if (type === 'string' && t.value === undefined) return [`${t.rawName} needs a value`];
    if (type === 'boolean' && t.value !== undefined) return [`${t.rawName} takes no value`];
    return [];
  });
  const flags = new Map(Object.entries(values).filter((entry): entry is [string, string | boolean] => entry[1] !== undefined));
  return { positionals, flags, problem: problems[0] };
}

/** The flags of a command line, refusing the first bad one. */
function flagsOf(argv: readonly string[]): ParsedArgs['flags'] {
  const { flags, problem } = parseCommandLine(argv);
  if (problem !== undefined) throw new ConfigError(problem);
  return flags;
}

/** One option's value: the flag, else the environment variable, else the default; a bad value is refused. */
function valueOf<N extends Name>(name: N, flags: ParsedArgs['flags'], env: Readonly<Record<string, string | undefined>>): ValueOf<N> {
  const spec = OPTIONS[name] as OptionSpec<ValueOf<N>>;
  const flag = flags.get(name);
  if (flag !== undefined) return typeof flag === 'boolean' ? (flag as ValueOf<N>) : spec.kind.parse(flag, label(name));
  const fromEnv = spec.env === undefined ? undefined : env[spec.env];
  return fromEnv === undefined ? spec.default : spec.kind.parse(fromEnv, label(name));
}

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
  outDir: string;
}

export const DEFAULTS = {
  host: OPTIONS.host.default,
  port: OPTIONS.port.default,
  log: OPTIONS.log.default,
  fixturesDir: OPTIONS.fixtures.default,
  outDir: OPTIONS.out.default,
} as const;

/** The options of `serve` and `build`; flags win over environment variables, which win over defaults. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, argv: readonly string[] = []): Config {
  const flags = flagsOf(argv);
  const port = valueOf('port', flags, env);
  const explicitBaseUrl = valueOf('base-url', flags, env);
  return {
    baseUrl: explicitBaseUrl ?? normalizeBaseUrl(`http://localhost:${port}`),
    baseUrlFollowsPort: explicitBaseUrl === undefined,
    host: valueOf('host', flags, env),
    port,
    log: valueOf('log', flags, env),
    fixturesDir: valueOf('fixtures', flags, env),
    outDir: valueOf('out', flags, env),
  };
}

export interface VerifyConfig {
  json: boolean;
  concurrency: number;
  timeoutMs: number;
}

/** The options of `verify`, refused the same way as those of `serve` and `build`. */
export function loadVerifyConfig(argv: readonly string[]): VerifyConfig {
  const flags = flagsOf(argv);
  return { json: valueOf('json', flags, {}), concurrency: valueOf('concurrency', flags, {}), timeoutMs: valueOf('timeout-ms', flags, {}) };
}

export interface ReadConfig {
  /** The service `list` and `get` read. */
  baseUrl: string;
  csv: boolean;
}

/** The options of `list` and `get`: the service's address as `serve` would name it, and --csv. */
export function loadReadConfig(env: Readonly<Record<string, string | undefined>>, argv: readonly string[]): ReadConfig {
  const flags = flagsOf(argv);
  return {
    baseUrl: valueOf('base-url', flags, env) ?? normalizeBaseUrl(`http://localhost:${valueOf('port', flags, env)}`),
    csv: valueOf('csv', flags, env),
  };
}

export interface FetchConfig {
  fixturesDir: string;
  source: string | undefined;
  dryRun: boolean;
  upstream: string | undefined;
  timeoutMs: number;
  censusApiKey: string | undefined;
}

/** The options of `fetch`. */
export function loadFetchConfig(env: Readonly<Record<string, string | undefined>>, argv: readonly string[]): FetchConfig {
  const flags = flagsOf(argv);
  return {
    fixturesDir: valueOf('fixtures', flags, env),
    source: valueOf('source', flags, env),
    dryRun: valueOf('dry-run', flags, env),
    upstream: valueOf('upstream', flags, env),
    timeoutMs: valueOf('fetch-timeout-ms', flags, env),
    censusApiKey: valueOf('census-api-key', flags, env),
  };
}

const flagText = (name: Name): string => {
  const spec: OptionSpec<unknown> = OPTIONS[name];
  return spec.envOnly ? '' : `--${name}${spec.kind.switch ? '' : ' VALUE'}`;
};
const envText = (name: Name): string => (OPTIONS[name] as OptionSpec<unknown>).env ?? '';

/** The type as shown: a switch set by its environment variable says how that spells on and off. */
function typeText(name: Name): string {
  const spec: OptionSpec<unknown> = OPTIONS[name];
  return spec.env === undefined ? spec.kind.type : (spec.kind.envType ?? spec.kind.type);
}

/** The default as shown: the value in code font (`3000`), off or on for a switch, or what leaving it unset means. */
function shownDefault(name: Name): string {
  const spec: OptionSpec<unknown> = OPTIONS[name];
  if (typeof spec.default === 'boolean') return spec.default ? 'on' : 'off';
  if (spec.default !== undefined) return `\`${String(spec.default)}\``;
  if (spec.absent === undefined) throw new InvariantError(`the option --${name} has neither a default nor words for its absence`);
  return spec.absent;
}
/** Column widths of the usage text, wide enough for the longest flag and environment name of any command. */
const FLAG_WIDTH = Math.max(...NAMES.map((name) => flagText(name).length)) + 2;
const ENV_WIDTH = Math.max(...NAMES.map((name) => envText(name).length)) + 2;

/** The options of one command, as lines of the usage text. */
export function usageLines(command: Command): string[] {
  return NAMES.filter((name) => (OPTIONS[name].commands as readonly Command[]).includes(command)).map((name) => {
    const spec: OptionSpec<unknown> = OPTIONS[name];
    const help = `${spec.help} (${typeText(name)}; default ${shownDefault(name)})`.replaceAll('`', '');
    return `  ${flagText(name).padEnd(FLAG_WIDTH)}${envText(name).padEnd(ENV_WIDTH)}${help}`;
  });
}

/** The README's options table, generated from the table above (a test keeps the README equal to it). */
export function optionsTable(): string {
  const rows = NAMES.map((name) => {
    const spec: OptionSpec<unknown> = OPTIONS[name];
    return `| ${spec.env === undefined ? '' : `\`${spec.env}\``} | ${spec.envOnly ? '' : `\`--${name}\``} | ${typeText(name)} | ${shownDefault(name)} | ${spec.commands.map((c) => `\`${c}\``).join(', ')} | ${spec.help} |`;
  });
  return ['| Environment | Flag | Type | Default | Commands | Meaning |', '|---|---|---|---|---|---|', ...rows].join('\n');
}
