// The command line: `build` writes dist/, `serve` answers from memory (dist/'s table when built from the same inputs, else built afresh); `list` and `get` read a running service.
import { readFileSync } from 'node:fs';
import { buildFingerprint, readBuild } from '../artifact/manifest.ts';
import { assertFreshCode } from './compiled.ts';
import type { BuildOptions } from '../pipeline/build.ts';
import {
  COMMAND_NAMES,
  foreignOption,
  isCommand,
  loadConfig,
  loadReadConfig,
  loadVerifyConfig,
  parseCommandLine,
  type Command,
  type Config,
} from './config.ts';
import { closest } from './suggest.ts';
import { listWords } from '../contract/words.ts';
import { ConfigError, InvariantError } from '../contract/errors.ts';
import type { RouteTable } from '../routes/route-table.ts';
import { startServer } from '../runtimes/server/listener.ts';

// What only some commands need is imported when they run: `serve` over a matching build starts without loading the
// renderer, the validators, the fetchers, the fixture reader, the artifact writers or the help text (about half its
// start-up time).
const help = (): Promise<typeof import('./help.ts')> => import('./help.ts');

/** What a build is given besides its options: the markets and the sources, the registry's unless a test names others. */
export type BuildInputs = Pick<BuildOptions, 'markets' | 'sources'>;

const buildOptions = async (config: Config, inputs: BuildInputs): Promise<BuildOptions> => ({
  ...inputs,
  baseUrl: config.baseUrl,
  read: (await import('../sources/load.ts')).fixturesOnDisk(config.fixturesDir),
  archive: (await import('../archive/archive.ts')).readArchive(config.archiveDir),
});

async function buildFromConfig(config: Config, inputs: BuildInputs): Promise<RouteTable> {
  const { buildRouteTable } = await import('../pipeline/build.ts');
  return buildRouteTable(await buildOptions(config, inputs));
}

/** The table `npm run build` wrote to the output folder when it was built from these very inputs, else a fresh build. */
export async function builtOrBuild(config: Config, inputs: BuildInputs = {}): Promise<{ table: RouteTable; from: string }> {
  const built = readBuild(config.outDir, buildFingerprint(config));
  if (built !== undefined) return { table: built, from: `the table of ${config.outDir}/, built from the same inputs` };
  return { table: await buildFromConfig(config, inputs), from: `built now (${config.outDir}/ holds no build of these inputs)` };
}

/**
 * What a listen that failed says, as the one line reportFailure prints: a port in use (or one this user may not bind)
 * names the address and how to choose another, by flag or by variable; any other error is left as it is.
 */
export function listenFailure(error: unknown, listen: Pick<Config, 'host' | 'port'>): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const address = `${listen.host.includes(':') ? `[${listen.host}]` : listen.host}:${listen.port}`;
  const another = 'serve on another with --port <another> (or PORT=<another>; 0 picks a free one)';
  if (code === 'EADDRINUSE') return new Error(`${address} is in use by another program; ${another}`);
  if (code === 'EACCES') return new Error(`${address} needs privileges this user lacks (ports below 1024 do); ${another}`);
  return error;
}

/**
 * Refuses an address that cannot be bound now (in use, or a port this user may not bind) before the seconds a build
 * takes: a listener opened and closed at once. Port 0 always binds. The real listen still reports what changes between.
 */
async function assertBindable(config: Pick<Config, 'host' | 'port'>): Promise<void> {
  if (config.port === 0) return;
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host: config.host, port: config.port, exclusive: true }, () => probe.close(() => resolve()));
  }).catch((error: unknown) => {
    throw listenFailure(error, config);
  });
}

async function serve(config: Config, inputs: BuildInputs): Promise<void> {
  await assertBindable(config);
  // With port 0 the links can only follow the port once it is bound; otherwise a fixture error stops us before listening.
  const late = config.port === 0 && config.baseUrlFollowsPort;
  let from = '';
  let source: RouteTable | ((port: number) => RouteTable);
  if (late) {
    // The table is made once the port is bound, synchronously: the build is loaded beforehand, in case it is needed.
    const { buildRouteTable } = await import('../pipeline/build.ts');
    const options = await buildOptions(config, inputs);
    source = (port: number): RouteTable => {
      const baseUrl = `http://localhost:${port}`;
      const built = readBuild(config.outDir, buildFingerprint({ ...config, baseUrl }));
      from = built === undefined ? 'built now' : `the table of ${config.outDir}/, built from the same inputs`;
      return built ?? buildRouteTable({ ...options, baseUrl });
    };
  } else {
    const got = await builtOrBuild(config, inputs);
    from = got.from;
    source = got.table;
  }
  const running = await startServer(source, config, { log: config.log }).catch((error: unknown) => {
    throw listenFailure(error, config);
  });
  process.stdout.write(`market-profiles: serving ${running.table.routes.size} routes on ${running.url} (links use ${running.table.baseUrl}); ${from}\n`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    // The listener closes first, so once this line is out no new connection is accepted.
    const closed = running.close();
    process.stdout.write(`market-profiles: ${signal}: draining requests in flight\n`);
    void closed.then(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function build(config: Config, inputs: BuildInputs): Promise<void> {
  const started = process.hrtime.bigint();
  const table = await buildFromConfig(config, inputs);
  const { writeBuild } = await import('../artifact/write.ts');
  const files = await writeBuild(table, config.outDir, { builtFrom: buildFingerprint(config) });
  const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
  process.stdout.write(`market-profiles: wrote ${files.size} files for ${table.routes.size} routes to ${config.outDir}/ in ${ms} ms\n`);
}

/** Adds the current snapshot to the archive, or says it is there already; a snapshot whose bytes would change is refused. */
async function archive(config: Config, inputs: BuildInputs): Promise<void> {
  const { buildSnapshot } = await import('../pipeline/build.ts');
  const { writeSnapshot } = await import('../archive/archive.ts');
  const { snapshot, table } = buildSnapshot(await buildOptions(config, inputs));
  const result = writeSnapshot(config.archiveDir, snapshot, table);
  for (const name of result.removed) process.stdout.write(`market-profiles: removed ${config.archiveDir}/${name}/, left by an interrupted archive run\n`);
  process.stdout.write(
    result.written
      ? `market-profiles: archived the snapshot of ${snapshot.snapshotDate}: ${result.documents} documents in ${config.archiveDir}/${result.folder}/\n`
      : `market-profiles: the snapshot of ${snapshot.snapshotDate} is archived already, byte for byte (${config.archiveDir}/${result.folder}/)\n`,
  );
}

type Env = Readonly<Record<string, string | undefined>>;

/** One command: its arguments (what follows its name) and the whole command line in, its exit code out. */
export type Runner = (args: readonly string[], env: Env, argv: readonly string[]) => Promise<number>;

/**
 * What each command runs, building from these markets and sources (the registry's by default); `main` takes another
 * table, so a test can build its own world or make a command fail the way a bug would.
 */
export const runnersFor = (inputs: BuildInputs = {}): Readonly<Record<Command, Runner>> => ({
  serve: async (_args, env, argv) => {
    assertFreshCode();
    await serve(loadConfig(env, argv), inputs);
    return 0;
  },
  build: async (_args, env, argv) => {
    assertFreshCode();
    await build(loadConfig(env, argv), inputs);
    return 0;
  },
  archive: async (_args, env, argv) => {
    assertFreshCode();
    await archive(loadConfig(env, argv), inputs);
    return 0;
  },
  verify: async (args, _env, argv) => (await import('./verify/verify.ts')).verifyCommand(args, loadVerifyConfig(argv)),
  fetch: async (_args, env, argv) => {
    const { fetchCommand, loadFetchConfig } = await import('./fetch.ts');
    return fetchCommand(loadFetchConfig(env, argv), inputs);
  },
  list: async (args, env, argv) => (await import('./read.ts')).listCommand(args, loadReadConfig(env, argv)),
  get: async (args, env, argv) => (await import('./read.ts')).getCommand(args, loadReadConfig(env, argv)),
});

export const RUNNERS: Readonly<Record<Command, Runner>> = runnersFor();

/**
 * What a failure prints, one line (build adds that its output was kept), and its exit code: 2 for a usage error, 70
 * (EX_SOFTWARE) for a bug, 1 for anything else (bad data, a disk or network error). Never a stack trace.
 */
function reportFailure(command: string, error: unknown): number {
  const say = (line: string): void => void process.stderr.write(`market-profiles: ${line}\n`);
  if (error instanceof ConfigError) {
    say(`${command}: ${error.message}`);
    return 2;
  }
  if (error instanceof InvariantError) {
    say(`${command}: internal error (a bug; please report it): ${error.message}`);
    return 70;
  }
  say(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
  if (command === 'build') say('the previous output was left as it was.');
  return 1;
}

/** What an unknown command gets: one line, with the nearest command when one is close. */
function unknownCommand(name: string): string {
  const guess = closest(name, COMMAND_NAMES);
  return guess === undefined
    ? `unknown command "${name}"; the commands are ${listWords(COMMAND_NAMES)} (market-profiles --help says what each does)`
    : `unknown command "${name}"; did you mean "${guess}"? (market-profiles --help lists every command)`;
}

/** `--version`: the package's version, from its package.json (beside src/ and lib/ alike). */
export function versionText(): string {
  const { name, version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  return `${name} ${version}\n`;
}

export async function main(argv: readonly string[], env: Env, runners: Readonly<Record<Command, Runner>> = RUNNERS): Promise<number> {
  let command = 'serve';
  try {
    const { positionals, flags, problem } = parseCommandLine(argv);
    // As --help does, --version answers whatever else the line says.
    if (flags.has('version')) {
      process.stdout.write(versionText());
      return 0;
    }
    // `help` and `help <command>` say what `--help` and `<command> --help` say.
    const asksHelp = positionals[0] === 'help' || flags.has('help');
    const named = positionals[0] === 'help' ? positionals[1] : positionals[0];
    command = named ?? 'serve';
    if (!isCommand(command)) {
      process.stderr.write(`market-profiles: ${unknownCommand(command)}\n`);
      return 2;
    }
    if (asksHelp) {
      const { commandUsage, usageText } = await help();
      process.stdout.write(named === undefined ? usageText() : commandUsage(command));
      return 0;
    }
    if (problem !== undefined) throw new ConfigError(problem);
    const foreign = foreignOption(command, flags);
    if (foreign !== undefined) throw new ConfigError(foreign);
    return await runners[command](positionals.slice(1), env, argv);
  } catch (error) {
    return reportFailure(command, error);
  }
}
