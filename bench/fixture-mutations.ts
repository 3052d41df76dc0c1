// The fixture mutation campaign: seeded mutations of copies of fixtures/, each built against an empty archive, each outcome classified (docs/testing.md).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readArchive } from '../src/archive/archive.ts';
import { buildSnapshot } from '../src/pipeline/build.ts';
import { DataError } from '../src/contract/errors.ts';
import { MARKETS } from '../src/contract/markets.ts';
import { PATHS } from '../src/contract/paths.ts';
import { periodRange } from '../src/contract/periods.ts';
import { assembleSnapshot } from '../src/methodology/snapshot.ts';
import { seriesCodesOf } from '../src/sources/fhfa-hpi/adapter.ts';
import { codeOf } from '../src/sources/fhfa-hpi/format.ts';
import { fixturesOnDisk, loadSources } from '../src/sources/load.ts';
import { SOURCES } from '../src/sources/registry.ts';
import { prng } from '../test/support/fuzz.ts';

const { values: args } = parseArgs({
  options: { seed: { type: 'string', default: '48' }, count: { type: 'string', default: '1000' }, examples: { type: 'string', default: '5' } },
});
const SEED = Number(args.seed);
const COUNT = Number(args.count);
const EXAMPLES = Number(args.examples);
const BASE_URL = 'http://localhost:3000';
const ROOT = new URL('../fixtures/', import.meta.url).pathname;

// The fuzz's seeded generator (mulberry32), so a seed replays the same campaign.
const random = prng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const between = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));

// The files: every data file of every source, and each retrieval.json.
const DATA_FILES = SOURCES.flatMap((s) => s.remote.map((r) => r.file));
const RETRIEVAL_FILES = SOURCES.map((s) => `${s.sourceId}/retrieval.json`);
const ORIGINAL = new Map([...DATA_FILES, ...RETRIEVAL_FILES].map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
const FHFA = DATA_FILES.find((f) => f.startsWith('fhfa-hpi/')) ?? '';
const ACS = DATA_FILES.filter((f) => f.startsWith('census-acs-5yr/'));
const BPS = DATA_FILES.filter((f) => f.startsWith('census-bps/'));

/** The lines a market's values are read from (its FHFA series, its ACS row, its BPS rows): half the mutations aim at them. */
const FHFA_CODES = new Set(MARKETS.flatMap((m) => seriesCodesOf(m)));
function isMarketLine(file: string, line: string): boolean {
  if (file === FHFA) return FHFA_CODES.has(codeOf(line)?.trim() ?? '');
  if (file.endsWith('-state.json')) return true;
  if (ACS.includes(file)) return MARKETS.some((m) => line.includes(`"${m.placeGeoid.state}","${m.placeGeoid.place}"]`));
  if (BPS.includes(file)) {
    const f = line.split(',');
    return MARKETS.some((m) => f[1]?.trim() === m.placeGeoid.state && f[5]?.trim() === m.placeGeoid.place);
  }
  return true;
}

interface Mutation {
  kind: string;
  file: string;
  line: number;
  text: string;
}

const linesOf = (text: string): string[] => text.replace(/\n$/, '').split('\n');
const joinLines = (lines: readonly string[]): string => `${lines.join('\n')}\n`;
/** A line to mutate: a market's line half the time (where the file has one), any line else; never past the end. */
function targetLine(file: string, lines: readonly string[]): number {
  const market = lines.flatMap((l, i) => (isMarketLine(file, l) ? [i] : []));
  return random() < 0.5 && market.length > 0 ? pick(market) : between(0, lines.length - 1);
}
/** Replaces the field at a comma-separated position, or undefined where the line has no such field. */
function replaceField(line: string, index: number, value: string): string | undefined {
  const fields = line.split(',');
  if (index >= fields.length) return undefined;
  fields[index] = value;
  return fields.join(',');
}

const ABSURD_YEARS = ['2205', '1e30', '1000000000000000000000000000000', '99999', '-2019', '0999'];
const BAD_NUMBERS = ['NaN', 'Infinity', '-Infinity', '1e308', '99999999999999999999', '1.5e3'];
const INVISIBLE = { 'U+FEFF': '\uFEFF', 'U+200B': '\u200B', 'U+00A0': '\u00A0', 'U+0007': '\u0007' } as const;

/** Each kind: the files it applies to and how it alters one line (or the file); undefined where it cannot apply. */
const KINDS: Record<string, { files: readonly string[]; mutate: (file: string, text: string) => { line: number; text: string } | undefined }> = {
  'delete a line': {
    files: DATA_FILES,
    mutate: (file, text) => {
      const lines = linesOf(text);
      const i = targetLine(file, lines);
      return { line: i + 1, text: joinLines(lines.filter((_, k) => k !== i)) };
    },
  },
  'cut the last lines': {
    files: DATA_FILES,
    mutate: (_file, text) => {
      const lines = linesOf(text);
      const n = between(1, Math.min(60, lines.length - 1));
      return { line: lines.length - n + 1, text: joinLines(lines.slice(0, lines.length - n)) };
    },
  },
  'duplicate a line': {
    files: DATA_FILES,
    mutate: (file, text) => {
      const lines = linesOf(text);
      const i = targetLine(file, lines);
      return { line: i + 1, text: joinLines([...lines.slice(0, i + 1), lines[i] ?? '', ...lines.slice(i + 1)]) };
    },
  },
  'swap two lines': {
    files: DATA_FILES,
    mutate: (file, text) => {
      const lines = linesOf(text);
      const i = targetLine(file, lines);
      const j = between(0, lines.length - 1);
      const swapped = [...lines];
      [swapped[i], swapped[j]] = [lines[j] ?? '', lines[i] ?? ''];
      return { line: i + 1, text: joinLines(swapped) };
    },
  },
  ...Object.fromEntries(
    Object.entries(INVISIBLE).map(([name, char]) => [
      `insert ${name} in a line`,
      {
        files: [...DATA_FILES, ...RETRIEVAL_FILES],
        mutate: (file: string, text: string) => {
          const lines = linesOf(text);
          const i = targetLine(file, lines);
          const line = lines[i] ?? '';
          const at = between(0, line.length);
          lines[i] = `${line.slice(0, at)}${char}${line.slice(at)}`;
          return { line: i + 1, text: joinLines(lines) };
        },
      },
    ]),
  ),
  'an absurd year': {
    files: [FHFA, ...BPS, ...RETRIEVAL_FILES],
    mutate: (file, text) => {
      const lines = linesOf(text);
      const i = targetLine(file, lines);
      const year = pick(ABSURD_YEARS);
      const line = lines[i] ?? '';
      let changed: string | undefined;
      if (file === FHFA) changed = line.replace(/",(\d{5}),(\d+),/, `",$1,${year},`);
      else if (file.endsWith('retrieval.json'))
        changed = line.replace(new RegExp(`"${pick(['vintage', 'latestReleaseDate', 'latestRetrievedAt'])}": "(\\d{4})`), (m, y: string) => m.replace(y, year));
      else changed = /^\d{4}/.test(line) ? line.replace(/^\d{4}/, year) : undefined;
      if (changed === undefined || changed === line) return undefined;
      lines[i] = changed;
      return { line: i + 1, text: joinLines(lines) };
    },
  },
  'a number made absurd': {
    files: [FHFA, ...ACS, ...BPS],
    mutate: (file, text) => {
      const lines = linesOf(text);
      const i = targetLine(file, lines);
      const line = lines[i] ?? '';
      const bad = random() < 0.3 ? `-${between(1, 5000)}` : pick(BAD_NUMBERS);
      let changed: string | undefined;
      if (file === FHFA) changed = line.startsWith('"') ? replaceField(line, 5, bad) : undefined;
      else if (BPS.includes(file)) changed = /^\d{4}/.test(line) ? replaceField(line, pick([18, 21, 24, 27, 19]), bad) : undefined;
      else {
        const cells = [...line.matchAll(/"(\d+(?:\.\d+)?)"/g)];
        const cell = cells.length > 0 ? pick(cells) : undefined;
        changed = cell === undefined ? undefined : `${line.slice(0, cell.index)}"${bad}"${line.slice((cell.index ?? 0) + cell[0].length)}`;
      }
      if (changed === undefined || changed === line) return undefined;
      lines[i] = changed;
      return { line: i + 1, text: joinLines(lines) };
    },
  },
  'a digit changed': {
    files: [FHFA, ...ACS, ...BPS],
    mutate: (file, text) => {
      const lines = linesOf(text);
      const i = targetLine(file, lines);
      const line = lines[i] ?? '';
      const digits = [...line.matchAll(/\d/g)];
      const d = digits.length > 0 ? pick(digits) : undefined;
      if (d === undefined) return undefined;
      const next = String((Number(d[0]) + between(1, 9)) % 10);
      lines[i] = `${line.slice(0, d.index)}${next}${line.slice((d.index ?? 0) + 1)}`;
      return { line: i + 1, text: joinLines(lines) };
    },
  },
  'delete a field': {
    files: DATA_FILES,
    mutate: (file, text) => {
      const lines = linesOf(text);
      const i = targetLine(file, lines);
      const fields = (lines[i] ?? '').split(',');
      if (fields.length < 2) return undefined;
      const k = between(0, fields.length - 1);
      lines[i] = fields.filter((_, n) => n !== k).join(',');
      return { line: i + 1, text: joinLines(lines) };
    },
  },
  'change a separator': {
    files: DATA_FILES,
    mutate: (file, text) => {
      const lines = linesOf(text);
      const i = targetLine(file, lines);
      const line = lines[i] ?? '';
      const commas = [...line.matchAll(/,/g)];
      const c = commas.length > 0 ? pick(commas) : undefined;
      if (c === undefined) return undefined;
      lines[i] = `${line.slice(0, c.index)}${pick([';', '\t', '|'])}${line.slice((c.index ?? 0) + 1)}`;
      return { line: i + 1, text: joinLines(lines) };
    },
  },
  'remove a row of the ACS answer': {
    files: ACS,
    mutate: (file, text) => {
      const lines = linesOf(text);
      const rows = lines.flatMap((l, k) => (k > 0 && k < lines.length - 1 && (random() < 0.5 || isMarketLine(file, l)) ? [k] : []));
      const i = rows.length > 0 ? pick(rows) : between(1, Math.max(1, lines.length - 2));
      return { line: i + 1, text: joinLines(lines.filter((_, k) => k !== i)) };
    },
  },
  'a retrieval date zip cannot hold': {
    files: RETRIEVAL_FILES,
    mutate: (_file, text) => {
      const key = pick(['latestRetrievedAt', 'latestReleaseDate']);
      const date = pick(['1979-12-31', '1970-01-01', '1900-06-15', '2108-01-01', '2200-06-15', '9999-12-31']);
      const changed = text.replace(new RegExp(`"${key}": "[^"]*"`), `"${key}": "${date}"`);
      return changed === text ? undefined : { line: 1, text: changed };
    },
  },
};

/** One mutation of each kind in turn, each kind's file and line drawn from the seed; a draw that cannot apply is drawn again. */
function mutations(count: number): Mutation[] {
  const kinds = Object.keys(KINDS);
  const out: Mutation[] = [];
  for (let n = 0; out.length < count && n < count * 20; n += 1) {
    const kind = kinds[out.length % kinds.length] ?? '';
    const spec = KINDS[kind];
    if (spec === undefined) continue;
    const file = pick(spec.files);
    const got = spec.mutate(file, ORIGINAL.get(file) ?? '');
    if (got !== undefined && got.text !== ORIGINAL.get(file)) out.push({ kind, file, line: got.line, text: got.text });
  }
  return out;
}

// What a build serves that the campaign compares: the index, and each market's profile and series.
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const DOCUMENTS = [PATHS.index, ...MARKETS.flatMap((m) => [PATHS.profile(m.id), PATHS.series(m.id)])];

/** Arrays of records keyed by what names them (a period, an id), so a dropped element shows as dropped, not as every later one changed. */
function keyed(value: Json): Json {
  if (Array.isArray(value)) {
    const keyOf = (v: Json): string | undefined => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
      for (const k of ['period', 'id', 'sourceId', 'metricId', 'level']) if (typeof v[k] === 'string') return `${k}=${v[k]}`;
      const market = v['market'];
      if (market !== null && typeof market === 'object' && !Array.isArray(market) && typeof market['id'] === 'string') return `market=${market['id']}`;
      return undefined;
    };
    const keys = value.map(keyOf);
    if (keys.every((k) => k !== undefined) && new Set(keys).size === keys.length) return Object.fromEntries(value.map((v, i) => [keys[i] ?? '', keyed(v)]));
    return value.map(keyed);
  }
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, keyed(v)]));
  return value;
}

interface Difference {
  path: string;
  what: 'dropped' | 'added' | 'changed';
  before?: Json;
  after?: Json;
}
function differences(before: Json, after: Json, path: string, out: Difference[]): void {
  if (before !== null && after !== null && typeof before === 'object' && typeof after === 'object' && Array.isArray(before) === Array.isArray(after)) {
    const b = before as Record<string, Json>;
    const a = after as Record<string, Json>;
    for (const k of Object.keys(b)) {
      if (!(k in a)) out.push({ path: `${path}/${k}`, what: 'dropped', before: b[k] ?? null });
      else differences(b[k] ?? null, a[k] ?? null, `${path}/${k}`, out);
    }
    for (const k of Object.keys(a)) if (!(k in b)) out.push({ path: `${path}/${k}`, what: 'added', after: a[k] ?? null });
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) out.push({ path, what: 'changed', before, after });
}

const periodEnd = (label: Json | undefined): string | undefined => {
  if (typeof label !== 'string') return undefined;
  try {
    return periodRange(label).end;
  } catch {
    return undefined;
  }
};
/** Counts of a list (the markets with a missing metric) only grow when something is dropped. */
const DROP_SIGNS = /\/coverage\/(missing|totalProvided|percent)$/;

type Outcome =
  | 'refused: file and line'
  | 'refused: market and rule'
  | 'refused: no place'
  | 'crashed'
  | 'built: identical'
  | 'built: dropped or replaced'
  | 'built: number changed in place'
  | 'built: other difference';
const OUTCOMES: readonly Outcome[] = [
  'refused: file and line',
  'refused: market and rule',
  'refused: no place',
  'crashed',
  'built: identical',
  'built: dropped or replaced',
  'built: number changed in place',
  'built: other difference',
];
/** The outcomes that must not happen. */
const BAD: readonly Outcome[] = ['refused: no place', 'crashed', 'built: dropped or replaced'];

function classifyBuilt(before: ReadonlyMap<string, Json>, after: ReadonlyMap<string, Json>): { outcome: Outcome; detail: string } {
  const diffs: Difference[] = [];
  for (const [path, doc] of before) differences(doc, after.get(path) ?? null, path, diffs);
  if (diffs.length === 0) return { outcome: 'built: identical', detail: '' };
  const show = (d: Difference): string => `${d.path} ${d.what} ${JSON.stringify(d.before ?? null)} → ${JSON.stringify(d.after ?? null)}`.slice(0, 200);
  const dropped = diffs.find((d) => d.what === 'dropped' || DROP_SIGNS.test(d.path));
  if (dropped !== undefined) return { outcome: 'built: dropped or replaced', detail: show(dropped) };
  const earlier = diffs.find((d) => {
    if (!/\/(asOf|period|periodEnd)$/.test(d.path)) return false;
    const b = periodEnd(d.before) ?? (typeof d.before === 'string' ? d.before : undefined);
    const a = periodEnd(d.after) ?? (typeof d.after === 'string' ? d.after : undefined);
    return a !== undefined && b !== undefined && a < b;
  });
  if (earlier !== undefined) return { outcome: 'built: dropped or replaced', detail: show(earlier) };
  const numbers = diffs.filter((d) => d.what === 'changed' && typeof d.before === 'number' && typeof d.after === 'number');
  const rest = diffs.filter((d) => !numbers.includes(d) && !/\/(score|scores|band|percentile|rank|label)\b/.test(d.path));
  if (
    numbers.length > 0 &&
    rest.every((d) => d.what === 'changed' && typeof d.before === 'string' && typeof d.after === 'string' && !/asOf|period|name/.test(d.path))
  ) {
    return { outcome: 'built: number changed in place', detail: show(numbers[0] as Difference) };
  }
  return { outcome: 'built: other difference', detail: show(rest[0] ?? (diffs[0] as Difference)) };
}

// The campaign: a copy of the fixtures (one file swapped in per mutation, then put back), an empty archive.
const work = mkdtempSync(join(tmpdir(), 'mp-mutations-'));
const fixtures = join(work, 'fixtures');
const archiveDir = join(work, 'archive');
cpSync(ROOT, fixtures, { recursive: true });
mkdirSync(archiveDir);
const read = fixturesOnDisk(fixtures);

/** The snapshot's data as built, without the files' hashes (which any change alters): equal data serve equal documents. */
const fingerprint = (): string => {
  const snapshot = assembleSnapshot(MARKETS, loadSources(read, MARKETS), BASE_URL, readArchive(archiveDir));
  return JSON.stringify({ ...snapshot, sources: snapshot.sources.map((s) => ({ ...s, files: [] })) }, (_k, v: unknown) => (v instanceof Map ? [...v] : v));
};
function served(): Map<string, Json> {
  const { table } = buildSnapshot({ baseUrl: BASE_URL, read, archive: readArchive(archiveDir) });
  return new Map(DOCUMENTS.map((path) => [path, keyed(JSON.parse(table.routes.get(path)?.identity.body.toString('utf8') ?? 'null') as Json)]));
}

const baselinePrint = fingerprint();
const baseline = served();
const plan = mutations(COUNT);
const counts = new Map<string, Map<Outcome, number>>();
const examples = new Map<Outcome, string[]>();
const started = process.hrtime.bigint();
try {
  for (const m of plan) {
    writeFileSync(join(fixtures, m.file), m.text);
    let result: { outcome: Outcome; detail: string };
    try {
      result = fingerprint() === baselinePrint ? { outcome: 'built: identical', detail: '' } : classifyBuilt(baseline, served());
    } catch (error) {
      if (error instanceof DataError) {
        const { file, line, marketId } = error.place;
        const outcome: Outcome =
          file !== undefined && line !== undefined ? 'refused: file and line' : marketId !== undefined ? 'refused: market and rule' : 'refused: no place';
        result = { outcome, detail: error.message };
      } else {
        result = { outcome: 'crashed', detail: `${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}` };
      }
    } finally {
      writeFileSync(join(fixtures, m.file), ORIGINAL.get(m.file) ?? '');
    }
    const perKind = counts.get(m.kind) ?? new Map<Outcome, number>();
    perKind.set(result.outcome, (perKind.get(result.outcome) ?? 0) + 1);
    counts.set(m.kind, perKind);
    const list = examples.get(result.outcome) ?? [];
    if (list.length < EXAMPLES) list.push(`${m.kind}, ${m.file}:${m.line}: ${result.detail.slice(0, 300)}`);
    examples.set(result.outcome, list);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const short = ['refused f+l', 'refused m+r', 'no place', 'crashed', 'identical', 'DROPPED', 'number', 'other'];
const header = ['kind', 'n', ...short];
const rows = [...counts].map(([kind, perKind]) => [
  kind,
  String([...perKind.values()].reduce((a, b) => a + b, 0)),
  ...OUTCOMES.map((o) => String(perKind.get(o) ?? 0)),
]);
const total = OUTCOMES.map((o) => [...counts.values()].reduce((n, perKind) => n + (perKind.get(o) ?? 0), 0));
rows.push(['total', String(plan.length), ...total.map(String)]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
console.log(`fixture mutations: seed ${SEED}, ${plan.length} mutations of ${ROOT}, each built against an empty archive`);
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
for (const o of OUTCOMES) {
  const list = examples.get(o) ?? [];
  if (list.length === 0 || o === 'built: identical') continue;
  console.log(`\n${o} (${total[OUTCOMES.indexOf(o)]}), for example:`);
  for (const e of list) console.log(`  ${e}`);
}
const bad = BAD.map((o) => total[OUTCOMES.indexOf(o)] ?? 0);
console.log(
  `\nsilent drops or replacements: ${bad[2]}; crashes: ${bad[1]}; refusals without file and line (or market and rule): ${bad[0]}; ${seconds.toFixed(0)} s; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
);
process.exitCode = bad.some((n) => n > 0) ? 1 : 0;
