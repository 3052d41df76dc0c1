// The command line: `build` writes dist/, `serve` answers from memory; both read the same fixtures.
import { writeBuild } from './artifact.ts';
import { buildRouteTable } from './build.ts';
import { loadConfig, parseFlags, type Config } from './config.ts';
import { ConfigError, DataError } from './errors.ts';
import type { RouteTable } from './routes.ts';
import { startServer } from './server/listener.ts';
import { fixtureReader } from './sources/index.ts';
import { verifyCommand } from './verify.ts';

const USAGE = `usage: market-profiles <command> [options]

commands:
  serve                 build the route table in memory and serve it (default)
  build                 write the deployable artifact to dist/ (or --out)
  verify <base-url>     check a running deployment against the contract (--json for machines;
                        --concurrency N, --timeout-ms N); exit code 0 only when everything holds

options (flags win over environment variables):
  --base-url URL        BASE_URL      origin of every absolute link (default http://localhost:<port>)
  --host HOST           HOST          listen address (default 127.0.0.1)
  --port N              PORT          listen port (default 3000; 0 picks a free one)
  --log                 LOG=1         one JSON access-log line per request on stdout
  --fixtures DIR        FIXTURES_DIR  raw source fixtures (default fixtures)
  --out DIR             OUT_DIR       output folder of build (default dist)
`;

function buildFromConfig(config: Config): RouteTable {
  return buildRouteTable({ baseUrl: config.baseUrl, read: fixtureReader(config.fixturesDir) });
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
  const { positionals, flags } = parseFlags(argv);
  const command = positionals[0] ?? 'serve';
  if (flags.has('help') || command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === 'verify') {
    try {
      return await verifyCommand(positionals.slice(1), flags);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      process.stderr.write(`market-profiles: verify: ${error.message}\n`);
      return 2;
    }
  }
  try {
    const config = loadConfig(env, argv);
    if (command === 'serve') await serve(config);
    else if (command === 'build') await build(config);
    else {
      process.stderr.write(`market-profiles: unknown command "${command}"\n\n${USAGE}`);
      return 2;
    }
    return 0;
  } catch (error) {
    if (error instanceof DataError || error instanceof ConfigError) {
      process.stderr.write(`market-profiles: ${command} failed: ${error.message}\n`);
      if (command === 'build') process.stderr.write('market-profiles: the previous output was left as it was.\n');
      return 1;
    }
    throw error;
  }
}
