// Scale benchmark: builds synthetic market sets of growing size, every registered source, and prints time and memory per market.
import { buildRouteTable } from '../src/pipeline/build.ts';
import { compressAll } from '../src/routes/variants.ts';
import { SOURCES } from '../src/sources/registry.ts';
import { synthetic } from '../test/support/upstream/index.ts';

const sizes = (process.env['SIZES'] ?? '250,500,1000,2000,4000').split(',').map(Number);
// A first, discarded build warms the JIT and the schema compiler so the first row is not inflated.
buildRouteTable({ baseUrl: 'http://localhost:3000', ...synthetic(50, SOURCES) });
const rows: string[][] = [];
let baseline: number | undefined;
for (const n of sizes) {
  const { markets, read, sources } = synthetic(n, SOURCES);
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = process.hrtime.bigint();
  const table = buildRouteTable({ baseUrl: 'http://localhost:3000', read, markets, sources });
  // The variants are compressed when first read; `build` and `serve` read them all, so the time counts them.
  compressAll(table.routes.values());
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const perMarket = ms / n;
  baseline ??= perMarket;
  let bytes = 0;
  for (const route of table.routes.values()) bytes += route.identity.body.length + (route.gzip?.body.length ?? 0) + (route.br?.body.length ?? 0);
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  rows.push([
    String(n),
    String(table.routes.size),
    ms.toFixed(0),
    perMarket.toFixed(2),
    (perMarket / baseline).toFixed(2),
    (bytes / 2 ** 20).toFixed(1),
    heapMb.toFixed(0),
    (process.memoryUsage().rss / 2 ** 20).toFixed(0),
  ]);
}
const header = ['markets', 'routes', 'build ms', 'ms/market', 'ratio to first', 'output MiB', 'heap Δ MiB', 'rss MiB'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padStart(widths[i] ?? 0)).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
console.log('Linear growth shows as a flat ms/market column (ratio near 1.0); heap grows with the output, which the route table holds.');
