// Runs the edge Worker of a built dist/ on Cloudflare's local runtime (`wrangler dev`, workerd) for tests and `npm run serve:edge`: install check, start, readiness, stop.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EDGE_CONFIG_FILE, EDGE_WORKER_FILE } from '../src/artifact/edge.ts';
import type { ArtifactOptions } from '../src/artifact/write.ts';
import type { BuildOptions } from '../src/build/build.ts';
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

/** Wrangler on loopback, offline and quiet: no telemetry, no update check, no request for the `cf` object, logs in the run folder. */
export function wranglerEnv(runDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    WRANGLER_LOG_PATH: join(runDir, 'logs'),
    WRANGLER_REGISTRY_PATH: join(runDir, 'registry'),
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
}

export interface EdgeRun {
  url: string;
  process: ChildProcess;
  /** What wrangler printed so far, when it is not inherited; the last 8,000 characters. */
  output(): string;
  stop(): Promise<void>;
}

export interface EdgeRunOptions {
  distDir: string;
  /** Wrangler's state, logs and dev registry go here. */
  runDir: string;
  host: string;
  port: number;
  /** `inherit`: wrangler writes to this process's stdout and stderr (serve:edge); otherwise its output is kept for messages. */
  stdio?: 'inherit' | 'pipe';
  /** Wrangler's log level; `warn` in tests. */
  logLevel?: 'info' | 'warn' | 'error' | 'log';
}

const waitForReady = (url: string, child: ChildProcess, output: () => string): Promise<void> =>
  new Promise((resolveReady, reject) => {
    let attempts = 0;
    let done = false;
    const onExit = (code: number | null): void => {
      done = true;
      reject(new Error(`wrangler exited (${String(code)}) before answering:\n${output()}`));
    };
    child.once('exit', onExit);
    const tryOnce = (): void => {
      if (done) return;
      // Any answer from the Worker will do: /healthz is a route.
      fetch(`${url}/healthz`)
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`status ${res.status}`);
          done = true;
          child.off('exit', onExit);
          resolveReady();
        })
        .catch(() => {
          attempts += 1;
          // A guard against a hang only (five minutes of polling and more on a busy machine, where wrangler may take long
          // to bundle and start): wrangler exits, and says why, if it cannot start.
          if (attempts > 6_000) {
            done = true;
            child.off('exit', onExit);
            reject(new Error(`wrangler did not answer on ${url}:\n${output()}`));
          } else setTimeout(tryOnce, 50);
        });
    };
    tryOnce();
  });

/** Starts `wrangler dev` on the built Worker (dist/edge/wrangler.jsonc), local only, and waits until /healthz answers. */
export async function startEdge(options: EdgeRunOptions): Promise<EdgeRun> {
  const wrangler = findWrangler();
  const runDir = resolve(options.runDir);
  mkdirSync(runDir, { recursive: true });
  const args = [
    wrangler,
    'dev',
    '--config',
    join(resolve(options.distDir), EDGE_CONFIG_FILE),
    '--local',
    '--ip',
    options.host,
    '--port',
    String(options.port),
    '--persist-to',
    join(runDir, 'state'),
    '--show-interactive-dev-session=false',
    '--live-reload=false',
    '--log-level',
    options.logLevel ?? 'warn',
  ];
  // Its own process group, so a stop reaches wrangler and the workerd processes it starts.
  const child = spawn(process.execPath, args, {
    cwd: runDir,
    env: wranglerEnv(runDir),
    stdio: options.stdio === 'inherit' ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  const keep = (chunk: Buffer): void => {
    log = (log + chunk.toString('utf8')).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${options.port}`;
  const stop = (): Promise<void> =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        done();
        return;
      }
      const force = setTimeout(() => signalGroup(child, 'SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(force);
        // workerd may outlive its parent by a moment; the group goes with it.
        signalGroup(child, 'SIGKILL');
        done();
      });
      signalGroup(child, 'SIGTERM');
    });
  try {
    await waitForReady(url, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, process: child, output: () => log, stop };
}

/** Signals the process group of a child this module started (wrangler and its workerd processes), by the child's id. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** What the tests drive: Miniflare, the local runtime `wrangler dev` itself runs (workerd), started from the same config. */
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

/**
 * Builds dist/ into a temporary folder for a free loopback port and runs its Worker on Miniflare (tests); with
 * `edgePartBytes`, bodies longer than that are stored in parts, as those over Cloudflare's asset size limit are.
 */
export const edgeOverFreshBuild = (
  inputs: Omit<BuildOptions, 'baseUrl'>,
  artifact: Pick<ArtifactOptions, 'edgePartBytes'> = {},
): Promise<FreshBuildRun<MiniflareRun>> => overFreshBuild(inputs, 'mp-edge-', startMiniflare, artifact);
