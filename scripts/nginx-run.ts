// Runs the real nginx over a built dist/ (tests, `npm run serve:nginx`, benchmarks): config check, start, readiness, stop.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeBuild, type ArtifactOptions } from '../src/artifact/write.ts';
import { buildRouteTable, type BuildOptions } from '../src/pipeline/build.ts';
import { nginxMainConf, type MainConfOptions } from '../src/artifact/nginx.ts';

export const INSTALL_HINT = 'install it with: apt-get install nginx-light libnginx-mod-http-brotli-static';
const MAX_HEADERS = 10_000;

/** The nginx binary, or an error that says how to get one (a missing nginx is a failure, never a skip). */
export function findNginx(): string {
  for (const candidate of [process.env.NGINX, '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) {
    if (candidate !== undefined && candidate !== '' && existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  if (which.status === 0 && found !== '') return found;
  throw new Error(`nginx is not installed (or set NGINX=/path/to/nginx); ${INSTALL_HINT}`);
}

/**
 * The brotli static module to load: the file in nginx's own modules folder (from `nginx -V`), nothing when nginx
 * was built with it, or an error that says how to install it (the generated configuration uses brotli_static).
 */
export function brotliStaticModule(nginx: string): string | undefined {
  const version = spawnSync(nginx, ['-V'], { encoding: 'utf8' });
  const built = `${version.stdout}${version.stderr}`;
  if (/--add-module=\S*brotli/.test(built)) return undefined;
  const path = join(/--modules-path=(\S+)/.exec(built)?.[1] ?? '/usr/lib/nginx/modules', 'ngx_http_brotli_static_module.so');
  if (!existsSync(path)) throw new Error(`nginx's brotli static module is not installed (no ${path}); ${INSTALL_HINT}`);
  return path;
}

export interface NginxRun {
  url: string;
  process: ChildProcess;
  confPath: string;
  /** What nginx has written to its error log so far, when it is not inherited; the last 8,000 characters. */
  errorLog(): string;
  stop(): Promise<void>;
}

export type RunOptions = Omit<MainConfOptions, 'distDir' | 'runDir' | 'user' | 'modules'> & {
  distDir: string;
  runDir: string;
  /** `inherit`: nginx's error log goes to this process's stderr; otherwise to error.log in runDir, read for messages. */
  stdio?: 'inherit' | 'file';
};

const waitForPort = (host: string, port: number, child: ChildProcess, stderr: () => string): Promise<void> =>
  new Promise((resolvePort, reject) => {
    let attempts = 0;
    const onExit = (code: number | null): void => reject(new Error(`nginx exited (${String(code)}) before listening:\n${stderr()}`));
    child.once('exit', onExit);
    const tryOnce = (): void => {
      const socket = connect({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        child.off('exit', onExit);
        resolvePort();
      });
      socket.once('error', () => {
        socket.destroy();
        attempts += 1;
        // A guard against a hang only (about a minute of polling, more on a busy machine): nginx exits if it cannot start.
        if (attempts > 2_400) {
          child.off('exit', onExit);
          reject(new Error(`nginx did not listen on ${host}:${port}:\n${stderr()}`));
        } else setTimeout(tryOnce, 25);
      });
    };
    tryOnce();
  });

/** The last 8,000 characters of a log file ('' for stderr or a file not written yet). */
function readLog(path: string): string {
  if (path === 'stderr') return '';
  try {
    return readFileSync(path, 'utf8').slice(-8000);
  } catch {
    return '';
  }
}

/** Writes nginx.conf into runDir, checks it with `nginx -t`, starts nginx in the foreground and waits until it listens. */
export async function startNginx(options: RunOptions): Promise<NginxRun> {
  const nginx = findNginx();
  const distDir = resolve(options.distDir);
  const runDir = resolve(options.runDir);
  mkdirSync(runDir, { recursive: true });
  // As root, nginx hands requests to unprivileged workers; keep them the invoking user so dist/ stays readable.
  const user = process.getuid?.() === 0 ? 'root' : undefined;
  const confPath = join(runDir, 'nginx.conf');
  const brotli = brotliStaticModule(nginx);
  // Unless it is inherited, the log goes to a file: a pipe that this process stopped draining (a blocking call in a
  // test or benchmark) would otherwise stall nginx once it filled.
  const errorLog = options.stdio === 'inherit' ? 'stderr' : join(runDir, 'error.log');
  const args = ['-p', runDir, '-c', confPath, '-e', errorLog];
  const check = (maxHeaders: number | undefined): ReturnType<typeof spawnSync> => {
    const main = { ...options, distDir, runDir, ...(user === undefined ? {} : { user }), modules: brotli === undefined ? [] : [brotli], errorLog };
    writeFileSync(confPath, nginxMainConf(maxHeaders === undefined ? main : { ...main, maxHeaders }));
    return spawnSync(nginx, [...args, '-t', '-q'], { encoding: 'utf8' });
  };
  // Far above what 16 KiB of headers can hold: the size decides, as on the embedded server. Left out where unknown.
  let checked = check(MAX_HEADERS);
  if (checked.status !== 0 && String(checked.stderr).includes('"max_headers"')) checked = check(undefined);
  if (checked.status !== 0) throw new Error(`nginx rejected the generated configuration ${confPath}:\n${String(checked.stderr)}${readLog(errorLog)}`);
  return runNginx(nginx, args, confPath, options.host, options.port, errorLog);
}

/**
 * Starts nginx in the foreground with these arguments and waits until it listens on host:port. `errorLog` is the file
 * its log goes to, read for messages, or `stderr` when the log is inherited.
 */
export async function runNginx(nginx: string, args: readonly string[], confPath: string, host: string, port: number, errorLog: string): Promise<NginxRun> {
  const output = errorLog === 'stderr' ? 'inherit' : 'ignore';
  const child = spawn(nginx, args, { stdio: ['ignore', output, output] });
  await waitForPort(host, port, child, () => readLog(errorLog));
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    process: child,
    confPath,
    errorLog: () => readLog(errorLog),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          done();
          return;
        }
        child.once('exit', () => done());
        child.kill('SIGQUIT');
      }),
  };
}

/** The kernel's range of ephemeral ports (what `listen(0)` and every outgoing connection draw from), as on Linux's default. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low !== undefined && high !== undefined && low > 2048 && high >= low) return [low, high];
  } catch {
    // not Linux: its default range
  }
  return [32768, 60999];
}

/** Binds a probe to `port`: true when nobody had it. */
const bindable = (port: number, host: string): Promise<boolean> =>
  new Promise((resolveBound) => {
    const probe = createServer();
    probe.once('error', () => resolveBound(false));
    probe.listen(port, host, () => probe.close(() => resolveBound(true)));
  });

/**
 * A loopback port nobody listens on, so a build can name the URL it will be served at before its server starts. It is
 * drawn below the ephemeral range: a port from `listen(0)` could, once the probe lets it go, become the source port of
 * any connection another test opens meanwhile (thousands under the fuzz), and the server would then fail to bind it.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [low] = ephemeralRange();
  const first = Math.max(10_000, low - 12_000);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = first + Math.floor(Math.random() * (low - first));
    if (await bindable(port, host)) return port;
  }
  throw new Error(`no free port on ${host} between ${first} and ${low - 1}`);
}

/** A server over a build in a temporary folder, and the one call that stops it and removes the folder. */
export interface FreshBuildRun<R> {
  baseUrl: string;
  dir: string;
  run: R;
  stop: () => Promise<void>;
}

/** Builds dist/ from these inputs into a temporary folder for a free loopback port and starts a server over it; the folder goes when it stops or fails to start. */
export async function overFreshBuild<R extends { stop: () => Promise<void> }>(
  inputs: Omit<BuildOptions, 'baseUrl'>,
  prefix: string,
  start: (options: { distDir: string; runDir: string; host: string; port: number }) => Promise<R>,
  artifact: Pick<ArtifactOptions, 'edgePartBytes'> = {},
): Promise<FreshBuildRun<R>> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    await writeBuild(buildRouteTable({ ...inputs, baseUrl }), join(dir, 'dist'), artifact);
    const run = await start({ distDir: join(dir, 'dist'), runDir: join(dir, 'run'), host: '127.0.0.1', port });
    return {
      baseUrl,
      dir,
      run,
      stop: async () => {
        await run.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Builds dist/ into a temporary folder for a free loopback port and serves it with nginx (tests, benchmarks). */
export const nginxOverFreshBuild = (inputs: Omit<BuildOptions, 'baseUrl'>): Promise<FreshBuildRun<NginxRun>> => overFreshBuild(inputs, 'mp-nginx-', startNginx);
