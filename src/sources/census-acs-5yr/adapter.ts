// Reads the Census API's answers: each market's row found by state and place code, its state's by state code and the nation's, the header held to the query, annotation values as missing with the reason, open-ended medians qualified, and the two shares computed from their counts.
import { FixtureError, type Place } from '../../contract/errors.ts';
import type { Area } from '../../contract/geography.ts';
import type { MarketDefinition } from '../../contract/markets.ts';
import type { Comparison, Qualifier } from '../../contract/schemas.ts';
import { arrayElementLines, numeric, parseJson, roundTo, text } from '../parse.ts';
import type { ComparisonSeries, MetricSeries, MissingValue, Observation, ReadFixture, SeriesPoint, ValueNote } from '../source.ts';
import { ANNOTATIONS, PLACES, SOURCE_ID, STATES, answerHeader, marginOf, type Estimate, type Queries, type Query } from './format.ts';
import type { AcsMetricSpec, Reading } from './metrics.ts';

/** One cell of a row: a number, or why the file gives none. */
type Cell = { value: number } | { absent: string };

function cellOf(raw: unknown, field: string, place: Place): Cell {
  if (raw === null) return { absent: `${field} is null: the Census API has no data for this geography` };
  if (typeof raw !== 'string') {
    throw new FixtureError('bad_shape', { ...place, column: field }, `cell "${field}" must be a string or null, got ${JSON.stringify(raw)}`);
  }
  const annotation = ANNOTATIONS.get(raw.trim());
  if (annotation !== undefined) return { absent: `${field} is ${raw.trim()}: the Census API's annotation that ${annotation}` };
  const value = numeric(raw, place, field);
  // Only the annotation values above stand for an absent figure; any other negative is no estimate nor margin the API writes.
  if (value < 0) {
    throw new FixtureError(
      'out_of_range',
      { ...place, column: field },
      `${field} is ${raw.trim()}: negative, and not one of the Census API's annotation values (${[...ANNOTATIONS.keys()].join(', ')})`,
    );
  }
  return { value };
}

/** A row of an answer that belongs to a market (or a market's state): its name, its cells by field, where it was read. */
interface ApiRow {
  key: string;
  name: string;
  cells: Readonly<Record<string, Cell>>;
  origin: { file: string; line: number };
  pointer: string;
}

/**
 * Reads one Census API response: a JSON array whose first row is the header and whose other rows are geographies,
 * every cell a string or null. The header must be what the query asked for, in its order (NAME, the requested variables
 * in the order of `get=`, then the geography columns): two columns swapped would otherwise serve each value under the
 * other's name. A row whose geography key is not wanted is counted and left unread past its geography columns; a wanted
 * key seen twice is refused with both lines.
 */
function readResponse(read: ReadFixture, query: Query, wanted: (key: string) => string | undefined): { rows: Map<string, ApiRow>; skipped: number } {
  const { file } = query;
  const source = read(file);
  const parsed = parseJson(source, file);
  let lines: number[] | undefined;
  const lineOf = (r: number): number => (lines ??= arrayElementLines(source))[r] ?? 0;
  if (!Array.isArray(parsed) || parsed.length === 0) {
    throw new FixtureError('bad_shape', { file, line: 1 }, 'expected a Census API response: an array whose first row names the variables');
  }
  const answer: readonly unknown[] = parsed;
  const header = answer[0];
  if (!Array.isArray(header) || !header.every((cell) => typeof cell === 'string')) {
    throw new FixtureError('bad_shape', { file, line: lineOf(0), pointer: '/0' }, 'the first row must be the header: an array of variable names');
  }
  const expected = answerHeader(query.fields, query.geography);
  const seen = new Set<string>();
  header.forEach((name: string, i) => {
    if (seen.has(name)) throw new FixtureError('bad_shape', { file, line: lineOf(0), pointer: `/0/${i}`, column: name }, `header names "${name}" twice`);
    seen.add(name);
  });
  const lacking = expected.find((name) => !seen.has(name));
  if (lacking !== undefined) {
    throw new FixtureError('missing_field', { file, line: lineOf(0), pointer: '/0', column: lacking }, `header has no "${lacking}" column`);
  }
  const at = expected.findIndex((name, i) => header[i] !== name);
  if (at !== -1 || header.length !== expected.length) {
    const i = at === -1 ? expected.length : at;
    const got = String(header[i]);
    throw new FixtureError(
      'bad_shape',
      { file, line: lineOf(0), pointer: `/0/${i}`, column: got },
      expected[i] === undefined
        ? `header has a column "${got}" the query did not ask for`
        : `header has "${got}" as column ${i + 1}, where the query asked for "${expected[i]}": the columns must be those of the query, in its order, or a value would be read under another's name`,
    );
  }
  const iName = 0;
  const iGeography = query.geography.map((_, k) => 1 + query.fields.length + k);
  const iFields = query.fields.map((field, k) => [field, 1 + k] as const);
  const width = expected.length;

  const rows = new Map<string, ApiRow>();
  let skipped = 0;
  for (let r = 1; r < answer.length; r += 1) {
    const entry = answer[r];
    if (!Array.isArray(entry) || entry.length !== width) {
      const got = Array.isArray(entry) ? `${entry.length} cells` : `a ${entry === null ? 'null' : typeof entry}`;
      throw new FixtureError('bad_shape', { file, line: lineOf(r), pointer: `/${r}` }, `row ${r} has ${got}; the header names ${width} columns`);
    }
    const row: readonly unknown[] = entry;
    const codes = iGeography.map((i) => row[i]);
    const key = codes.every((c) => typeof c === 'string') ? codes.join(':') : undefined;
    const what = key === undefined ? undefined : wanted(key);
    if (key === undefined || what === undefined) {
      skipped += 1;
      continue;
    }
    const line = lineOf(r);
    const place = { file, line, pointer: `/${r}` };
    const previous = rows.get(key);
    if (previous !== undefined) {
      throw new FixtureError('duplicate_row', place, `second row for ${what}; the first is on line ${previous.origin.line}`);
    }
    const nameCell = row[iName];
    const name = text(typeof nameCell === 'string' ? nameCell : undefined, place, 'NAME');
    const cells: Record<string, Cell> = {};
    for (const [field, i] of iFields) cells[field] = cellOf(row[i], field, place);
    rows.set(key, { key, name, cells, origin: { file, line }, pointer: `/${r}` });
  }
  return { rows, skipped };
}

/**
 * The 90 % margin of a proportion p = x / y whose numerator is a subset of its denominator, from the margins of x and y
 * (the Census Bureau's approximation for derived proportions, ACS General Handbook, chapter 8): √(mx² − p²·my²) / y, or,
 * where the term under the root is negative, the ratio formula √(mx² + p²·my²) / y.
 */
export function proportionMargin(x: number, mx: number, y: number, my: number): number {
  const p = x / y;
  const under = mx * mx - p * p * my * my;
  return Math.sqrt(under >= 0 ? under : mx * mx + p * p * my * my) / y;
}

/** A metric's figure for one row: the value with its margin where the row gives one, and what qualifies it where it is an interval's edge; or why there is none. */
type Figure = { value: number; marginOfError?: number; qualifier?: Qualifier } | { absent: string };

/** The margin code that says a median lies in an open-ended interval ("4,000+"): the estimate is the interval's edge, written one beyond it. */
const OPEN_ENDED = '-333333333';

/**
 * What the Census Bureau published where the API writes a median one beyond an open-ended interval's edge: 4001 is its
 * "4,000+" (the edge a lower bound), 99 its "100-" (an upper bound); a number that ends otherwise is qualified only as
 * open-ended at itself.
 */
export function openEndedQualifier(value: number): Qualifier {
  const more = value % 10 === 1;
  const less = value % 10 === 9;
  const edge = more ? value - 1 : less ? value + 1 : value;
  const sign = less ? '-' : '+';
  return { kind: 'open-ended', publishedAs: `${edge.toLocaleString('en-US')}${sign}`, edge, bound: less ? 'upper' : 'lower' };
}

/**
 * What a reader needs to know of such a median, in a sentence the page says beside the value: 4001 is the Census
 * Bureau's "4,000+", 99 its "100-".
 */
export function openEndedNote(field: string, value: number): string {
  const q = openEndedQualifier(value);
  if (q.edge === value) return `${field} lies in an open-ended interval (margin code ${OPEN_ENDED}): the Census Bureau publishes no margin of error for it.`;
  const more = q.bound === 'lower';
  return `Published as "${q.publishedAs}": the median lies in the open-ended ${more ? 'top' : 'bottom'} interval, so the Census API writes ${value} and gives no margin of error; the true median is ${q.edge.toLocaleString('en-US')} or ${more ? 'more' : 'less'}.`;
}

function figureOf(row: ApiRow, reading: Reading): Figure {
  const cell = (field: Estimate): Cell => row.cells[field] ?? { absent: `${field} is not in the answer` };
  /** The margin of an estimate, where the answer gives it (an annotation or a null there leaves the estimate without one). */
  const margin = (field: Estimate): number | undefined => {
    const m = row.cells[marginOf(field)];
    return m !== undefined && 'value' in m ? m.value : undefined;
  };
  if ('estimate' in reading) {
    const c = cell(reading.estimate);
    if ('absent' in c) return c;
    const moe = margin(reading.estimate);
    const code = row.cells[marginOf(reading.estimate)];
    const openEnded = code !== undefined && 'absent' in code && code.absent.includes(OPEN_ENDED);
    return { value: c.value, ...(moe === undefined ? {} : { marginOfError: moe }), ...(openEnded ? { qualifier: openEndedQualifier(c.value) } : {}) };
  }
  const [partField, wholeField] = reading.share;
  const part = cell(partField);
  const whole = cell(wholeField);
  if ('absent' in part || 'absent' in whole) {
    const reasons = [part, whole].flatMap((c) => ('absent' in c ? [c.absent] : []));
    return { absent: `the share needs ${partField} and ${wholeField}; ${reasons.join('; ')}` };
  }
  if (whole.value <= 0) return { absent: `${wholeField} is ${whole.value}: no ${reading.of} to take a share of` };
  if (part.value > whole.value) {
    throw new FixtureError(
      'out_of_range',
      { ...row.origin, pointer: row.pointer, column: partField },
      `${partField} (${part.value}) is more than ${wholeField} (${whole.value}), which holds it`,
    );
  }
  const mPart = margin(partField);
  const mWhole = margin(wholeField);
  const moe = mPart === undefined || mWhole === undefined ? undefined : roundTo(proportionMargin(part.value, mPart, whole.value, mWhole) * 100, 1);
  return { value: roundTo((part.value / whole.value) * 100, 1), ...(moe === undefined ? {} : { marginOfError: moe }) };
}

const placeKey = (m: MarketDefinition): string => `${m.placeGeoid.state}:${m.placeGeoid.place}`;

/** The estimates a reading needs: the answer must hold them all for the figure to be read from it. */
export const estimatesOf = (reading: Reading): readonly Estimate[] => ('estimate' in reading ? [reading.estimate] : reading.share);
const holds = (query: Query, reading: Reading): boolean => estimatesOf(reading).every((e) => query.estimates.includes(e));

/** A figure as a point of a series (none where the row gives none). */
const pointOf = (period: string, figure: Figure | undefined): SeriesPoint[] =>
  figure === undefined || 'absent' in figure
    ? []
    : [
        {
          period,
          value: figure.value,
          ...(figure.marginOfError === undefined ? {} : { marginOfError: figure.marginOfError }),
          ...(figure.qualifier === undefined ? {} : { qualifier: figure.qualifier }),
        },
      ];

/**
 * Every market's values from the places answer, each beside its state's and (where the nation's answer holds the
 * estimate) the nation's; and each metric's series: the earlier period's figure too where its answers hold the
 * estimate, with the state's. A market without a value is missing with what the file said.
 */
export function readPlaceAnswers<M extends string>(
  read: ReadFixture,
  markets: readonly MarketDefinition[],
  vintage: string,
  metrics: readonly AcsMetricSpec<M>[],
  queries: Queries,
): {
  observations: Observation<M>[];
  missing: MissingValue<M>[];
  notes: ValueNote<M>[];
  series: MetricSeries<M>[];
  skipped: number;
} {
  // The metrics read from the rows; a derived one is computed from them after the load (src/sources/derive.ts).
  const readings = metrics.flatMap((m) => (m.reading === undefined ? [] : [[m.id, m.reading] as const]));
  const byPlace = new Map(markets.map((m) => [placeKey(m), m]));
  const byState = new Map<string, MarketDefinition[]>();
  for (const m of markets) byState.set(m.placeGeoid.state, [...(byState.get(m.placeGeoid.state) ?? []), m]);
  const placeWanted = (key: string): string | undefined => {
    const m = byPlace.get(key);
    return m === undefined ? undefined : `state ${m.placeGeoid.state} place ${m.placeGeoid.place} (${m.placeName})`;
  };
  const stateWanted = (key: string): string | undefined => {
    const ms = byState.get(key);
    return ms === undefined ? undefined : `state ${key} (${ms[0]?.state ?? key})`;
  };

  const places = readResponse(read, queries.places, placeWanted);
  const states = readResponse(read, queries.states, stateWanted);
  const nation = readResponse(read, queries.nation, (key) => (key === '1' ? 'the United States' : undefined));
  const earlierPlaces = readResponse(read, queries.earlierPlaces, placeWanted);
  const earlierStates = readResponse(read, queries.earlierStates, stateWanted);
  const nationRow = nation.rows.get('1');
  if (nationRow === undefined) throw new FixtureError('missing_row', { file: queries.nation.file }, 'no row for the United States (us 1)');
  const earlier = queries.earlierPlaces.vintage;

  const observations: Observation<M>[] = [];
  const missing: MissingValue<M>[] = [];
  const notes: ValueNote<M>[] = [];
  const series: MetricSeries<M>[] = [];
  for (const market of markets) {
    const row = places.rows.get(placeKey(market));
    if (row === undefined) {
      // No line: the file has no row, which the load refuses (src/sources/checks.ts) rather than publish the metrics as missing.
      const reason = `the places answer has no row for state ${market.placeGeoid.state} place ${market.placeGeoid.place} (${market.placeName})`;
      for (const [metricId] of readings) missing.push({ marketId: market.id, metricId, reason, origin: { file: PLACES } });
      continue;
    }
    const rowOf = (answer: { rows: Map<string, ApiRow> }, file: string, key: string, what: string): ApiRow => {
      const found = answer.rows.get(key);
      if (found === undefined) {
        throw new FixtureError(
          'missing_row',
          { file, marketId: market.id },
          `no row for ${what}, the ${what.startsWith('state') ? 'state' : 'place'} of ${market.id}: every market's figures are shown beside its state's, and over time where published`,
        );
      }
      return found;
    };
    const stateRow = rowOf(states, STATES, market.placeGeoid.state, `state ${market.placeGeoid.state} (${market.state})`);
    const stateArea: Area = { level: 'state', name: stateRow.name, codes: { stateFips: market.placeGeoid.state }, states: [market.stateCode] };
    const nationArea: Area = { level: 'nation', name: nationRow.name, codes: {}, states: [] };
    for (const [metricId, reading] of readings) {
      const figure = figureOf(row, reading);
      if ('absent' in figure) {
        missing.push({ marketId: market.id, metricId, reason: figure.absent, origin: row.origin });
        continue;
      }
      if (figure.qualifier !== undefined && 'estimate' in reading) {
        notes.push({ marketId: market.id, metricId, note: openEndedNote(reading.estimate, figure.value) });
      }
      const state = figureOf(stateRow, reading);
      const country = holds(queries.nation, reading) ? figureOf(nationRow, reading) : undefined;
      const comparison = (level: Comparison['level'], code: string, name: string, f: Figure | undefined): Comparison[] =>
        f === undefined || 'absent' in f
          ? []
          : [{ level, code, name, value: f.value, ...(f.marginOfError === undefined ? {} : { marginOfError: f.marginOfError }), asOf: vintage }];
      const comparisons = [
        ...comparison('state', market.placeGeoid.state, stateRow.name, state),
        ...comparison('nation', nationRow.key, nationRow.name, country),
      ];
      observations.push({
        marketId: market.id,
        metricId,
        value: figure.value,
        ...(figure.marginOfError === undefined ? {} : { marginOfError: figure.marginOfError }),
        ...(figure.qualifier === undefined ? {} : { qualifier: figure.qualifier }),
        asOf: vintage,
        sourceId: SOURCE_ID,
        boundary: {
          level: 'place',
          name: row.name,
          codes: { stateFips: market.placeGeoid.state, placeFips: market.placeGeoid.place },
          states: [market.stateCode],
        },
        ...(comparisons.length === 0 ? {} : { comparisons }),
        origin: row.origin,
      });
      // The series: the earlier period where its answers hold the estimate, then this one; the state's and the nation's beside.
      const before = holds(queries.earlierPlaces, reading)
        ? figureOf(rowOf(earlierPlaces, queries.earlierPlaces.file, placeKey(market), market.placeName), reading)
        : undefined;
      const stateBefore = holds(queries.earlierStates, reading)
        ? figureOf(rowOf(earlierStates, queries.earlierStates.file, market.placeGeoid.state, `state ${market.placeGeoid.state} (${market.state})`), reading)
        : undefined;
      const around: ComparisonSeries[] = [
        { area: stateArea, points: [...pointOf(earlier, stateBefore), ...pointOf(vintage, state)] },
        { area: nationArea, points: pointOf(vintage, country) },
      ].filter((c) => c.points.length > 0);
      series.push({
        marketId: market.id,
        metricId,
        perYear: 1,
        points: [...pointOf(earlier, before), ...pointOf(vintage, figure)],
        ...(around.length === 0 ? {} : { comparisons: around }),
      });
    }
  }
  return {
    observations,
    missing,
    notes,
    series,
    skipped: places.skipped + states.skipped + nation.skipped + earlierPlaces.skipped + earlierStates.skipped,
  };
}
