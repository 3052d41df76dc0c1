// The command line: `build` writes dist/, `serve` answers from memory (both read the same fixtures); `list` and `get` read a running service.
import { writeBuild } from '../artifact/write.ts';
import { buildRouteTable, buildSnapshot, type BuildOptions } from '../build/build.ts';
import { readArchive, writeSnapshot } from '../archive/archive.ts';
import { isCommand, loadConfig, loadFetchConfig, loadReadConfig, loadVerifyConfig, parseCommandLine, type Command, type Config } from './config.ts';
import { usageText } from './help.ts';
import { ConfigError, InvariantError } from '../contract/errors.ts';
import { fetchCommand } from './fetch.ts';
import { GET_USAGE, LIST_USAGE, getCommand, listCommand } from './read.ts';
import type { RouteTable } from '../routes/route-table.ts';
import { startServer } from '../runtimes/server/listener.ts';
import { fixturesOnDisk } from '../sources/load.ts';
import { verifyCommand } from './verify/verify.ts';

const USAGE = usageText();

const buildOptions = (config: Config): BuildOptions => ({
  baseUrl: config.baseUrl,
  read: fixturesOnDisk(config.fixturesDir),
  archive: readArchive(config.archiveDir),
});

function buildFromConfig(config: Config): RouteTable {
  return buildRouteTable(buildOptions(config));
}

async function serve(config: Config): Promise<void> {
  // With port 0 the links can only follow the port once it is bound; otherwise a fixture error stops us before listening.
  const late = config.port === 0 && config.baseUrlFollowsPort;
  const tableFor = (port: number): RouteTable => buildFromConfig(late ? { ...config, baseUrl: `http://localhost:${port}` } : config);
  const running = await startServer(late ? tableFor : tableFor(config.port), config, { log: config.log });
  process.stdout.write(`market-profiles: serving ${running.table.routes.size} routes on ${running.url} (links use ${running.table.baseUrl})\n`);
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

async function build(config: Config): Promise<void> {
  const started = process.hrtime.bigint();
  const table = buildFromConfig(config);
  const files = await writeBuild(table, config.outDir);
  const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
  process.stdout.write(`market-profiles: wrote ${files.size} files for ${table.routes.size} routes to ${config.outDir}/ in ${ms} ms\n`);
}

/** Adds the current snapshot to the archive, or says it is there already; a snapshot whose bytes would change is refused. */
async function archive(config: Config): Promise<void> {
  const { snapshot, table } = buildSnapshot(buildOptions(config));
  const result = writeSnapshot(config.archiveDir, snapshot, table);
  process.stdout.write(
    result.written
      ? `market-profiles: archived the snapshot of ${snapshot.snapshotDate}: ${result.documents} documents in ${config.archiveDir}/${result.folder}/\n`
      : `market-profiles: the snapshot of ${snapshot.snapshotDate} is archived already, byte for byte (${config.archiveDir}/${result.folder}/)\n`,
  );
}

type Env = Readonly<Record<string, string | undefined>>;

/** One command: its arguments (what follows its name) and the whole command line in, its exit code out. */
export type Runner = (args: readonly string[], env: Env, argv: readonly string[]) => Promise<number>;

/** What each command runs; `main` takes another table so a test can make a command fail the way a bug would. */
export const RUNNERS: Readonly<Record<Command, Runner>> = {
  serve: async (_args, env, argv) => {
    await serve(loadConfig(env, argv));
    return 0;
  },
  build: async (_args, env, argv) => {
    await build(loadConfig(env, argv));
    return 0;
  },
  archive: async (_args, env, argv) => {
    await archive(loadConfig(env, argv));
    return 0;
  },
  verify: (args, _env, argv) => verifyCommand(args, loadVerifyConfig(argv)),
  fetch: (_args, env, argv) => fetchCommand(loadFetchConfig(env, argv)),
  list: (args, env, argv) => listCommand(args, loadReadConfig(env, argv)),
  get: (args, env, argv) => getCommand(args, loadReadConfig(env, argv)),
};

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

export async function main(argv: readonly string[], env: Env, runners: Readonly<Record<Command, Runner>> = RUNNERS): Promise<number> {
  let command = 'serve';
  try {
    const { positionals, flags, problem } = parseCommandLine(argv);
    command = positionals[0] ?? 'serve';
    if (problem !== undefined) throw new ConfigError(problem);
    if (flags.has('help') || command === 'help') {
      process.stdout.write(command === 'list' ? LIST_USAGE : command === 'get' ? GET_USAGE : USAGE);
      return 0;
    }
    if (!isCommand(command)) {
      process.stderr.write(`market-profiles: unknown command "${command}"\n\n${USAGE}`);
      return 2;
    }
    return await runners[command](positionals.slice(1), env, argv);
  } catch (error) {
    return reportFailure(command, error);
  }
}
