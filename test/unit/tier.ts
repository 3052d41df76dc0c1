// The unit tier's files, and one process's share of them: `all.ts` runs the whole tier in one process (npm test, where
// the integration files keep the other core busy), `half-1.ts` and `half-2.ts` split it in two for npm run test:unit.
import { readdirSync } from 'node:fs';

const here = new URL('./', import.meta.url);

/** Every `*.test.ts` of the tier, sorted by name. */
export const tierFiles = (): string[] =>
  readdirSync(here)
    .filter((name) => name.endsWith('.test.ts'))
    .sort();

/**
 * Share `part` of `parts` (counted from 0): every `parts`-th file of the sorted list, from the `part`-th. The files
 * share no state, so any split runs the same tests; alternate files keep the shares near each other in CPU without a
 * list of costs to keep up to date (docs/testing.md has the measured split).
 */
export const shareOf = (files: readonly string[], part: number, parts: number): string[] => files.filter((_, index) => index % parts === part);

/** Imports share `part` of `parts` of the tier, one file after the other. */
export async function importShare(part: number, parts: number): Promise<void> {
  for (const file of shareOf(tierFiles(), part, parts)) await import(new URL(file, here).href);
}
