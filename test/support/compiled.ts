// The installed command for the tests that spawn it, compiled first when lib/ is stale: a test runs the src/ it is checked against, never the code of an earlier compile.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordCompiled, staleCode } from '../../src/commands/compiled.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'market-profiles.js');
/** Held while one process compiles, so two test processes never write lib/ at once (the other waits, then finds it fresh). */
const LOCK = join(ROOT, 'lib', '.compile-lock');

let fresh = false;

/** The path of bin/market-profiles.js, once lib/ holds the code of src/ as it is now (compiling it if not, once per process). */
export function commandPath(): string {
  if (fresh) return BIN;
  if (staleCode(ROOT) !== undefined) withLock(() => staleCode(ROOT) !== undefined && compile());
  fresh = true;
  return BIN;
}

/** What `npm run compile` does to lib/ (the client is built by `npm ci` and checked by its own tests). */
function compile(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  recordCompiled(ROOT);
}

/** Runs `work` holding the lock; a lock whose holder is gone (a killed run) is taken over. Waits at most ten minutes. */
function withLock(work: () => unknown): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; ; waited += 1) {
    try {
      mkdirSync(join(ROOT, 'lib'), { recursive: true });
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (!holderAlive()) rmSync(LOCK, { recursive: true, force: true });
    else if (waited > 6000) throw new Error(`${LOCK} has been held for ten minutes; remove it if no compile is running`);
    else Atomics.wait(pause, 0, 0, 100);
  }
  try {
    writeFileSync(join(LOCK, 'pid'), String(process.pid));
    work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function holderAlive(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
  } catch {
    return true; // just made, its pid not yet written
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
