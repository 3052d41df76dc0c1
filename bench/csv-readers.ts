// npm run bench:csv-readers: every CSV the service serves today, read by pandas, R and DuckDB with no options, each row's codes and values held to the JSON documents the CSV ties to (a check script, not part of npm test).
//
// Needs python3 with pandas and Rscript (on Debian: apt-get install python3-pandas r-base-core); DuckDB comes from
// bench/package.json (@duckdb/node-api), installed on first use. Prints, per tool, the column types it inferred and the
// rows whose market, metric, period, value or geography code differ from the JSON; exit code 1 when any does.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readArchive } from '../src/archive/archive.ts';
import { buildRouteTable } from '../src/pipeline/build.ts';
import { fixturesOnDisk } from '../src/sources/load.ts';
import { ensureBenchPackages } from './deps.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BASE_URL = 'http://localhost:3000';

interface Expected {
  value: number;
  code?: string;
}

/** A row as a tool read it: the key columns as text, value as the number it made, geography_code as it typed it. */
interface ReadRow {
  market_id: string;
  metric_id: string;
  period?: string;
  value: unknown;
  geography_code?: unknown;
}

interface ToolRead {
  types: Record<string, string>;
  rows: ReadRow[];
}

const table = buildRouteTable({ baseUrl: BASE_URL, read: fixturesOnDisk(join(ROOT, 'fixtures')), archive: readArchive(join(ROOT, 'archive')) });
const json = (path: string): unknown => JSON.parse(table.routes.get(path)?.identity.body.toString('utf8') ?? 'null');

/** What every CSV row must say, by CSV path and row key (market, metric and, in a series CSV, period), from the JSON. */
function expectations(): Map<string, Map<string, Expected>> {
  const byCsv = new Map<string, Map<string, Expected>>();
  const add = (csv: string, key: string, expected: Expected): void => {
    const rows = byCsv.get(csv) ?? new Map<string, Expected>();
    rows.set(key, expected);
    byCsv.set(csv, rows);
  };
  for (const [path, route] of table.routes) {
    if (route.kind !== 'csv') continue;
    // A market CSV's twin is its profile; a series CSV's, its series; a bulk CSV's, every market's.
    const profileOf = (jsonPath: string): void => {
      const doc = json(jsonPath) as { market: { id: string }; profile: { metrics: Record<string, { value: number } | undefined> } };
      for (const [metric, m] of Object.entries(doc.profile.metrics)) if (m !== undefined) add(path, `${doc.market.id}|${metric}`, { value: m.value });
    };
    const seriesOf = (jsonPath: string): void => {
      const doc = json(jsonPath) as {
        market: { id: string };
        metrics: Record<string, { geography: { code: string }; observations: { period: string; value: number; geography?: { code: string } }[] }>;
      };
      for (const [metric, m] of Object.entries(doc.metrics))
        for (const o of m.observations) add(path, `${doc.market.id}|${metric}|${o.period}`, { value: o.value, code: (o.geography ?? m.geography).code });
    };
    const market = /^(\/api(?:\/vintages\/[^/]+)?\/markets)\/([^/]+)\/csv$/.exec(path);
    const series = /^\/api\/markets\/([^/]+)\/series\/csv$/.exec(path);
    if (path === '/api/markets/series/csv') for (const id of table.marketIds) seriesOf(`/api/markets/${id}/series`);
    else if (series !== null) seriesOf(`/api/markets/${series[1] ?? ''}/series`);
    else if (market !== null && market[2] !== 'series') profileOf(`${market[1] ?? ''}/${market[2] ?? ''}`);
    else {
      const bulk = /^(\/api(?:\/vintages\/[^/]+)?\/markets)\/csv$/.exec(path);
      if (bulk === null) throw new Error(`${path}: a CSV this script does not know the JSON twin of`);
      const index = json(bulk[1] ?? '') as { markets: { id: string }[] };
      for (const { id } of index.markets) profileOf(`${bulk[1] ?? ''}/${id}`);
    }
  }
  return byCsv;
}

const PANDAS = `
import json, sys
import pandas as pd
out = {}
for path in sys.argv[1:]:
    df = pd.read_csv(path)
    cols = [c for c in ["market_id", "metric_id", "period", "value", "geography_code"] if c in df.columns]
    out[path] = {"types": {c: str(df[c].dtype) for c in df.columns}, "rows": json.loads(df[cols].to_json(orient="records", double_precision=15))}
print(json.dumps(out))
`;

// R without packages: one line per row, tab-separated, the value printed with 17 significant digits; the classes first.
const R = `
args <- commandArgs(trailingOnly = TRUE)
for (path in args) {
  d <- read.csv(path)
  cat("FILE\\t", path, "\\n", sep = "")
  cat("TYPES\\t", paste(names(d), sapply(d, class), sep = "=", collapse = "\\t"), "\\n", sep = "")
  period <- if ("period" %in% names(d)) d$period else rep("", nrow(d))
  code <- if ("geography_code" %in% names(d)) as.character(d$geography_code) else rep("", nrow(d))
  cat(paste(d$market_id, d$metric_id, period, sprintf("%.17g", d$value), code, sep = "\\t"), sep = "\\n")
  cat("\\n")
}
`;

function pandasRead(files: string[]): Map<string, ToolRead> {
  const python = spawnSync('/usr/bin/python3', ['-c', 'import pandas'], { encoding: 'utf8' }).status === 0 ? '/usr/bin/python3' : 'python3';
  const out = JSON.parse(execFileSync(python, ['-c', PANDAS, ...files], { encoding: 'utf8', maxBuffer: 1 << 28 })) as Record<string, ToolRead>;
  return new Map(Object.entries(out));
}

function rRead(files: string[]): Map<string, ToolRead> {
  const text = execFileSync('Rscript', ['-e', R, ...files], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const reads = new Map<string, ToolRead>();
  let current: ToolRead | undefined;
  for (const line of text.split('\n')) {
    const fields = line.split('\t');
    if (fields[0] === 'FILE') reads.set(fields[1] ?? '', (current = { types: {}, rows: [] }));
    else if (fields[0] === 'TYPES' && current !== undefined) current.types = Object.fromEntries(fields.slice(1).map((f) => f.split('=') as [string, string]));
    else if (line !== '' && current !== undefined) {
      const [market_id = '', metric_id = '', period = '', value = '', code = ''] = fields;
      const integer = current.types['geography_code'] === 'integer' || current.types['geography_code'] === 'numeric';
      current.rows.push({ market_id, metric_id, period, value: Number(value), geography_code: integer ? Number(code) : code });
    }
  }
  return reads;
}

async function duckdbRead(files: string[]): Promise<Map<string, ToolRead>> {
  ensureBenchPackages('bench:csv-readers');
  const { DuckDBInstance } = (await import('@duckdb/node-api')) as typeof import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  const reads = new Map<string, ToolRead>();
  for (const file of files) {
    const result = await connection.runAndReadAll(`SELECT * FROM read_csv_auto('${file.replaceAll("'", "''")}')`);
    const names = result.columnNames();
    const types = Object.fromEntries(names.map((n, i) => [n, String(result.columnTypes()[i])]));
    const rows = result.getRowObjectsJson().map((r) => ({
      market_id: String(r['market_id']),
      metric_id: String(r['metric_id']),
      ...(names.includes('period') ? { period: String(r['period']) } : {}),
      // DOUBLE comes as a number, BIGINT as text: both to the number they hold.
      value: Number(r['value']),
      ...(names.includes('geography_code')
        ? { geography_code: types['geography_code'] === 'VARCHAR' ? r['geography_code'] : Number(r['geography_code']) }
        : {}),
    }));
    reads.set(file, { types, rows });
  }
  connection.closeSync();
  return reads;
}

const dir = mkdtempSync(join(tmpdir(), 'mp-csv-readers-'));
try {
  const expected = expectations();
  const fileOf = new Map<string, string>();
  for (const path of expected.keys()) {
    const file = join(dir, `${path.slice(1).replaceAll('/', '_')}.csv`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, table.routes.get(path)?.identity.body ?? Buffer.alloc(0));
    fileOf.set(file, path);
  }
  const files = [...fileOf.keys()];
  const rows = [...expected.values()].reduce((n, m) => n + m.size, 0);
  process.stdout.write(`bench:csv-readers: ${files.length} CSVs served today (${rows} rows), each read with no options\n`);
  let faults = 0;
  for (const [tool, read] of [
    ['pandas read_csv', () => Promise.resolve(pandasRead(files))],
    ['R read.csv', () => Promise.resolve(rRead(files))],
    ['DuckDB read_csv_auto', () => duckdbRead(files)],
  ] as const) {
    const reads = await read();
    const typesSeen = new Map<string, Set<string>>();
    let checked = 0;
    const wrong: string[] = [];
    for (const [file, path] of fileOf) {
      const got = reads.get(file);
      const want = expected.get(path) ?? new Map<string, Expected>();
      if (got === undefined) {
        wrong.push(`${path}: not read`);
        continue;
      }
      for (const [column, type] of Object.entries(got.types)) typesSeen.set(column, (typesSeen.get(column) ?? new Set()).add(type));
      if (got.rows.length !== want.size) wrong.push(`${path}: ${got.rows.length} rows read, the JSON has ${want.size}`);
      for (const row of got.rows) {
        const key = [row.market_id, row.metric_id, ...(row.period === undefined || row.period === '' ? [] : [row.period])].join('|');
        const w = want.get(key);
        checked++;
        if (w === undefined) wrong.push(`${path}: ${key}: no such value in the JSON`);
        else if (row.value !== w.value) wrong.push(`${path}: ${key}: value ${String(row.value)}, the JSON has ${w.value}`);
        else if (w.code !== undefined && row.geography_code !== w.code)
          wrong.push(`${path}: ${key}: geography_code ${JSON.stringify(row.geography_code)}, the JSON has "${w.code}"`);
      }
    }
    faults += wrong.length;
    const types = ['value', 'geography_code', 'illustrative', 'live_data', 'updated_date', 'period_start'].map(
      (c) => `${c} ${[...(typesSeen.get(c) ?? [])].join('/')}`,
    );
    process.stdout.write(`${tool}: ${checked} rows, ${wrong.length} differ from the JSON; types: ${types.join(', ')}\n`);
    for (const w of wrong.slice(0, 5)) process.stdout.write(`  ${w}\n`);
  }
  process.exitCode = faults === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
