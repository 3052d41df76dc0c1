// Adapter for the FHFA House Price Index: reads hpi_at_metro.csv, the all-transactions index of every metro and metropolitan division.
//
// The published layout (no header line; a header line is tolerated): "name",code,year,quarter,index,(standard error).
// A name is quoted and ends with the states ("Austin-Round Rock-San Marcos, TX"); a metropolitan division's name carries
// " (MSAD)" after the states. "-" stands for a quarter with too few transactions for an index, in both value columns.
// The standard error is written in parentheses, padded to five characters: "( 2.51)", "(10.55)".
import { FixtureError, type Place } from '../contract/errors.ts';
import { fhfaSeriesCodes, type MarketDefinition } from '../contract/markets.ts';
import { eachLine, numeric, readRetrieval, roundTo, splitCsvLine, text, withRetrieval } from './parse.ts';
import type { Boundary, MetricSeries, MissingValue, Observation, ReadFixture, SourceAdapter, SourceLoad } from './types.ts';

const DIR = 'fhfa-hpi';
const FILE = `${DIR}/hpi_at_metro.csv`;
const URL_METRO = 'https://www.fhfa.gov/hpi/download/quarterly_datasets/hpi_at_metro.csv';

const MSAD = /\s*\(MSAD\)\s*$/;
const STATE = /^[A-Z]{2}$/;
const CODE = /^\d{5}$/;
const STANDARD_ERROR = /^\(\s*\d+(\.\d+)?\)$/;

interface Quarter {
  year: number;
  quarter: number;
  /** Undefined where FHFA writes "-". */
  index: number | undefined;
  line: number;
}

interface Series {
  code: string;
  name: string;
  quarters: Map<number, Quarter>;
  lastLine: number;
}

const quarterLabel = (q: { year: number; quarter: number }): string => `${q.year} Q${q.quarter}`;
const quarterKey = (year: number, quarter: number): number => year * 4 + quarter - 1;

/** One line of the file, split only as far as the code: enough to know whether the row belongs to a market. */
export function codeOf(raw: string): string | undefined {
  // Names are quoted (they hold a comma); the code follows the closing quote.
  if (raw.charCodeAt(0) === 34) {
    const close = raw.indexOf('",', 1);
    if (close === -1) return undefined;
    const end = raw.indexOf(',', close + 2);
    return end === -1 ? undefined : raw.slice(close + 2, end);
  }
  // Without a first comma there is no second one either.
  const first = raw.indexOf(',');
  const end = raw.indexOf(',', first + 1);
  return end === -1 ? undefined : raw.slice(first + 1, end);
}

/** The name without the division marker, whether it is a division, and the states read from after the last ", ". */
export function parseSeriesName(name: string, place: Place): { name: string; division: boolean; states: string[] } {
  const division = MSAD.test(name);
  const bare = division ? name.replace(MSAD, '') : name.trim();
  const comma = bare.lastIndexOf(', ');
  // Without a ", " the name has no states: the test below refuses it before looking at what the split read.
  const states = bare.slice(comma + 2).split('-');
  if (comma === -1 || !states.every((s) => STATE.test(s))) {
    throw new FixtureError('bad_shape', { ...place, column: 'name' }, `the name ${JSON.stringify(name)} does not end with two-letter state codes`);
  }
  return { name: bare, division, states };
}

/** A header line is tolerated as the first line: one whose code column is not a code. */
const isHeader = (raw: string): boolean => {
  const code = codeOf(raw);
  return code === undefined || !/^\d+$/.test(code.trim());
};

function parseRow(raw: string, place: Place): { name: string; code: string; year: number; quarter: number; index: number | undefined } {
  const fields = splitCsvLine(raw, place);
  if (fields.length !== 6) {
    throw new FixtureError('bad_shape', place, `expected 6 fields (name, code, year, quarter, index, standard error), got ${fields.length}`);
  }
  const [nameField, codeField, yearField, quarterField, indexField, errorField] = fields as [string, string, string, string, string, string];
  const name = text(nameField, place, 'name');
  const code = codeField.trim();
  if (!CODE.test(code)) throw new FixtureError('bad_shape', { ...place, column: 'code' }, `the code must be five digits, got ${JSON.stringify(codeField)}`);
  const year = numeric(yearField, place, 'year');
  const quarter = numeric(quarterField, place, 'quarter');
  if (!Number.isInteger(year) || !Number.isInteger(quarter) || quarter < 1 || quarter > 4) {
    throw new FixtureError('bad_shape', place, `year ${yearField} and quarter ${quarterField} do not name a calendar quarter`);
  }
  const rawIndex = indexField.trim();
  const rawError = errorField.trim();
  if (rawIndex === '-') {
    if (rawError !== '-')
      throw new FixtureError('bad_shape', { ...place, column: 'standard error' }, `no index ("-") but a standard error ${JSON.stringify(errorField)}`);
    return { name, code, year, quarter, index: undefined };
  }
  const index = numeric(rawIndex, place, 'index');
  if (!(index > 0)) throw new FixtureError('not_numeric', { ...place, column: 'index' }, `the index must be positive, got ${JSON.stringify(indexField)}`);
  if (!STANDARD_ERROR.test(rawError)) {
    throw new FixtureError(
      'not_numeric',
      { ...place, column: 'standard error' },
      `the standard error must be written in parentheses like "( 2.51)", got ${JSON.stringify(errorField)}`,
    );
  }
  return { name, code, year, quarter, index: roundTo(index, 2) };
}

/** Every series of a market's codes, in one pass; other rows are counted, not parsed. */
function readSeries(source: string, wanted: ReadonlySet<string>): { series: Map<string, Series>; others: number; lastLine: number } {
  const series = new Map<string, Series>();
  let others = 0;
  let anyRow = false;
  let lastLine = 0;
  let first = true;
  eachLine(source, (raw, line) => {
    lastLine = line;
    if (first) {
      first = false;
      if (isHeader(raw)) return;
    }
    anyRow = true;
    const code = codeOf(raw)?.trim();
    if (code === undefined || !wanted.has(code)) {
      others += 1;
      return;
    }
    const place = { file: FILE, line };
    const row = parseRow(raw, place);
    let entry = series.get(row.code);
    if (entry === undefined) {
      entry = { code: row.code, name: row.name, quarters: new Map(), lastLine: line };
      series.set(row.code, entry);
    }
    const key = quarterKey(row.year, row.quarter);
    const previous = entry.quarters.get(key);
    if (previous !== undefined) {
      throw new FixtureError('duplicate_row', place, `second row for ${row.code} (${row.name}) ${quarterLabel(row)}; the first is on line ${previous.line}`);
    }
    entry.quarters.set(key, { year: row.year, quarter: row.quarter, index: row.index, line });
    entry.lastLine = line;
  });
  if (!anyRow) throw new FixtureError('bad_shape', { file: FILE }, 'no data rows');
  return { series, others, lastLine };
}

/** The latest quarter any row of the file names: the file's vintage, "YYYY Qn". */
export function latestQuarterOf(source: string): string {
  let latest = -1;
  let first = true;
  eachLine(source, (raw, line) => {
    if (first) {
      first = false;
      if (isHeader(raw)) return;
    }
    const code = codeOf(raw) ?? '';
    const after = raw.indexOf(`,${code},`);
    const [year, quarter] = raw.slice(after + code.length + 2).split(',', 2);
    const key = quarterKey(Number(year), Number(quarter));
    if (!Number.isInteger(key)) throw new FixtureError('bad_shape', { file: FILE, line }, 'no year and quarter after the code');
    if (key > latest) latest = key;
  });
  // A key only replaces -1 when it is not negative.
  if (latest === -1) throw new FixtureError('bad_shape', { file: FILE }, 'no data rows');
  return quarterLabel({ year: Math.floor(latest / 4), quarter: (latest % 4) + 1 });
}

/** The market's index quarter by quarter, from the first quarter with a value to `latest`; a quarter without a row or with "-" has no value. */
function seriesOf(marketId: string, entry: Series, latest: Quarter): MetricSeries {
  const end = quarterKey(latest.year, latest.quarter);
  let start = end;
  for (const q of entry.quarters.values()) if (q.index !== undefined) start = Math.min(start, quarterKey(q.year, q.quarter));
  const points: { period: string; value: number | undefined }[] = [];
  for (let key = start; key <= end; key += 1) {
    points.push({ period: quarterLabel({ year: Math.floor(key / 4), quarter: (key % 4) + 1 }), value: entry.quarters.get(key)?.index });
  }
  return { marketId, metricId: 'homePriceIndex', perYear: 4, points };
}

const describeCodes = (market: MarketDefinition): string =>
  [
    `the whole metro ${market.cbsaCode}`,
    ...market.fhfaDivisions.map((d) => `the metropolitan division ${d.code} (${d.name}, ${d.delineations.join(' and ')} delineations)`),
  ].join(' or ');

export const fhfaHpi: SourceAdapter = {
  sourceId: 'fhfa-hpi',
  files: [FILE, `${DIR}/retrieval.json`],
  remote: [{ file: FILE, url: URL_METRO }],
  vintageOf: (read: ReadFixture) => latestQuarterOf(read(FILE)),
  load(read, markets): SourceLoad {
    const retrieval = readRetrieval(read, DIR);
    const wanted = new Set(markets.flatMap((m) => fhfaSeriesCodes(m)));
    const { series, others, lastLine } = readSeries(read(FILE), wanted);

    const observations: Observation[] = [];
    const missing: MissingValue[] = [];
    const histories: MetricSeries[] = [];
    const used = new Set<string>();
    const kinds = new Set<'cbsa' | 'division'>();
    let latestOfAll = -1;
    for (const market of markets) {
      // The documented rule: the first of the market's codes that the file holds (the whole metro, then its divisions).
      const entry = fhfaSeriesCodes(market)
        .map((c) => series.get(c))
        .find((e) => e !== undefined);
      if (entry === undefined) {
        const reason = `${FILE.slice(DIR.length + 1)} has no series for ${describeCodes(market)}`;
        for (const metricId of ['homePriceIndex', 'homePriceChange'])
          missing.push({ marketId: market.id, metricId, reason, origin: { file: FILE, line: lastLine } });
        continue;
      }
      used.add(entry.code);
      const parsed = parseSeriesName(entry.name, { file: FILE, line: entry.lastLine });
      const level = parsed.division ? ('division' as const) : ('cbsa' as const);
      kinds.add(level);
      const boundary: Boundary = {
        level,
        name: parsed.name,
        codes: level === 'division' ? { cbsa: market.cbsaCode, division: entry.code } : { cbsa: entry.code },
        states: parsed.states,
      };
      const label = `${parsed.name}${parsed.division ? ' (MSAD)' : ''} (${entry.code})`;
      let latest: Quarter | undefined;
      for (const q of entry.quarters.values()) {
        if (q.index !== undefined && (latest === undefined || quarterKey(q.year, q.quarter) > quarterKey(latest.year, latest.quarter))) latest = q;
      }
      if (latest === undefined) {
        const reason = `FHFA writes "-" for every quarter of ${label}: too few transactions for an index value`;
        for (const metricId of ['homePriceIndex', 'homePriceChange'])
          missing.push({ marketId: market.id, metricId, reason, origin: { file: FILE, line: entry.lastLine } });
        continue;
      }
      latestOfAll = Math.max(latestOfAll, quarterKey(latest.year, latest.quarter));
      const base = { marketId: market.id, sourceId: 'fhfa-hpi', boundary };
      const index = latest.index ?? 0;
      observations.push({ ...base, metricId: 'homePriceIndex', value: index, asOf: quarterLabel(latest), origin: { file: FILE, line: latest.line } });
      histories.push(seriesOf(market.id, entry, latest));
      const before = { year: latest.year - 1, quarter: latest.quarter };
      const yearBefore = entry.quarters.get(quarterKey(before.year, before.quarter));
      if (yearBefore?.index === undefined) {
        missing.push({
          marketId: market.id,
          metricId: 'homePriceChange',
          reason:
            yearBefore === undefined
              ? `${label} has no row for ${quarterLabel(before)}, the quarter a year before ${quarterLabel(latest)}`
              : `FHFA writes "-" for ${label} in ${quarterLabel(before)}, the quarter a year before ${quarterLabel(latest)}: too few transactions for an index value`,
          origin: { file: FILE, line: yearBefore?.line ?? latest.line },
        });
        continue;
      }
      observations.push({
        ...base,
        metricId: 'homePriceChange',
        value: roundTo((index / yearBefore.index - 1) * 100, 1),
        asOf: `${quarterLabel(yearBefore)} to ${quarterLabel(latest)}`,
        origin: { file: FILE, line: latest.line },
      });
    }
    // Rows of every other series, and of a market's codes the rule did not choose, are skipped and counted.
    let skipped = others;
    for (const entry of series.values()) if (!used.has(entry.code)) skipped += entry.quarters.size;

    const through = latestOfAll === -1 ? retrieval.vintage : quarterLabel({ year: Math.floor(latestOfAll / 4), quarter: (latestOfAll % 4) + 1 });
    const kindText = kinds.size === 2 ? 'metro and metropolitan-division' : kinds.has('division') ? 'metropolitan-division' : 'metro';
    return {
      source: withRetrieval(
        {
          sourceId: 'fhfa-hpi',
          sourceName: 'FHFA House Price Index',
          agency: 'Federal Housing Finance Agency',
          datasetName: `House Price Index, ${kindText} all-transactions indexes, quarterly, not seasonally adjusted (through ${through})`,
          sourceUrl: 'https://www.fhfa.gov/data/hpi',
          confidence: 'high',
          updateFrequency: 'quarterly',
          provenance: 'fixture',
        },
        retrieval,
      ),
      observations,
      missing,
      skipped,
      ...(retrieval.illustrative === undefined ? {} : { illustrative: retrieval.illustrative }),
      series: histories,
    };
  },
};
