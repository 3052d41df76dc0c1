// Runs the edge Worker of a built dist/ on Cloudflare's local runtime (workerd, through Miniflare) for tests and `npm run serve:edge`: install check, start, supervision, stop.
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EDGE_CONFIG_FILE, EDGE_WORKER_FILE } from '../src/artifact/edge.ts';
import type { ArtifactOptions } from '../src/artifact/write.ts';
import type { BuildOptions } from '../src/pipeline/build.ts';
import { overFreshBuild, type FreshBuildRun } from './nginx-run.ts';

/** edge/: Wrangler and workerd with their own package.json and lock, out of the root install (about 200 MB). */
export const EDGE_TOOLS_DIR = fileURLToPath(new URL('../edge/', import.meta.url));
export const INSTALL_HINT = 'install it with: npm run edge:install';

/** The wrangler version edge/package-lock.json pins. */
function lockedWranglerVersion(): string {
  const lock = JSON.parse(readFileSync(join(EDGE_TOOLS_DIR, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  const version = lock.packages['node_modules/wrangler']?.version;
  if (version === undefined) throw new Error('edge/package-lock.json pins no wrangler');
  return version;
}

/** The installed wrangler's CLI, or an error that says how to install it (a missing runtime is a failure, never a skip). */
export function findWrangler(): string {
  const cli = join(EDGE_TOOLS_DIR, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
  const pkg = join(EDGE_TOOLS_DIR, 'node_modules', 'wrangler', 'package.json');
  if (!existsSync(cli) || !existsSync(pkg)) throw new Error(`wrangler is not installed in edge/; ${INSTALL_HINT}`);
  const installed = (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  const locked = lockedWranglerVersion();
  if (installed !== locked) throw new Error(`edge/ has wrangler ${installed}, its lock pins ${locked}; ${INSTALL_HINT}`);
  return cli;
}

/** `npm run edge:install`: `npm ci` in edge/ when wrangler is missing or not the locked version; nothing otherwise. */
export function installEdgeTools(): void {
  try {
    findWrangler();
    return;
  } catch {
    // fall through to the install
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: EDGE_TOOLS_DIR, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm ci in edge/ failed (exit ${String(result.status)})`);
  findWrangler();
}

/** The date of the workerd that wrangler runs (`workerd --version` prints it): compatibility dates after it are refused. */
export function workerdDate(): string {
  const bin = join(EDGE_TOOLS_DIR, 'node_modules', 'workerd', 'bin', 'workerd');
  const out = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
  const date = /(\d{4}-\d{2}-\d{2})/.exec(`${out.stdout}${out.stderr}`)?.[1];
  if (date === undefined) throw new Error(`workerd --version printed no date: ${out.stdout}${out.stderr}`);
  return date;
}

export interface EdgeRunOptions {
  distDir: string;
  host: string;
  port: number;
}

export interface MiniflareRun {
  url: string;
  stop(): Promise<void>;
}

interface MiniflareModule {
  Miniflare: new (options: object) => { ready: Promise<URL>; dispose(): Promise<void> };
}
interface WranglerModule {
  unstable_getMiniflareWorkerOptions(configPath: string): { workerOptions: object };
}

/**
 * Runs the built Worker (dist/edge/wrangler.jsonc) on workerd through Miniflare, as `wrangler dev` does, without the
 * development proxy wrangler puts in front of it (live reload, the inspector, its console): one workerd process, and
 * every request reaches the runtime's own front end. Local only.
 */
export async function startMiniflare(options: Pick<EdgeRunOptions, 'distDir' | 'host' | 'port'>): Promise<MiniflareRun> {
  findWrangler();
  const load = createRequire(join(EDGE_TOOLS_DIR, 'package.json'));
  const { Miniflare } = load('miniflare') as MiniflareModule;
  const { unstable_getMiniflareWorkerOptions } = load('wrangler') as WranglerModule;
  const { workerOptions } = unstable_getMiniflareWorkerOptions(join(resolve(options.distDir), EDGE_CONFIG_FILE));
  // The script the configuration's `main` names (Miniflare takes it apart from the options wrangler derives).
  const scriptPath = join(resolve(options.distDir), EDGE_WORKER_FILE);
  const mf = new Miniflare({
    ...workerOptions,
    modules: true,
    scriptPath,
    modulesRoot: dirname(scriptPath),
    host: options.host,
    port: options.port,
    // The placeholder Request.cf: Miniflare would otherwise fetch one from Cloudflare, and the tests stay on loopback.
    cf: false,
  });
  const url = (await mf.ready).href.replace(/\/$/, '');
  return { url, stop: () => mf.dispose() };
}

/** How the supervisor of `serve:edge` watches the runtime: a probe of /healthz on a connection of its own. */
export interface Supervision {
  /** Between probes. */
  everyMs: number;
  /** A probe that has no answer by then fails. */
  timeoutMs: number;
  /** Failed probes in a row that mean the runtime is gone. */
  failures: number;
  /** Restarts before it gives up (exit code 1). */
  restarts: number;
  say(line: string): void;
}

/** One GET /healthz on a fresh connection: true when it answers 200 in time. */
function probe(url: string, timeoutMs: number): Promise<boolean> {
  return new Promise((done) => {
    const req = httpRequest(`${url}/healthz`, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode === 200));
      res.on('error', () => done(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(false));
    req.end();
  });
}

/**
 * Runs the Worker on Miniflare and keeps it answering: when /healthz fails `failures` probes in a row (the runtime died
 * or hangs), the runtime is disposed of and started again on the same address, saying so; after `restarts` restarts
 * it gives up with a message and `onGiveUp`. A silent dead port is never left behind.
 */
export async function superviseMiniflare(
  options: Pick<EdgeRunOptions, 'distDir' | 'host' | 'port'>,
  watch: Supervision,
  onGiveUp: () => void,
): Promise<MiniflareRun> {
  let run = await startMiniflare(options);
  let failed = 0;
  let restarted = 0;
  let stopping = false;
  let busy = false;
  const timer = setInterval(() => {
    if (busy || stopping) return;
    busy = true;
    void (async () => {
      if (await probe(run.url, watch.timeoutMs)) failed = 0;
      else if (++failed >= watch.failures && !stopping) {
        if (restarted === watch.restarts) {
          watch.say(`the edge runtime has stopped answering ${run.url} again after ${watch.restarts} restarts; giving up`);
          clearInterval(timer);
          await run.stop().catch(() => undefined);
          onGiveUp();
          return;
        }
        restarted++;
        watch.say(`the edge runtime stopped answering ${run.url}/healthz (${failed} probes in a row); restarting it (${restarted} of ${watch.restarts})`);
        await run.stop().catch(() => undefined);
        run = await startMiniflare(options);
        failed = 0;
        watch.say(`the edge runtime answers ${run.url} again`);
      }
    })().finally(() => {
      busy = false;
    });
  }, watch.everyMs);
  timer.unref();
  return {
    get url() {
      return run.url;
    },
    stop: async () => {
      stopping = true;
      clearInterval(timer);
      await run.stop();
    },
  };
}

/**
 * Builds dist/ into a temporary folder for a free loopback port and runs its Worker on Miniflare (tests); with
 * `edgePartBytes`, bodies longer than that are stored in parts, as those over Cloudflare's asset size limit are.
 */
export const edgeOverFreshBuild = (
  inputs: Omit<BuildOptions, 'baseUrl'>,
  artifact: Pick<ArtifactOptions, 'edgePartBytes'> = {},
): Promise<FreshBuildRun<MiniflareRun>> => overFreshBuild(inputs, 'mp-edge-', startMiniflare, artifact);
