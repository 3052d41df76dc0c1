// The import graph of src/ keeps the layers of docs/architecture.md: every import reaches down or sideways, never up; no cycle; only the entry point runs the CLI.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/** The layers, lowest first, as path prefixes under src/ (docs/architecture.md draws the same list). */
const LAYERS: readonly (readonly [string, readonly string[]])[] = [
  ['contract', ['contract.ts', 'errors.ts', 'paths.ts', 'markets.ts', 'json.ts', 'csv.ts']],
  ['protocol', ['http/']],
  ['client', ['client.ts']],
  ['sources', ['sources/']],
  ['methodology', ['methodology.ts', 'profiles.ts', 'market-index.ts']],
  ['validate', ['validate.ts']],
  ['render', ['render/']],
  ['describe', ['describe/']],
  ['routes', ['routes.ts', 'build.ts']],
  ['manifest', ['manifest.ts']],
  ['engines', ['engines/']],
  ['artifact', ['artifact.ts']],
  ['server', ['server/']],
  ['commands', ['config.ts', 'verify.ts', 'verify/', 'fetch.ts', 'read.ts']],
  ['cli', ['cli.ts']],
];

function layerOf(file: string): number {
  const index = LAYERS.findIndex(([, prefixes]) => prefixes.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));
  if (index === -1) throw new Error(`src/${file} belongs to no layer: add it to LAYERS here and to docs/architecture.md`);
  return index;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Relative module specifiers of a source file: static imports and re-exports (type-only ones too: they are dependencies) and dynamic imports. */
export function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gms)) specifiers.push(m[1] as string);
  for (const m of source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) specifiers.push(m[1] as string);
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.push(m[1] as string);
  return specifiers.filter((s) => s.startsWith('.'));
}

/** file (relative to src/) → the files it imports (relative to src/); imports that leave src/ are kept with their ../ path. */
function graphOf(files: readonly string[]): Map<string, string[]> {
  return new Map(files.map((abs) => [relative(SRC, abs), importsOf(readFileSync(abs, 'utf8')).map((s) => relative(SRC, resolve(dirname(abs), s)))]));
}

function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle !== undefined) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle !== undefined) return cycle;
  }
  return undefined;
}

describe('architecture', () => {
  const graph = graphOf(walk(SRC));

  it('the graph is read: every module is found and the known edges are there', () => {
    assert.ok(graph.size > 40, `${graph.size} modules`);
    assert.ok(graph.get('cli.ts')?.includes('server/listener.ts'));
    assert.ok(graph.get('engines/nginx.ts')?.includes('http/problems.ts'));
    assert.ok(graph.get('render/pages/data-catalog-page.tsx')?.includes('http/problems.ts'));
  });

  it('every module of src/ belongs to a layer, and no import reaches a higher layer', () => {
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        assert.ok(!target.startsWith('..'), `src/${file} imports ${target}, outside src/`);
        if (layerOf(target) > layerOf(file)) upward.push(`src/${file} (${LAYERS[layerOf(file)]?.[0]}) imports src/${target} (${LAYERS[layerOf(target)]?.[0]})`);
      }
    }
    assert.deepEqual(upward, []);
  });

  it('the import graph has no cycle', () => {
    assert.equal(findCycle(graph)?.join(' → '), undefined);
  });

  it('the cycle check finds a cycle and the layer check an upward import when there is one', () => {
    assert.deepEqual(
      findCycle(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', ['a.ts']],
        ]),
      ),
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
    );
    assert.ok(layerOf('routes.ts') > layerOf('render/csv.ts') && layerOf('http/headers.ts') < layerOf('server/handler.ts'));
    assert.deepEqual(
      importsOf(
        "import type { A } from './a.ts';\nexport { b } from '../b.ts';\nimport {\n  c,\n} from './c.tsx';\nconst d = await import('./d.ts');\nimport 'node:fs';",
      ),
      ['./a.ts', '../b.ts', './c.tsx', './d.ts'],
    );
  });

  it('only the entry point runs the CLI: nothing in src/, bench/ or scripts/ imports src/cli.ts', () => {
    const importers = [...walk(SRC), ...walk(join(ROOT, 'bench')), ...walk(join(ROOT, 'scripts'))].filter((abs) =>
      importsOf(readFileSync(abs, 'utf8')).some((s) => resolve(dirname(abs), s) === join(SRC, 'cli.ts')),
    );
    assert.deepEqual(
      importers.map((abs) => relative(ROOT, abs)),
      [],
    );
    assert.match(readFileSync(join(ROOT, 'bin/market-profiles.js'), 'utf8'), /\.\.\/lib\/cli\.js/);
  });
});
