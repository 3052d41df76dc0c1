// `npm run test:node`: npm test again on each current LTS line of Node.js (the machine has Node 20), with the official binary as the package registry ships it, so the package keeps working beyond 20.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The LTS lines besides the machine's 20 (which reached its end of life on 2026-04-30), from the Node.js release
 * schedule: 26 Active LTS since 2026-10-28, 24 Maintenance LTS since 2026-10-20, 22 Maintenance LTS until 2027-04-30.
 */
export const LTS_LINES = ['22', '24', '26'] as const;

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Unpacked binaries, one folder a version; `npm ci` empties node_modules/, so a clean checkout fetches again. */
const CACHE = join(ROOT, 'node_modules', '.cache', 'node');
// Linux and macOS only (binaryPackage), so plain `npm` and a `:`-separated PATH.
const npm = 'npm';

/** The registry package that carries Node's own binary for this machine (bin/node inside it). */
export function binaryPackage(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  if (platform !== 'linux' && platform !== 'darwin') throw new Error(`test:node runs on Linux and macOS only, not ${platform}`);
  return `node-${platform}-${arch}`;
}

/** The newest version of a line ("22") or the version itself ("22.23.3"), from what `npm view … version --json` prints. */
export function newest(printed: string, spec: string): string {
  const parsed = JSON.parse(printed) as string | string[];
  const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  const order = (a: string, b: string): number => {
    const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
    return x.map((n, i) => n - (y[i] ?? 0)).find((d) => d !== 0) ?? 0;
  };
  const last = versions.sort(order).at(-1);
  if (last === undefined) throw new Error(`no release of Node.js matches ${spec}`);
  return last;
}

/** The line of a failed command's stderr that says why: npm's first error line after its code, or the last line. */
export function why(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.find((l) => l.startsWith('npm error ') && !l.startsWith('npm error code ')) ?? lines.at(-1) ?? 'no message';
}

/** Runs a command to its end; its stdout, or an error naming it and why it failed, in one line. */
function output(command: string, args: readonly string[]): string {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${String(result.status)}): ${why(result.stderr)}`);
  return result.stdout;
}

/** The `node` binary of a line or version, fetched and unpacked once. */
export function nodeBinary(spec: string): { version: string; bin: string } {
  const pkg = binaryPackage();
  const version = newest(output(npm, ['view', `${pkg}@${spec}`, 'version', '--json']), spec);
  const dir = join(CACHE, version);
  const bin = join(dir, 'package', 'bin');
  if (!existsSync(join(bin, 'node'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const tarball =
      output(npm, ['pack', `${pkg}@${version}`, '--pack-destination', dir, '--silent'])
        .trim()
        .split('\n')
        .at(-1) ?? '';
    output('tar', ['-xzf', join(dir, tarball), '-C', dir]);
    rmSync(join(dir, tarball));
  }
  return { version, bin };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const specs = process.argv.length > 2 ? process.argv.slice(2) : [...LTS_LINES];
  const outcomes: string[] = [];
  let failed = false;
  for (const spec of specs) {
    let found: { version: string; bin: string };
    try {
      found = nodeBinary(spec);
    } catch (error) {
      // No registry, no such line, no tar: one line saying which, and the lines still to run are run.
      failed = true;
      outcomes.push(`Node.js ${spec}: not run: ${(error as Error).message}`);
      continue;
    }
    const { version, bin } = found;
    console.error(`test:node: npm test on Node.js ${version}`);
    const run = spawnSync(npm, ['test'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` } });
    failed ||= run.status !== 0;
    outcomes.push(`Node.js ${version}: npm test ${run.status === 0 ? 'passed' : `failed (exit ${String(run.status ?? run.signal)})`}`);
  }
  for (const line of outcomes) console.error(`test:node: ${line}`);
  process.exitCode = failed ? 1 : 0;
}
