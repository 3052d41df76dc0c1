// Reads hpi_at_metro.csv: each market's series by the documented choice (the whole metro, else the division holding its city), its latest quarter and the year's change, beside its state's and the nation's from the master file.
import { FixtureError, type Place } from '../../contract/errors.ts';
import type { MarketDefinition } from '../../contract/markets.ts';
import { ZIP_DATES } from '../../contract/periods.ts';
import { eachLine, numeric, roundTo, splitCsvLine, text, year as yearOf } from '../parse.ts';
import type { Area } from '../../contract/geography.ts';
import type { Comparison } from '../../contract/schemas.ts';
import type { ComparisonSeries, MetricSeries, MissingValue, Observation, SeriesPoint } from '../source.ts';
import {
  CODE,
  FILE,
  DIR,
  MASTER,
  METRO_BASE,
  NATION_ID,
  SOURCE_ID,
  MSAD,
  MSAD_MARKER,
  NO_VALUE,
  STANDARD_ERROR,
  STATE,
  codeOf,
  quarterKey,
  quarterLabel,
  quarterOfKey,
} from './format.ts';
import { readMaster, type PlaceIndex } from './master.ts';
import { quarterSpan, type QuarterSpan } from './quarters.ts';

export { FIRST_YEAR } from './quarters.ts';

import { METRICS, METRIC_OF, type FhfaMetric } from './metrics.ts';

const INDEX = METRIC_OF.estimate;
const CHANGE = METRIC_OF.change;

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

/**
 * The rule that names a market's series, in the order they are tried: the whole metro (CBSA code) where FHFA publishes
 * it, else the metropolitan division that holds the market's principal city.
 */
export function seriesCodesOf(market: Pick<MarketDefinition, 'cbsaCode' | 'divisions'>): string[] {
  return [market.cbsaCode, ...market.divisions.map((d) => d.code)];
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

function parseRow(raw: string, place: Place, quarters: QuarterSpan): { name: string; code: string; year: number; quarter: number; index: number | undefined } {
  const fields = splitCsvLine(raw, place);
  if (fields.length !== 6) {
    throw new FixtureError('bad_shape', place, `expected 6 fields (name, code, year, quarter, index, standard error), got ${fields.length}`);
  }
  const [nameField = '', codeField = '', yearField = '', quarterField = '', indexField = '', errorField = ''] = fields;
  const name = text(nameField, place, 'name');
  const code = codeField.trim();
  if (!CODE.test(code)) throw new FixtureError('bad_shape', { ...place, column: 'code' }, `the code must be five digits, got ${JSON.stringify(codeField)}`);
  const year = yearOf(yearField, place, 'year', quarters.span);
  const quarter = numeric(quarterField, place, 'quarter');
  if (!Number.isInteger(quarter) || quarter < 1 || quarter > 4) {
    throw new FixtureError('bad_shape', place, `year ${yearField} and quarter ${quarterField} do not name a calendar quarter`);
  }
  if (quarterKey(year, quarter) > quarters.lastKey) {
    throw new FixtureError(
      'out_of_range',
      { ...place, column: 'quarter' },
      `${quarterLabel({ year, quarter })} had not ended on ${quarters.retrievedAt ?? ZIP_DATES.last}, the retrieval date: no index of it can have been published`,
    );
  }
  const rawIndex = indexField.trim();
  const rawError = errorField.trim();
  if (rawIndex === NO_VALUE) {
    if (rawError !== NO_VALUE)
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
function readSeries(source: string, wanted: ReadonlySet<string>, quarters: QuarterSpan): { series: Map<string, Series>; others: number; lastLine: number } {
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
    const row = parseRow(raw, place, quarters);
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
  if (!anyRow) throw new FixtureError('bad_shape', { file: FILE, line: Math.max(1, lastLine) }, 'no data rows');
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
  return quarterLabel(quarterOfKey(latest));
}

/** Every series of the file, a market's or not, by its code, with the quarters it has a row for ("YYYY Qn"): what fetch compares. */
export function quartersBySeries(source: string): Map<string, Set<string>> {
  const series = new Map<string, Set<string>>();
  let first = true;
  eachLine(source, (raw) => {
    if (first) {
      first = false;
      if (isHeader(raw)) return;
    }
    const code = codeOf(raw);
    if (code === undefined) return;
    const [year, quarter] = raw.slice(raw.indexOf(`,${code},`) + code.length + 2).split(',', 2);
    const quarters = series.get(code.trim()) ?? new Set<string>();
    quarters.add(quarterLabel({ year: Number(year), quarter: Number(quarter) }));
    series.set(code.trim(), quarters);
  });
  return series;
}

/** The market's index quarter by quarter, from the first quarter with a value to `latest`; a quarter without a row or with "-" has no value. */
function seriesOf(marketId: string, entry: Series, latest: Quarter): MetricSeries<FhfaMetric> {
  const end = quarterKey(latest.year, latest.quarter);
  let start = end;
  let firstRow = end;
  for (const q of entry.quarters.values()) {
    firstRow = Math.min(firstRow, quarterKey(q.year, q.quarter));
    if (q.index !== undefined) start = Math.min(start, quarterKey(q.year, q.quarter));
  }
  // A quarter lost among the "-" rows before the first value (the first value's own row, say) starts the points there.
  for (let key = firstRow; key < start; key += 1) {
    if (!entry.quarters.has(key)) {
      start = key;
      break;
    }
  }
  const points: { period: string; value: number | undefined }[] = [];
  // FHFA writes a row for every quarter of a series ("-" where it has no index): a quarter without one is marked, and the load refuses it.
  for (let key = start; key <= end; key += 1) {
    const row = entry.quarters.get(key);
    points.push({ period: quarterLabel(quarterOfKey(key)), value: row?.index, ...(row === undefined ? { noRow: true as const } : {}) });
  }
  return { marketId, metricId: INDEX, perYear: 4, points, firstRow: quarterLabel(quarterOfKey(firstRow)) };
}

/** The change of an index on the same quarter a year earlier, quarter by quarter, labelled "2024 Q4 to 2025 Q4", one decimal; a quarter without both values has none. */
function changePoints(points: readonly SeriesPoint[], perYear: number): SeriesPoint[] {
  return points.slice(perYear).map((p, i) => {
    const before = points[i];
    const value = p.value === undefined || before?.value === undefined ? undefined : changeOf(p.value, before.value);
    return { period: `${before?.period ?? ''} to ${p.period}`, value };
  });
}

/**
 * The year-over-year change in percent, one decimal, half away from zero, from the two published values in whole
 * hundredths (the index's precision): 104.55 over 100.00 is exactly 4.55 %, 4.6, where a quotient of the two decimals
 * would give 4.5499… and 4.5.
 */
const changeOf = (now: number, before: number): number => {
  const [a, b] = [Math.round(now * 100), Math.round(before * 100)];
  return roundTo(((a - b) * 100) / b, 1);
};

function changeSeriesOf(index: MetricSeries<FhfaMetric>): MetricSeries<FhfaMetric> {
  return { marketId: index.marketId, metricId: CHANGE, perYear: index.perYear, points: changePoints(index.points, index.perYear) };
}

/** A state's or the nation's area, as the series documents name it: a state by the market's state FIPS code. */
function areaOfPlace(place: PlaceIndex, market: MarketDefinition): Area {
  return place.level === 'nation'
    ? { level: 'nation', name: place.name, codes: {}, states: [] }
    : { level: 'state', name: place.name, codes: { stateFips: market.placeGeoid.state }, states: [market.stateCode] };
}

/**
 * The comparison series of a state or the nation over the market's quarters' span: the index rebased to the metro
 * file's base (1995 Q1 = 100: each published value over the place's own 1995 Q1 value, two decimals), so the three
 * lines of a chart share one scale, and the change computed from the published values.
 */
function placeSeries(place: PlaceIndex, market: MarketDefinition): { index: ComparisonSeries; change: ComparisonSeries } {
  const area = areaOfPlace(place, market);
  const base = place.quarters.get(quarterKey(METRO_BASE.year, METRO_BASE.quarter))?.index;
  const published: SeriesPoint[] = [];
  const rebased: SeriesPoint[] = [];
  for (let key = place.first; key <= place.last; key += 1) {
    const value = place.quarters.get(key)?.index;
    const period = quarterLabel(quarterOfKey(key));
    published.push({ period, value });
    rebased.push({ period, value: value === undefined || base === undefined ? undefined : roundTo((value / base) * 100, 2) });
  }
  return { index: { area, points: rebased }, change: { area, points: changePoints(published, 4) } };
}

const describeCodes = (market: MarketDefinition): string =>
  [
    `the whole metro ${market.cbsaCode}`,
    ...market.divisions.map((d) => `the metropolitan division ${d.code} (${d.name}, ${d.delineations.join(' and ')} delineations)`),
  ].join(' or ');

export interface FhfaValues {
  observations: Observation<FhfaMetric>[];
  missing: MissingValue<FhfaMetric>[];
  series: MetricSeries<FhfaMetric>[];
  skipped: number;
  /** What the chosen series are: "metro", "metropolitan-division", or both. */
  kinds: string;
  /** The latest quarter of any market's series, "YYYY Qn"; undefined when no market has one. */
  through: string | undefined;
}

/**
 * Every market's index and change, and history, from the metro file; each change beside its state's and the nation's
 * over the same quarters, from the master file of the same release. A market without a series, or without a value, is
 * missing with the reason.
 */
export function readSeriesFile(source: string, master: string, markets: readonly MarketDefinition[], retrievedAt?: string): FhfaValues {
  const wanted = new Set(markets.flatMap((m) => seriesCodesOf(m)));
  const span = quarterSpan(retrievedAt);
  const { series, others } = readSeries(source, wanted, span);
  const { places, skipped: otherPlaces } = readMaster(master, new Set([...markets.map((m) => m.stateCode), NATION_ID]), span);
  // The release the metro file is of: the latest quarter of the markets' series, whose rows FHFA writes through it ("-" where it has no index).
  let release: number | undefined;
  for (const e of series.values()) for (const key of e.quarters.keys()) release = Math.max(release ?? key, key);
  /** The master file's series of a market's state or of the nation, which must run to the metro file's latest quarter: one release. */
  const placeOf = (id: string, market: MarketDefinition): PlaceIndex => {
    const place = places.get(id);
    if (place === undefined) {
      throw new FixtureError(
        'missing_row',
        { file: MASTER, marketId: market.id },
        `no all-transactions quarterly series of ${id === NATION_ID ? 'the United States (USA)' : `${market.state} (${id})`}: every market's price change is shown beside its state's and the nation's`,
      );
    }
    if (release !== undefined && place.last !== release) {
      throw new FixtureError(
        'out_of_range',
        { file: MASTER, line: place.quarters.get(place.last)?.line ?? 0, marketId: market.id },
        `the series of ${place.name} (${id}) ends in ${quarterLabel(quarterOfKey(place.last))}, ${FILE.slice(DIR.length + 1)}'s in ${quarterLabel(quarterOfKey(release))}: both files must be of one release (FHFA revises every quarter in each)`,
      );
    }
    return place;
  };

  const observations: Observation<FhfaMetric>[] = [];
  const missing: MissingValue<FhfaMetric>[] = [];
  const histories: MetricSeries<FhfaMetric>[] = [];
  const used = new Set<string>();
  const kinds = new Set<'cbsa' | 'division'>();
  let latestOfAll = -1;
  for (const market of markets) {
    // The documented rule: the first of the market's codes that the file holds (the whole metro, then its divisions).
    const entry = seriesCodesOf(market)
      .map((c) => series.get(c))
      .find((e) => e !== undefined);
    if (entry === undefined) {
      const reason = `${FILE.slice(DIR.length + 1)} has no series for ${describeCodes(market)}`;
      for (const { id: metricId } of METRICS) missing.push({ marketId: market.id, metricId, reason, origin: { file: FILE } });
      continue;
    }
    used.add(entry.code);
    const parsed = parseSeriesName(entry.name, { file: FILE, line: entry.lastLine });
    const level = parsed.division ? ('division' as const) : ('cbsa' as const);
    kinds.add(level);
    const boundary: Area =
      level === 'division'
        ? { level, name: parsed.name, codes: { cbsa: market.cbsaCode, division: entry.code }, states: parsed.states }
        : { level, name: parsed.name, codes: { cbsa: entry.code }, states: parsed.states };
    const label = `${parsed.name}${parsed.division ? MSAD_MARKER : ''} (${entry.code})`;
    let latest: Quarter | undefined;
    for (const q of entry.quarters.values()) {
      if (q.index !== undefined && (latest === undefined || quarterKey(q.year, q.quarter) > quarterKey(latest.year, latest.quarter))) latest = q;
    }
    if (latest === undefined) {
      const reason = `FHFA writes "-" for every quarter of ${label}: too few transactions for an index value`;
      for (const { id: metricId } of METRICS) missing.push({ marketId: market.id, metricId, reason, origin: { file: FILE, line: entry.lastLine } });
      continue;
    }
    latestOfAll = Math.max(latestOfAll, quarterKey(latest.year, latest.quarter));
    const base = { marketId: market.id, sourceId: SOURCE_ID, boundary };
    const index = latest.index ?? 0;
    observations.push({ ...base, metricId: INDEX, value: index, asOf: quarterLabel(latest), origin: { file: FILE, line: latest.line } });
    const around = [placeOf(market.stateCode, market), placeOf(NATION_ID, market)];
    const aroundSeries = around.map((p) => placeSeries(p, market));
    const history = { ...seriesOf(market.id, entry, latest), comparisons: aroundSeries.map((p) => p.index) };
    histories.push(history);
    if (history.points.length > history.perYear) histories.push({ ...changeSeriesOf(history), comparisons: aroundSeries.map((p) => p.change) });
    const before = { year: latest.year - 1, quarter: latest.quarter };
    const yearBefore = entry.quarters.get(quarterKey(before.year, before.quarter));
    if (yearBefore?.index === undefined) {
      missing.push({
        marketId: market.id,
        metricId: CHANGE,
        reason:
          yearBefore === undefined
            ? `${label} has no row for ${quarterLabel(before)}, the quarter a year before ${quarterLabel(latest)}`
            : `FHFA writes "-" for ${label} in ${quarterLabel(before)}, the quarter a year before ${quarterLabel(latest)}: too few transactions for an index value`,
        origin: { file: FILE, line: yearBefore?.line ?? latest.line },
      });
      continue;
    }
    const asOf = `${quarterLabel(yearBefore)} to ${quarterLabel(latest)}`;
    const comparisons = around.flatMap((place): Comparison[] => {
      const now = place.quarters.get(quarterKey(latest.year, latest.quarter))?.index;
      const then = place.quarters.get(quarterKey(yearBefore.year, yearBefore.quarter))?.index;
      if (now === undefined || then === undefined) return [];
      return [{ level: place.level, code: place.id, name: place.name, value: changeOf(now, then), asOf }];
    });
    observations.push({
      ...base,
      metricId: CHANGE,
      value: changeOf(index, yearBefore.index),
      asOf,
      ...(comparisons.length === 0 ? {} : { comparisons }),
      origin: { file: FILE, line: latest.line },
    });
  }
  // Rows of every other series, and of a market's codes the rule did not choose, are skipped and counted.
  let skipped = others + otherPlaces;
  for (const entry of series.values()) if (!used.has(entry.code)) skipped += entry.quarters.size;
  return {
    observations,
    missing,
    series: histories,
    skipped,
    kinds: kinds.size === 2 ? 'metro and metropolitan-division' : kinds.has('division') ? 'metropolitan-division' : 'metro',
    through: latestOfAll === -1 ? undefined : quarterLabel(quarterOfKey(latestOfAll)),
  };
}
