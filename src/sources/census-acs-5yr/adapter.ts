// Reads the Census API's answers: each market's row found by state and place code, its state's row by state code, cells by column name, annotation values as missing with the reason, and the two shares computed from their counts.
import { FixtureError, type Place } from '../../contract/errors.ts';
import type { MarketDefinition } from '../../contract/markets.ts';
import type { Comparison } from '../../contract/schemas.ts';
import { arrayElementLines, numeric, parseJson, roundTo, text } from '../parse.ts';
import type { MissingValue, Observation, ReadFixture, ValueNote } from '../source.ts';
import { ANNOTATIONS, FIELDS, PLACE_GEOGRAPHY, PLACES, SOURCE_ID, STATE_GEOGRAPHY, STATES, marginOf, type Estimate } from './format.ts';
import { keysOf } from '../../contract/records.ts';

export type AcsMetric =
  'medianGrossRent' | 'medianHouseholdIncome' | 'medianHomeValue' | 'medianOwnerCostsWithMortgage' | 'homeownershipRate' | 'vacancyRate' | 'housingUnits';

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
 * Reads one Census API response: a JSON array whose first row names the columns (NAME, the requested variables, then
 * the geography columns) and whose other rows are geographies, every cell a string or null. Columns are found by name.
 * A row whose geography key is not wanted is counted and left unread past its geography columns; a wanted key seen
 * twice is refused with both lines.
 */
function readResponse(
  read: ReadFixture,
  file: string,
  geography: readonly string[],
  wanted: (key: string) => string | undefined,
): { rows: Map<string, ApiRow>; skipped: number } {
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
  const index = new Map<string, number>();
  header.forEach((name: string, i) => {
    if (index.has(name)) throw new FixtureError('bad_shape', { file, line: lineOf(0), pointer: `/0/${i}`, column: name }, `header names "${name}" twice`);
    index.set(name, i);
  });
  const at = (field: string): number => {
    const i = index.get(field);
    if (i === undefined) throw new FixtureError('missing_field', { file, line: lineOf(0), pointer: '/0', column: field }, `header has no "${field}" column`);
    return i;
  };
  const iName = at('NAME');
  const iGeography = geography.map(at);
  const iFields = FIELDS.map((field) => [field, at(field)] as const);
  const width = header.length;

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

/** A metric's figure for one row: the value with its margin where the row gives one (and what the margin cell said where it is a code), or why there is none. */
type Figure = { value: number; marginOfError?: number; openEnded?: true } | { absent: string };

/** The margin code that says a median lies in an open-ended interval ("4,000+"): the estimate is the interval's edge, written one beyond it. */
const OPEN_ENDED = '-333333333';

/**
 * What a reader needs to know of a median the API writes one beyond an open-ended interval's edge: 4001 is the Census
 * Bureau's "4,000+", 99 its "100-". The value is served as the API writes it, with this sentence beside it.
 */
export function openEndedNote(field: string, value: number): string {
  const edge = value % 10 === 1 ? value - 1 : value % 10 === 9 ? value + 1 : undefined;
  const words = (n: number): string => n.toLocaleString('en-US');
  if (edge === undefined) return `${field} lies in an open-ended interval (margin code ${OPEN_ENDED}): the Census Bureau publishes no margin of error for it.`;
  const more = edge < value;
  return `Published as "${words(edge)}${more ? '+' : '-'}": the median lies in the open-ended ${more ? 'top' : 'bottom'} interval, so the Census API writes ${value} and gives no margin of error; the true median is ${words(edge)} or ${more ? 'more' : 'less'}.`;
}

/** How each metric is read from a row: one estimate as published, or a share of two published counts. */
type Reading = { estimate: Estimate } | { share: readonly [part: Estimate, whole: Estimate]; of: string };

export const READINGS: Readonly<Record<AcsMetric, Reading>> = {
  medianGrossRent: { estimate: 'B25064_001E' },
  medianHouseholdIncome: { estimate: 'B19013_001E' },
  medianHomeValue: { estimate: 'B25077_001E' },
  medianOwnerCostsWithMortgage: { estimate: 'B25088_002E' },
  homeownershipRate: { share: ['B25003_002E', 'B25002_002E'], of: 'occupied housing units' },
  vacancyRate: { share: ['B25002_003E', 'B25001_001E'], of: 'housing units' },
  housingUnits: { estimate: 'B25001_001E' },
};

const ACS_METRICS: AcsMetric[] = keysOf(READINGS);

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
    return { value: c.value, ...(moe === undefined ? {} : { marginOfError: moe }), ...(openEnded ? { openEnded: true as const } : {}) };
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

/** Every market's values from the places answer, each beside its state's from the states answer; a market without a value is missing with what the file said. */
export function readPlaceAnswers(
  read: ReadFixture,
  markets: readonly MarketDefinition[],
  vintage: string,
): { observations: Observation<AcsMetric>[]; missing: MissingValue<AcsMetric>[]; notes: ValueNote<AcsMetric>[]; skipped: number } {
  const byPlace = new Map(markets.map((m) => [placeKey(m), m]));
  const byState = new Map<string, MarketDefinition[]>();
  for (const m of markets) byState.set(m.placeGeoid.state, [...(byState.get(m.placeGeoid.state) ?? []), m]);

  const places = readResponse(read, PLACES, PLACE_GEOGRAPHY, (key) => {
    const m = byPlace.get(key);
    return m === undefined ? undefined : `state ${m.placeGeoid.state} place ${m.placeGeoid.place} (${m.placeName})`;
  });
  const states = readResponse(read, STATES, STATE_GEOGRAPHY, (key) => {
    const ms = byState.get(key);
    return ms === undefined ? undefined : `state ${key} (${ms[0]?.state ?? key})`;
  });

  const observations: Observation<AcsMetric>[] = [];
  const missing: MissingValue<AcsMetric>[] = [];
  const notes: ValueNote<AcsMetric>[] = [];
  for (const market of markets) {
    const row = places.rows.get(placeKey(market));
    if (row === undefined) {
      // No line: the file has no row, which the load refuses (src/sources/checks.ts) rather than publish the metrics as missing.
      const reason = `the places answer has no row for state ${market.placeGeoid.state} place ${market.placeGeoid.place} (${market.placeName})`;
      for (const metricId of ACS_METRICS) missing.push({ marketId: market.id, metricId, reason, origin: { file: PLACES } });
      continue;
    }
    const stateRow = states.rows.get(market.placeGeoid.state);
    if (stateRow === undefined) {
      throw new FixtureError(
        'missing_row',
        { file: STATES, marketId: market.id },
        `no row for state ${market.placeGeoid.state} (${market.state}), the state of ${market.id}: every market's figures are shown beside its state's`,
      );
    }
    for (const metricId of ACS_METRICS) {
      const reading = READINGS[metricId];
      const figure = figureOf(row, reading);
      if ('absent' in figure) {
        missing.push({ marketId: market.id, metricId, reason: figure.absent, origin: row.origin });
        continue;
      }
      if (figure.openEnded === true && 'estimate' in reading) {
        notes.push({ marketId: market.id, metricId, note: openEndedNote(reading.estimate, figure.value) });
      }
      const state = figureOf(stateRow, reading);
      const comparisons: Comparison[] =
        'absent' in state
          ? []
          : [
              {
                level: 'state',
                code: market.placeGeoid.state,
                name: stateRow.name,
                value: state.value,
                ...(state.marginOfError === undefined ? {} : { marginOfError: state.marginOfError }),
                asOf: vintage,
              },
            ];
      observations.push({
        marketId: market.id,
        metricId,
        value: figure.value,
        ...(figure.marginOfError === undefined ? {} : { marginOfError: figure.marginOfError }),
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
    }
  }
  return { observations, missing, notes, skipped: places.skipped + states.skipped };
}
