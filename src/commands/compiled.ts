// Whether the compiled code in lib/ was compiled from the src/ beside it: `build`, `archive` and `serve` refuse stale code, which would build (and archive, write-once) what the sources no longer say.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesUnder, hashFiles } from '../artifact/manifest.ts';

/** Where the compile records what it compiled from: the fingerprint of src/, in lib/ beside the code it wrote. */
export const COMPILED_FROM = '.compiled-from';

/** The command that compiles src/ to lib/ and records it. */
export const COMPILE_COMMAND = 'npm run compile';

/** The fingerprint of a source tree: every file's name, length and bytes, as the build's own fingerprint reads its inputs (artifact/manifest.ts). */
export function sourceFingerprint(srcDir: string): string {
  const hash = createHash('sha256').update('market-profiles src 1\0');
  hashFiles(hash, 'src', srcDir, filesUnder(srcDir));
  return hash.digest('hex');
}

/** Records, after a compile, that lib/ holds the code of the src/ beside it now (`npm run compile` runs this last). */
export function recordCompiled(root: string): void {
  writeFileSync(join(root, 'lib', COMPILED_FROM), `${sourceFingerprint(join(root, 'src'))}\n`);
}

/**
 * Why the compiled code in `root`/lib/ is stale, in one sentence naming it and the command that compiles it; undefined
 * when it was compiled from the src/ beside it, or when there is no src/ to compare with (an installed package).
 */
export function staleCode(root: string): string | undefined {
  const src = join(root, 'src');
  if (!existsSync(src)) return undefined;
  let recorded: string;
  try {
    recorded = readFileSync(join(root, 'lib', COMPILED_FROM), 'utf8').trim();
  } catch {
    return `lib/ holds no record of the src/ it was compiled from (lib/${COMPILED_FROM}): run \`${COMPILE_COMMAND}\` first`;
  }
  if (recorded === sourceFingerprint(src)) return undefined;
  return `lib/ was not compiled from the src/ beside it (src/ changed since \`${COMPILE_COMMAND}\` last ran), so it would run the old code: run \`${COMPILE_COMMAND}\` first`;
}

/**
 * Throws when the code running is lib/ and lib/ is stale (staleCode). Code run from src/ (under tsx: the tests, the
 * scripts) is its own source, and is never stale.
 */
export function assertFreshCode(): void {
  const code = fileURLToPath(new URL('..', import.meta.url));
  if (basename(code) !== 'lib') return;
  const stale = staleCode(join(code, '..'));
  if (stale !== undefined) throw new Error(stale);
}
