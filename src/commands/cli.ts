// The command line: `build` writes dist/, `serve` answers from memory (both read the same fixtures); `list` and `get` read a running service.
import { writeBuild } from '../artifact/write.ts';
import { buildRouteTable } from '../build/build.ts';
import { loadConfig, loadFetchConfig, loadReadConfig, loadVerifyConfig, parseCommandLine, usageLines, type Config } from './config.ts';
import { ConfigError, DataError } from '../contract/errors.ts';
import { fetchCommand } from './fetch.ts';
import { GET_USAGE, LIST_USAGE, getCommand, listCommand } from './read.ts';
import type { RouteTable } from '../routes/route-table.ts';
import { startServer } from '../runtimes/server/listener.ts';
import { fixturesOnDisk } from '../sources/load.ts';
import { verifyCommand } from './verify/verify.ts';

const USAGE = `usage: market-profiles <command> [options]

commands:
  serve                 build the route table in memory and serve it (default)
  build                 write the deployable artifact to dist/ (or --out)
  fetch                 download every source from its agency, check it with the build's adapter, then replace
                        the fixtures (exit code 0 when all went well, 1 when a download failed and nothing was written)
  verify <base-url>     check a running deployment against the contract; exit code 0 only when everything holds,
                        1 when a check fails, 2 on a usage error
  list                  print the index of every market as JSON (from --base-url, default http://localhost:3000)
  get <market-id>       print one market's profile as JSON, or with --csv its CSV (caveats on stderr)
                        list and get: exit code 0 when printed, 1 when the service answered an error or could not
                        be read, 2 on a usage error; market-profiles list --help (or get --help) says more

options of serve (flags win over environment variables):
${usageLines('serve').join('\n')}

options of build:
${usageLines('build').join('\n')}

options of verify:
${usageLines('verify').join('\n')}

options of fetch:
${usageLines('fetch').join('\n')}

options of list:
${usageLines('list').join('\n')}

options of get:
${usageLines('get').join('\n')}
`;

function buildFromConfig(config: Config): RouteTable {
  return buildRouteTable({ baseUrl: config.baseUrl, read: fixturesOnDisk(config.fixturesDir) });
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

export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  let command = 'serve';
  try {
    const { positionals, flags, problem } = parseCommandLine(argv);
    command = positionals[0] ?? 'serve';
    if (problem !== undefined) throw new ConfigError(problem);
    if (flags.has('help') || command === 'help') {
      process.stdout.write(command === 'list' ? LIST_USAGE : command === 'get' ? GET_USAGE : USAGE);
      return 0;
    }
    if (command === 'list') return await listCommand(positionals.slice(1), loadReadConfig(env, argv));
    if (command === 'get') return await getCommand(positionals.slice(1), loadReadConfig(env, argv));
    if (command === 'verify') return await verifyCommand(positionals.slice(1), loadVerifyConfig(argv));
    if (command === 'fetch') return await fetchCommand(loadFetchConfig(env, argv));
    if (command !== 'serve' && command !== 'build') {
      process.stderr.write(`market-profiles: unknown command "${command}"\n\n${USAGE}`);
      return 2;
    }
    const config = loadConfig(env, argv);
    if (command === 'serve') await serve(config);
    else await build(config);
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`market-profiles: ${command}: ${error.message}\n`);
      return 2;
    }
    if (error instanceof DataError) {
      process.stderr.write(`market-profiles: ${command} failed: ${error.message}\n`);
      if (command === 'build') process.stderr.write('market-profiles: the previous output was left as it was.\n');
      return 1;
    }
    throw error;
  }
}
