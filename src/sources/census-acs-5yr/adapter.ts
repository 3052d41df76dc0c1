// Reads the Census API's answers: each market's row found by state and place code, cells by column name, annotation values as missing with the reason, and the two cost-burden shares computed from their rows.
import { FixtureError, type Place } from '../../contract/errors.ts';
import type { MarketDefinition } from '../../contract/markets.ts';
import { arrayElementLines, numeric, parseJson, roundTo, text } from '../parse.ts';
import type { MissingValue, Observation, ReadFixture } from '../source.ts';
import {
  ANNOTATIONS,
  DETAILED,
  DETAILED_FIELDS,
  OWNER_BURDEN_FIELDS,
  PROFILE,
  PROFILE_FIELDS,
  RENT_BURDEN_FIELDS,
  SOURCE_ID,
  marginOf,
  type MarginOf,
} from './format.ts';

export type AcsMetric =
  | 'medianGrossRent'
  | 'medianHouseholdIncome'
  | 'medianRenterIncome'
  | 'rentBurden'
  | 'medianHomeValue'
  | 'ownerCostBurden'
  | 'rentalVacancyRate'
  | 'housingUnits';

/** One cell of a market's row: a number, or why the file gives none. */
type Cell = { value: number } | { absent: string };

function cellOf(raw: unknown, field: string, place: Place): Cell {
  if (raw === null) return { absent: `${field} is null: the Census API has no data for this place` };
  if (typeof raw !== 'string') {
    throw new FixtureError('bad_shape', { ...place, column: field }, `cell "${field}" must be a string or null, got ${JSON.stringify(raw)}`);
  }
  const annotation = ANNOTATIONS.get(raw.trim());
  if (annotation !== undefined) return { absent: `${field} is ${raw.trim()}: the Census API's annotation that ${annotation}` };
  const value = numeric(raw, place, field);
  if (value < 0) return { absent: `${field} is ${raw.trim()}: a negative annotation value, not an estimate` };
  return { value };
}

/** A market's row: its cells by field, every field of the query present. */
interface ApiRow<F extends string> {
  market: MarketDefinition;
  name: string;
  cells: Readonly<Record<F, Cell>>;
  origin: { file: string; line: number };
}

interface ApiResponse<F extends string> {
  rows: ApiRow<F>[];
  /** Rows of places that are not markets. */
  skipped: number;
}

const placeKey = (state: string, place: string): string => `${state}:${place}`;

/**
 * Reads one Census API response: a JSON array whose first row names the columns (the requested variables, then the
 * geography columns `state` and `place`) and whose other rows are places, every cell a string or null. Columns are
 * found by name. A row of a place that is not a market is counted and left unread past its `state` and `place`.
 */
function readResponse<F extends string>(read: ReadFixture, file: string, fields: readonly F[], byPlace: ReadonlyMap<string, MarketDefinition>): ApiResponse<F> {
  const source = read(file);
  const parsed = parseJson(source, file);
  let lines: number[] | undefined;
  const lineOf = (r: number): number => (lines ??= arrayElementLines(source))[r] ?? 0;
  if (!Array.isArray(parsed) || parsed.length === 0) {
    throw new FixtureError('bad_shape', { file }, 'expected a Census API response: an array whose first row names the variables');
  }
  const header = parsed[0] as unknown;
  if (!Array.isArray(header) || !header.every((cell) => typeof cell === 'string')) {
    throw new FixtureError('bad_shape', { file, line: lineOf(0), pointer: '/0' }, 'the first row must be the header: an array of variable names');
  }
  const columns = header as string[];
  const index = new Map<string, number>();
  columns.forEach((name, i) => {
    if (index.has(name)) throw new FixtureError('bad_shape', { file, line: lineOf(0), pointer: `/0/${i}`, column: name }, `header names "${name}" twice`);
    index.set(name, i);
  });
  const at = (field: string): number => {
    const i = index.get(field);
    if (i === undefined) throw new FixtureError('missing_field', { file, line: lineOf(0), pointer: '/0', column: field }, `header has no "${field}" column`);
    return i;
  };
  const iName = at('NAME');
  const iState = at('state');
  const iPlace = at('place');
  const iFields = fields.map((field) => [field, at(field)] as const);
  const width = columns.length;

  const seen = new Map<string, number>();
  const rows: ApiRow<F>[] = [];
  let skipped = 0;
  for (let r = 1; r < parsed.length; r += 1) {
    const row = parsed[r] as unknown;
    if (!Array.isArray(row) || row.length !== width) {
      const got = Array.isArray(row) ? `${row.length} cells` : `a ${row === null ? 'null' : typeof row}`;
      throw new FixtureError('bad_shape', { file, line: lineOf(r), pointer: `/${r}` }, `row ${r} has ${got}; the header names ${width} columns`);
    }
    const state = row[iState] as unknown;
    const placeCode = row[iPlace] as unknown;
    const market = typeof state === 'string' && typeof placeCode === 'string' ? byPlace.get(placeKey(state, placeCode)) : undefined;
    if (market === undefined) {
      skipped += 1;
      continue;
    }
    const line = lineOf(r);
    const place = { file, line, pointer: `/${r}` };
    const key = placeKey(market.placeGeoid.state, market.placeGeoid.place);
    const previous = seen.get(key);
    if (previous !== undefined) {
      throw new FixtureError(
        'duplicate_row',
        place,
        `second row for state ${market.placeGeoid.state} place ${market.placeGeoid.place} (${market.placeName}); the first is on line ${previous}`,
      );
    }
    seen.set(key, line);
    const nameCell = row[iName] as unknown;
    const name = text(typeof nameCell === 'string' ? nameCell : undefined, place, 'NAME');
    // Filled for every field of the query just below.
    const cells = {} as Record<F, Cell>;
    for (const [field, i] of iFields) cells[field] = cellOf(row[i] as unknown, field, place);
    rows.push({ market, name, cells, origin: { file, line } });
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

/** Every market's values from the two answers; a market without a value is missing with what the file said. */
export function readMarkets(
  read: ReadFixture,
  markets: readonly MarketDefinition[],
  vintage: string,
): { observations: Observation<AcsMetric>[]; missing: MissingValue<AcsMetric>[]; skipped: number } {
  const byPlace = new Map(markets.map((m) => [placeKey(m.placeGeoid.state, m.placeGeoid.place), m]));
  const observations: Observation<AcsMetric>[] = [];
  const missing: MissingValue<AcsMetric>[] = [];
  const emit = (row: ApiRow<string>, metricId: AcsMetric, value: number, marginOfError: number | undefined): void => {
    observations.push({
      marketId: row.market.id,
      metricId,
      value,
      ...(marginOfError === undefined ? {} : { marginOfError }),
      asOf: vintage,
      sourceId: SOURCE_ID,
      boundary: {
        level: 'place',
        name: row.name,
        codes: { stateFips: row.market.placeGeoid.state, placeFips: row.market.placeGeoid.place },
        states: [row.market.stateCode],
      },
      origin: row.origin,
    });
  };
  const absent = (row: ApiRow<string>, metricId: AcsMetric, reason: string): void => {
    missing.push({ marketId: row.market.id, metricId, reason, origin: row.origin });
  };
  /** The margin of an estimate's cell, where the answer gives one (an annotation or a null there leaves the estimate without it). */
  const margin = <F extends string>(row: ApiRow<F>, field: F): number | undefined => {
    const cell = row.cells[field];
    return 'value' in cell ? cell.value : undefined;
  };
  const single = <E extends string>(
    row: ApiRow<E | MarginOf<E>>,
    metricId: AcsMetric,
    field: E,
    moeField: MarginOf<E>,
    shape: (value: number) => number = (v) => v,
  ): void => {
    const cell = row.cells[field];
    if ('absent' in cell) {
      absent(row, metricId, cell.absent);
      return;
    }
    const moe = margin(row, moeField);
    emit(row, metricId, shape(cell.value), moe === undefined ? undefined : shape(moe));
  };

  /**
   * A cost-burden share from a table's rows: [total, the four groups at 30 % or more, not computed], all needed.
   * Share = the four groups over the total less those not computed, %, one decimal.
   */
  const burden = <E extends string>(
    row: ApiRow<E | MarginOf<E>>,
    metricId: AcsMetric,
    what: string,
    fields: readonly [E, E, E, E, E, E],
    margins: readonly MarginOf<E>[],
    whom: string,
  ): void => {
    const cells = fields.map((field) => row.cells[field]);
    const gaps = cells.flatMap((cell) => ('absent' in cell ? [cell.absent] : []));
    const [first, second, , , fifth, last] = fields;
    if (gaps.length > 0) {
      absent(row, metricId, `${what} needs all of ${first}, ${second.slice(-5)} to ${fifth.slice(-5)} and ${last.slice(-5)}; ${gaps.join('; ')}`);
      return;
    }
    const [total = 0, b30 = 0, b35 = 0, b40 = 0, b50 = 0, notComputed = 0] = cells.map((cell) => ('value' in cell ? cell.value : 0));
    const computed = total - notComputed;
    if (computed <= 0) {
      absent(row, metricId, `${first} (${total}) less ${last} (${notComputed}) leaves no ${whom} whose burden was computed`);
      return;
    }
    const burdened = b30 + b35 + b40 + b50;
    // The share's margin, where the answer gives every cell's: the groups' sum and the difference of the total and those not computed.
    const [mTotal, m30, m35, m40, m50, mNotComputed] = margins.map((field) => margin(row, field));
    const moe =
      mTotal === undefined || m30 === undefined || m35 === undefined || m40 === undefined || m50 === undefined || mNotComputed === undefined
        ? undefined
        : proportionMargin(burdened, Math.hypot(m30, m35, m40, m50), computed, Math.hypot(mTotal, mNotComputed));
    emit(row, metricId, roundTo((burdened / computed) * 100, 1), moe === undefined ? undefined : roundTo(moe * 100, 1));
  };

  const detailed = readResponse(read, DETAILED, DETAILED_FIELDS, byPlace);
  for (const row of detailed.rows) {
    single(row, 'medianGrossRent', 'B25064_001E', 'B25064_001M');
    single(row, 'medianHouseholdIncome', 'B19013_001E', 'B19013_001M');
    single(row, 'medianRenterIncome', 'B25119_003E', 'B25119_003M');
    single(row, 'medianHomeValue', 'B25077_001E', 'B25077_001M');
    single(row, 'housingUnits', 'B25001_001E', 'B25001_001M');
    burden(row, 'rentBurden', 'the rent burden', RENT_BURDEN_FIELDS, RENT_BURDEN_FIELDS.map(marginOf), 'renter household');
    burden(row, 'ownerCostBurden', 'the owner cost burden', OWNER_BURDEN_FIELDS, OWNER_BURDEN_FIELDS.map(marginOf), 'owner household with a mortgage');
  }
  const profile = readResponse(read, PROFILE, PROFILE_FIELDS, byPlace);
  for (const row of profile.rows) single(row, 'rentalVacancyRate', 'DP04_0005E', 'DP04_0005M', (v) => roundTo(v, 1));
  return { observations, missing, skipped: detailed.skipped + profile.skipped };
}
