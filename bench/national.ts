// National-size inputs (npm run bench:national): the build over the committed fixtures against the same build with every US place around the markets, side by side, alternated.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRouteTable } from '../src/pipeline/build.ts';
import { SOURCES } from '../src/sources/registry.ts';
import type { ReadFixture } from '../src/sources/source.ts';
import { nationalFiles } from '../test/support/upstream/index.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const ROUNDS = Number(process.env['ROUNDS'] ?? 5);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
}

const committed = new Map(walk(FIXTURES).map((path) => [relative(FIXTURES, path), readFileSync(path, 'utf8')]));
const national = nationalFiles(committed, SOURCES);
const readerOf =
  (files: ReadonlyMap<string, string>): ReadFixture =>
  (path) => {
    const text = files.get(path);
    if (text === undefined) throw new Error(`no fixture ${path}`);
    return text;
  };

const lineCount = (text: string): number => text.split('\n').filter((l) => l.trim() !== '').length;
console.log('inputs (data lines per file):');
for (const [file, text] of national) {
  if (file.endsWith('.md') || file.endsWith('retrieval.json')) continue;
  console.log(
    `  ${file.padEnd(48)} ${String(lineCount(committed.get(file) ?? '')).padStart(7)} committed  ${String(lineCount(text)).padStart(7)} national  ${(text.length / 2 ** 20).toFixed(1).padStart(5)} MiB`,
  );
}

/** One build, timed, with the heap it left behind and the process's peak RSS so far. */
function measure(files: ReadonlyMap<string, string>): { ms: number; heapMb: number } {
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const table = buildRouteTable({ baseUrl: 'http://localhost:3000', read: readerOf(files) });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  if (table.routes.size === 0) throw new Error('empty build');
  return { ms, heapMb };
}

// Warm-up: the JIT and the schema compiler, so the first measured build is not inflated.
measure(committed);
measure(national);
const runs: { committed: number; national: number }[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  // Alternated, so drift of the machine's speed touches both sides alike.
  const a = measure(committed);
  const b = measure(national);
  runs.push({ committed: a.ms, national: b.ms });
  console.log(
    `round ${round + 1}: committed fixtures ${a.ms.toFixed(0)} ms, national-size ${b.ms.toFixed(0)} ms (+${(b.ms - a.ms).toFixed(0)} ms); heap left after the build ${a.heapMb.toFixed(0)} / ${b.heapMb.toFixed(0)} MiB`,
  );
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 === 1 ? (s[(s.length - 1) / 2] ?? 0) : ((s[s.length / 2 - 1] ?? 0) + (s[s.length / 2] ?? 0)) / 2;
};
const added = median(runs.map((r) => r.national - r.committed));
console.log(
  `median over ${ROUNDS} alternated rounds: committed ${median(runs.map((r) => r.committed)).toFixed(0)} ms, national-size ${median(runs.map((r) => r.national)).toFixed(0)} ms; national-size inputs add ${added.toFixed(0)} ms (target: under 1000 ms)`,
);
console.log(`peak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
process.exitCode = added < 1000 ? 0 : 1;
