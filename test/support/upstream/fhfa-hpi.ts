// FHFA HPI files in the published layout (hpi_at_metro.csv: no header, quoted names, "-" gaps, "( 1.50)" standard errors)
// for synthetic markets (scale benchmark, tests of page size and of large inputs), and national-size files around the markets.
import { MARKETS, type MarketDefinition } from '../../../src/contract/markets.ts';
import type { SyntheticFiles, SyntheticMarket } from './index.ts';
import { seriesCodesOf } from '../../../src/sources/fhfa-hpi/adapter.ts';
import {
  DIR,
  FILE,
  MASTER,
  MASTER_HEADER,
  MASTER_KIND,
  MASTER_LEVELS,
  MSAD_MARKER,
  NATION_ID,
  NO_VALUE,
  codeOf,
  collationKey,
  quarterKey,
  quarterOfKey,
  standardError,
} from '../../../src/sources/fhfa-hpi/format.ts';

/** A national file's size: every metro and division of the country, 1975 onwards, about 80,000 lines. */
const NATIONAL_LINES = 80_000;

const lineCount = (text: string | undefined): number => (text ?? '').split('\n').filter((l) => l.trim() !== '').length;

/** One series' rows, from `first` quarter to `last` (keys year*4+quarter-1), "-" before `start`. */
function seriesRows(name: string, code: string, first: number, last: number, start: number, base: number, seed: number): string[] {
  const rows: string[] = [];
  for (let key = first; key <= last; key += 1) {
    const { year, quarter } = quarterOfKey(key);
    if (key < start) {
      rows.push(`"${name}",${code},${year},${quarter},${NO_VALUE},${NO_VALUE}`);
      continue;
    }
    const t = key - start;
    const index = base * Math.pow(1.011, t) * (1 + 0.01 * Math.sin((t + seed) / 3));
    rows.push(`"${name}",${code},${year},${quarter},${index.toFixed(2)},${standardError(0.4 + ((seed + t) % 37) / 20)}`);
  }
  return rows;
}

/** The FHFA files for these markets, keyed by fixture path. */
function files(markets: readonly SyntheticMarket[]): Map<string, string> {
  const blocks: { key: string; rows: string[] }[] = [];
  // From 2000 Q1, where the committed fixture's series run at least, so each market page's price chart and table are
  // drawn at their real length in the scale benchmark.
  const first = quarterKey(2000, 1);
  const last = quarterKey(2026, 2);
  for (const { i, market } of markets) {
    const division = market.divisions[0];
    const name = division === undefined ? (market.cbsaName ?? '') : `${division.name}${MSAD_MARKER}`;
    const code = division === undefined ? market.cbsaCode : division.code;
    // Every tenth series begins with quarters of too few transactions.
    const start = i % 10 === 9 ? first + 2 : first;
    blocks.push({ key: collationKey(name), rows: seriesRows(name, code, first, last, start, 280 + (i % 220), i) });
  }
  blocks.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return new Map([
    [FILE, `${blocks.flatMap((b) => b.rows).join('\n')}\n`],
    [
      MASTER,
      masterFile(
        markets.map((m) => [m.market.stateCode, m.market.state] as const),
        first,
        last,
      ),
    ],
    [`${DIR}/retrieval.json`, '{"vintage":"2026 Q2","latestReleaseDate":"2026-08-25","latestRetrievedAt":"2026-09-28"}'],
  ]);
}

/**
 * The master file for these markets' states and the nation, through the last quarter the metro file names (a release's);
 * a header alone where that is no quarter FHFA can have published (a metro file of absurd years, a test of refusals).
 */
export function masterFor(markets: readonly MarketDefinition[], metro: string): string {
  // The latest year and quarter after any row's code, rows that do not parse (a test's refusals) passed over.
  let last = Number.NaN;
  for (const m of metro.matchAll(/,\s*\d{5}\s*,\s*(\d{4})\s*,\s*([1-4])\s*,/g))
    last = Math.max(Number.isNaN(last) ? 0 : last, quarterKey(Number(m[1]), Number(m[2])));
  if (!(last >= quarterKey(1975, 1) && last <= quarterKey(2107, 4))) return `${MASTER_HEADER.join(',')}\n`;
  return masterFile(
    markets.map((m) => [m.stateCode, m.state] as const),
    quarterKey(1975, 1),
    last,
  );
}

/**
 * The master file's all-transactions lines of these states and the nation, in its layout (a header, then each series
 * quarter by quarter, 1980 Q1 = 100), from 1975 Q1, as FHFA writes every state's, to the last quarter.
 */
export function masterFile(states: readonly (readonly [string, string])[], first: number, last: number): string {
  const lines = [MASTER_HEADER.join(',')];
  const places = [...new Map(states).entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const series = [
    ...places.map(([id, name], k) => ({ level: MASTER_LEVELS.state, id, name, seed: k })),
    { level: MASTER_LEVELS.nation, id: NATION_ID, name: 'United States', seed: 99 },
  ];
  const base = quarterKey(1980, 1);
  for (const { level, id, name, seed } of series) {
    for (let key = Math.min(first, quarterKey(1975, 1)); key <= last; key += 1) {
      const { year, quarter } = quarterOfKey(key);
      const index = key === base ? 100 : 100 * Math.pow(1.012, key - base) * (1 + 0.01 * Math.sin((key + seed) / 5));
      lines.push(`${MASTER_KIND},${level},${name},${id},${year},${quarter},${index.toFixed(2)},,,`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const TOWNS = [
  'Ashford',
  'Bellmont',
  'Cedar Point',
  'Dunmore',
  'Elkton',
  'Fairview',
  'Glenwood',
  'Harper',
  'Ironwood',
  'Jasper',
  'Kingsley',
  'Lakeview',
  'Marion',
  'Newport',
  'Oakdale',
  'Pineville',
  'Quincy',
  'Riverton',
  'Springdale',
  'Troy',
  'Union City',
  'Vernon',
  'Westfield',
  'Yorktown',
];
const RESERVED = new Set(MARKETS.flatMap((m) => seriesCodesOf(m)));
const STATES = [
  'AL',
  'AZ',
  'CA',
  'CO',
  'FL',
  'GA',
  'IA',
  'IL',
  'IN',
  'KS',
  'KY',
  'MI',
  'MN',
  'MO',
  'NC',
  'NY',
  'OH',
  'OR',
  'PA',
  'SC',
  'TN',
  'TX',
  'VA',
  'WA',
  'WI',
];

/** The rows of a file split into series blocks (consecutive rows of one code), with the quarter range the file covers. */
function blocksOf(text: string): { blocks: { key: string; rows: string[] }[]; codes: Set<string>; first: number; last: number } {
  const blocks: { key: string; rows: string[] }[] = [];
  const codes = new Set<string>();
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let current: { code: string; key: string; rows: string[] } | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === '') continue;
    const close = raw.indexOf('",');
    const [code = '', year = '', quarter = ''] = raw.slice(close + 2).split(',', 3);
    if (!/^\d+$/.test(code)) continue; // a tolerated header line
    codes.add(code);
    const key = quarterKey(Number(year), Number(quarter));
    first = Math.min(first, key);
    last = Math.max(last, key);
    if (current?.code !== code) {
      current = { code, key: collationKey(raw.slice(1, close)), rows: [] };
      blocks.push(current);
    }
    current.rows.push(raw);
  }
  return { blocks, codes, first, last };
}

/**
 * The FHFA file with n more rows of series that are not markets (metros, and every seventh a metropolitan division),
 * each a whole series over the file's quarters with "-" in its early quarters, merged in FHFA's name order.
 * Deterministic: the same files and n give the same bytes.
 */
export function withOtherFhfaSeries(files: ReadonlyMap<string, string>, n: number): Map<string, string> {
  const text = files.get(FILE);
  if (text === undefined) throw new Error(`no ${FILE} to add series to`);
  const { blocks, codes, first: fileFirst, last } = blocksOf(text);
  // National files run from 1975 Q1; a trimmed fixture may start later. New series span the file's own range.
  const first = Number.isFinite(fileFirst) ? fileFirst : quarterKey(1975, 1);
  const end = Number.isFinite(last) ? last : quarterKey(2025, 4);
  const perSeries = end - first + 1;
  let added = 0;
  for (let k = 0; added < n; k += 1) {
    const town = TOWNS[k % TOWNS.length] ?? 'Ashford';
    const other = TOWNS[(k * 7 + 3) % TOWNS.length] ?? 'Bellmont';
    const state = STATES[Math.floor(k / TOWNS.length) % STATES.length] ?? 'OH';
    const round = Math.floor(k / (TOWNS.length * STATES.length));
    const place = `${town}-${other}${round === 0 ? '' : ` ${round + 1}`}, ${state}`;
    const name = k % 7 === 6 ? `${place}${MSAD_MARKER}` : place;
    let code: string;
    let probe = k;
    do {
      // Five-digit codes in OMB's range (divisions end in 4) that neither the file nor a market's rule uses, nor the
      // synthetic markets' 20000s, so no added series can stand in for a market's own.
      code = String(30000 + ((probe * 7919) % 19990)).slice(0, 4) + (k % 7 === 6 ? '4' : '0');
      probe += 1;
    } while (codes.has(code) || RESERVED.has(code));
    codes.add(code);
    const take = Math.min(perSeries, n - added);
    const start = first + ((k * 13) % 48);
    const rows = seriesRows(name, code, end - take + 1, end, Math.max(start, end - take + 1), 60 + ((k * 37) % 90), k);
    blocks.push({ key: collationKey(name), rows });
    added += rows.length;
  }
  blocks.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const out = new Map(files);
  out.set(FILE, `${blocks.flatMap((b) => b.rows).join('\n')}\n`);
  return out;
}

/** The file with only the rows of these markets' series (every code the series choice may take). */
function onlyMarkets(files: ReadonlyMap<string, string>, markets: readonly MarketDefinition[]): Map<string, string> {
  const codes = new Set(markets.flatMap((m) => seriesCodesOf(m)));
  const out = new Map(files);
  const text = files.get(FILE);
  if (text !== undefined)
    out.set(
      FILE,
      `${text
        .split('\n')
        .filter((line) => codes.has(codeOf(line) ?? ''))
        .join('\n')}\n`,
    );
  return out;
}

export const fhfaFiles: SyntheticFiles = {
  files,
  withOthers: withOtherFhfaSeries,
  nationalRows: (files) => Math.max(0, NATIONAL_LINES - lineCount(files.get(FILE))),
  onlyMarkets,
};
