// FHFA HPI files in the published layout (hpi_at_metro.csv: no header, quoted names, "-" gaps, "( 1.50)" standard errors)
// for synthetic markets (scale benchmark, tests of page size and of large inputs).
import { fhfaSeriesCodes, MARKETS, type MarketDefinition } from '../../src/contract/markets.ts';
import type { SyntheticMarket } from './types.ts';

const FILE = 'fhfa-hpi/hpi_at_metro.csv';

/** The division code of synthetic market i when its metro is divided (every fourth market), outside the CBSA codes 20000+. */
const divisionCode = (i: number): string => String(70000 + i);

/**
 * The registry fields of the FHFA series of synthetic market i (whose metro code is `cbsa`): every fourth market's metro
 * is divided, so FHFA publishes only its metropolitan division, as for New York or Chicago.
 */
export function fhfaRegistryFields(
  i: number,
  cbsa: string,
  cbsaName: string,
  stateCode: string,
): Pick<MarketDefinition, 'cbsaCode' | 'cbsaName' | 'cbsaStates' | 'fhfaDivisions'> {
  const fhfaDivisions = i % 4 === 3 ? [{ code: divisionCode(i), name: `${cbsaName.replace(/ Metro,/, ' City,')}`, delineations: ['2023' as const] }] : [];
  return { cbsaCode: cbsa, cbsaName, cbsaStates: [stateCode], fhfaDivisions };
}

const se = (value: number): string => `(${value.toFixed(2).padStart(5, ' ')})`;

/** FHFA orders its rows by name, ignoring case, spaces and punctuation ("Sandusky, OH" before "San Francisco-…"). */
const collationKey = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** One series' rows, from `first` quarter to `last` (keys year*4+quarter-1), "-" before `start`. */
function seriesRows(name: string, code: string, first: number, last: number, start: number, base: number, seed: number): string[] {
  const rows: string[] = [];
  for (let key = first; key <= last; key += 1) {
    const year = Math.floor(key / 4);
    const quarter = (key % 4) + 1;
    if (key < start) {
      rows.push(`"${name}",${code},${year},${quarter},-,-`);
      continue;
    }
    const t = key - start;
    const index = base * Math.pow(1.011, t) * (1 + 0.01 * Math.sin((t + seed) / 3));
    rows.push(`"${name}",${code},${year},${quarter},${index.toFixed(2)},${se(0.4 + ((seed + t) % 37) / 20)}`);
  }
  return rows;
}

/** The FHFA files for these markets, keyed by fixture path. */
export function fhfaFiles(markets: readonly SyntheticMarket[]): Map<string, string> {
  const blocks: { key: string; rows: string[] }[] = [];
  // From 2000 Q1, where the committed fixture's series run at least, so each market page's price chart and table are
  // drawn at their real length in the scale benchmark.
  const first = 2000 * 4;
  const last = 2026 * 4 + 1;
  for (const { i, market } of markets) {
    const division = market.fhfaDivisions[0];
    const name = division === undefined ? (market.cbsaName ?? '') : `${division.name} (MSAD)`;
    const code = division === undefined ? market.cbsaCode : division.code;
    // Every tenth series begins with quarters of too few transactions.
    const start = i % 10 === 9 ? first + 2 : first;
    blocks.push({ key: collationKey(name), rows: seriesRows(name, code, first, last, start, 280 + (i % 220), i) });
  }
  blocks.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return new Map([
    [FILE, `${blocks.flatMap((b) => b.rows).join('\n')}\n`],
    ['fhfa-hpi/retrieval.json', '{"vintage":"2026 Q2","latestReleaseDate":"2026-08-25","latestRetrievedAt":"2026-09-28"}'],
  ]);
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
const RESERVED = new Set(MARKETS.flatMap((m) => fhfaSeriesCodes(m)));
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
    const key = Number(year) * 4 + Number(quarter) - 1;
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
  const first = Number.isFinite(fileFirst) ? fileFirst : 1975 * 4;
  const end = Number.isFinite(last) ? last : 2025 * 4 + 3;
  const perSeries = end - first + 1;
  let added = 0;
  for (let k = 0; added < n; k += 1) {
    const town = TOWNS[k % TOWNS.length] ?? 'Ashford';
    const other = TOWNS[(k * 7 + 3) % TOWNS.length] ?? 'Bellmont';
    const state = STATES[Math.floor(k / TOWNS.length) % STATES.length] ?? 'OH';
    const round = Math.floor(k / (TOWNS.length * STATES.length));
    const place = `${town}-${other}${round === 0 ? '' : ` ${round + 1}`}, ${state}`;
    const name = k % 7 === 6 ? `${place} (MSAD)` : place;
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
