// The import graph of src/ keeps the layers of docs/architecture.md: every import reaches down or sideways, never up; no cycle; only the entry point runs the CLI.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'src');

/** The layers, lowest first: each is a folder of src/, and a module's layer is the folder it sits in (docs/architecture.md draws the same list). */
const LAYERS: readonly string[] = [
  'contract',
  'protocol',
  'sources',
  'methodology',
  'validate',
  'render',
  'describe',
  'routes',
  'archive',
  'pipeline',
  'artifact',
  'runtimes',
  'commands',
];

function layerOf(file: string): number {
  const folder = file.split('/')[0] ?? '';
  const index = file.includes('/') ? LAYERS.indexOf(folder) : -1;
  if (index === -1) throw new Error(`src/${file} is in no layer's folder: move it into one, or add its folder to LAYERS here and to docs/architecture.md`);
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
  // An import or export clause holds no `(`, `=` or backtick, so a match cannot run on from a function's header into a string it builds.
  for (const m of source.matchAll(/^\s*(?:import|export)\b[^;'"`(=]*?\bfrom\s*['"]([^'"]+)['"]/gms)) specifiers.push(m[1] as string);
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
    assert.ok(graph.get('commands/cli.ts')?.includes('runtimes/server/listener.ts'), "graph.get('commands/cli.ts')?.includes('runtimes/server/listener.ts')");
    assert.ok(graph.get('artifact/nginx.ts')?.includes('protocol/problems.ts'), "graph.get('artifact/nginx.ts')?.includes('protocol/problems.ts')");
    assert.ok(
      graph.get('render/pages/data-catalog-page.tsx')?.includes('protocol/problems.ts'),
      "graph.get('render/pages/data-catalog-page.tsx')?.includes('protocol/problems.ts')",
    );
  });

  it('every module of src/ belongs to a layer, and no import reaches a higher layer', () => {
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        assert.ok(!target.startsWith('..'), `src/${file} imports ${target}, outside src/`);
        if (layerOf(target) > layerOf(file)) upward.push(`src/${file} (${LAYERS[layerOf(file)]}) imports src/${target} (${LAYERS[layerOf(target)]})`);
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
    assert.ok(
      layerOf('routes/route-table.ts') > layerOf('render/csv-documents.ts') && layerOf('protocol/headers.ts') < layerOf('runtimes/server/handler.ts'),
      "layerOf('routes/route-table.ts') > layerOf('render/csv-documents.ts') && layerOf('protocol/headers.ts') < layerOf('runtimes/server/handler.ts')",
    );
    assert.deepEqual(
      importsOf(
        "import type { A } from './a.ts';\nexport { b } from '../b.ts';\nimport {\n  c,\n} from './c.tsx';\nconst d = await import('./d.ts');\nimport 'node:fs';",
      ),
      ['./a.ts', '../b.ts', './c.tsx', './d.ts'],
    );
    // A module that builds import statements as text (the edge Worker's bundle entry) does not import what they name.
    assert.deepEqual(importsOf("export function entry(m: M): string {\n  return [`import { x } from './y.ts';`].join('');\n}"), []);
  });

  it('the command loads no renderer before it needs one: serve starts from a built table (docs/serving.md, bench:startup)', () => {
    // What loading src/commands/cli.ts loads: static imports that carry values (a type-only import loads nothing, and
    // the commands import the build, fetch and verify with import() when they run).
    const loads = (abs: string): string[] =>
      [...readFileSync(abs, 'utf8').matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;'"`(=]*?\bfrom\s*['"](\.[^'"]+)['"]/gms)].map((m) =>
        resolve(dirname(abs), m[1] as string),
      );
    const seen = new Set<string>();
    const queue = [join(SRC, 'commands', 'cli.ts')];
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      if (seen.has(file)) continue;
      seen.add(file);
      queue.push(...loads(file));
    }
    const loaded = [...seen].map((abs) => relative(SRC, abs));
    assert.ok(loaded.includes('runtimes/server/listener.ts') && loaded.includes('routes/variants.ts'), loaded.join(' '));
    assert.deepEqual(
      loaded.filter((file) => /^(render|describe|pipeline|validate)\//.test(file)),
      [],
    );
    // Nor the sources (the fixture reader, the credentials: the build and fetch) or the artifact's writers (build).
    assert.deepEqual(
      loaded.filter((file) => /^sources\/|^artifact\/(?!manifest\.ts$)/.test(file)),
      [],
    );
  });

  it('only the entry point runs the CLI: nothing in src/, bench/ or scripts/ imports src/commands/cli.ts', () => {
    const importers = [...walk(SRC), ...walk(join(ROOT, 'bench')), ...walk(join(ROOT, 'scripts'))].filter((abs) =>
      importsOf(readFileSync(abs, 'utf8')).some((s) => resolve(dirname(abs), s) === join(SRC, 'commands', 'cli.ts')),
    );
    assert.deepEqual(
      importers.map((abs) => relative(ROOT, abs)),
      [],
    );
    assert.match(readFileSync(join(ROOT, 'bin/market-profiles.js'), 'utf8'), /\.\.\/lib\/commands\/cli\.js/);
  });
});
