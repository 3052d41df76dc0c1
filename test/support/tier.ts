// A test tier's files, and one process's share of them: the entry files of test/unit and test/integration import a
// share each, so that npm test runs each tier in as few processes as keep both cores busy (docs/testing.md).
import { readdirSync } from 'node:fs';

/** The two tiers, each a folder of `*.test.ts` files. */
export type Tier = 'unit' | 'integration';

const folderOf = (tier: Tier): URL => new URL(`../${tier}/`, import.meta.url);

/** Every `*.test.ts` of the tier, sorted by name. */
export const tierFiles = (tier: Tier): string[] =>
  readdirSync(folderOf(tier))
    .filter((name) => name.endsWith('.test.ts'))
    .sort();

/**
 * Share `part` of `parts` (counted from 0): every `parts`-th file of the sorted list, from the `part`-th. Any split
 * runs the same tests; alternate files keep the shares near each other in CPU without a list of costs to keep up to
 * date.
 */
export const shareOf = (files: readonly string[], part: number, parts: number): string[] => files.filter((_, index) => index % parts === part);

/** Imports share `part` of `parts` of the tier, one file after the other. */
export async function importShare(tier: Tier, part: number, parts: number): Promise<void> {
  for (const file of shareOf(tierFiles(tier), part, parts)) await import(new URL(file, folderOf(tier)).href);
}
