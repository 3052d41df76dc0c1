// The benchmarks' own packages (bench/package.json: the static-file servers bench:serve compares against, and autocannon) are installed on first use, so the root npm ci never fetches them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = fileURLToPath(new URL('.', import.meta.url));

/** Runs `npm ci` in bench/ when bench/node_modules has not been installed yet (npm writes .package-lock.json there last). */
export function ensureBenchPackages(who: string): void {
  if (existsSync(join(BENCH, 'node_modules', '.package-lock.json'))) return;
  process.stdout.write(`${who}: installing the benchmark's own packages into bench/node_modules (npm ci in bench/, once)\n`);
  const run = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: BENCH, encoding: 'utf8' });
  if (run.status !== 0) {
    process.stderr.write(`${run.stdout ?? ''}${run.stderr ?? ''}`);
    throw new Error(`npm ci in bench/ failed (${run.error?.message ?? `exit code ${String(run.status)}`})`);
  }
}
