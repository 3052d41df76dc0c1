// Reads the four regional place files: each market's row found by state and FIPS place code, never by name; a city the survey publishes county by county (New York City's five boroughs, methodology v1.1) is the sum of its county rows.
import { listWords } from '../../contract/words.ts';
import { FixtureError, type Place } from '../../contract/errors.ts';
import type { MarketDefinition } from '../../contract/markets.ts';
import { eachLine, numeric, splitCsvLine, text } from '../parse.ts';
import type { MissingValue, Observation, ValueNote } from '../source.ts';
import { COL, FIELDS, FILES, HEADER_START, SOURCE_ID, SURVEY, UNITS, YEAR } from './format.ts';
import { PERMITS, type BpsMetric } from './metrics.ts';

/** A code of so many digits, and the pattern that checks it. */
const CODE = (digits: number): { digits: number; pattern: RegExp } => ({ digits, pattern: new RegExp(`^\\d{${digits}}$`) });
const COUNTY_CODE = CODE(3);
const FIVE_DIGITS = CODE(5);

/** The key a market's rows are found by: state and FIPS place code. */
const placeKey = (state: string, place: string): string => `${state}:${place}`;

/** A data row starts with a survey date; the header lines (and the line holding only a space) do not. */
function rowSurveyOf(raw: string): string | undefined {
  const comma = raw.indexOf(',');
  const first = (comma === -1 ? raw : raw.slice(0, comma)).trim();
  return SURVEY.test(first) ? first : undefined;
}

interface BpsRow {
  market: MarketDefinition;
  county: string;
  name: string;
  units: number;
  origin: { file: string; line: number };
}

/** One file's rows of markets, in one pass; the rows of other places are counted, not parsed. */
function readFile(source: string, file: string, byPlace: ReadonlyMap<string, MarketDefinition>): { rows: BpsRow[]; skipped: number; survey: string } {
  const rows: BpsRow[] = [];
  let skipped = 0;
  let survey: string | undefined;
  let headerSeen = false;
  let lastLine = 0;
  eachLine(source, (raw, line) => {
    lastLine = line;
    const rowSurvey = rowSurveyOf(raw);
    if (rowSurvey === undefined) {
      // Header lines come before the first data row, and the first of them names the columns from "Survey".
      if (survey !== undefined) throw new FixtureError('bad_shape', { file, line }, 'a line that is not a data row (no survey date) after the data rows began');
      if (!headerSeen && !raw.startsWith(HEADER_START)) {
        throw new FixtureError(
          'bad_shape',
          { file, line },
          `expected the BPS place file's header ("Survey,State,6-Digit,..."), got ${JSON.stringify(raw.slice(0, 40))}`,
        );
      }
      headerSeen = true;
      return;
    }
    if (!headerSeen) throw new FixtureError('bad_shape', { file, line }, 'a data row before the header lines ("Survey,State,6-Digit,...")');
    if (survey !== undefined && rowSurvey !== survey) {
      throw new FixtureError('bad_shape', { file, line, column: 'Survey Date' }, `survey date ${rowSurvey}, but the rows above say ${survey}`);
    }
    survey = rowSurvey;
    // State and FIPS place are the second and sixth fields: enough to know whether the row is a market's.
    const head = raw.split(',', 6);
    const market = byPlace.get(placeKey((head[COL.state] ?? '').trim(), (head[COL.fipsPlace] ?? '').trim()));
    if (market === undefined) {
      skipped += 1;
      return;
    }
    rows.push(parseRow(raw, { file, line }, market));
  });
  if (!headerSeen) throw new FixtureError('bad_shape', { file, line: 1 }, 'the file is empty: no header and no data rows');
  if (survey === undefined) throw new FixtureError('bad_shape', { file, line: lastLine }, 'no data rows after the header (a truncated file?)');
  return { rows, skipped, survey };
}

function code(raw: string, { digits, pattern }: { digits: number; pattern: RegExp }, place: Place, column: string): string {
  const value = raw.trim();
  if (!pattern.test(value))
    throw new FixtureError('bad_shape', { ...place, column }, `"${column}" must be a code of ${digits} digits, got ${JSON.stringify(raw)}`);
  return value;
}

function parseRow(raw: string, place: { file: string; line: number }, market: MarketDefinition): BpsRow {
  const fields = splitCsvLine(raw, place);
  if (fields.length !== FIELDS) throw new FixtureError('bad_shape', place, `expected ${FIELDS} fields, got ${fields.length}`);
  // Every column below is one of the FIELDS just counted.
  const at = (column: number): string => fields[column] ?? '';
  const survey = at(COL.survey).trim();
  if (survey.slice(0, 4) !== String(YEAR)) {
    throw new FixtureError('bad_shape', { ...place, column: 'Survey Date' }, `survey date ${survey} in the ${YEAR} file`);
  }
  // The state code needs no check: the row was found by it, and nothing ahead of it can be quoted (the survey date is digits).
  const county = code(at(COL.county), COUNTY_CODE, place, 'County Code');
  code(at(COL.fipsPlace), FIVE_DIGITS, place, 'FIPS Place Code');
  code(at(COL.fipsMcd), FIVE_DIGITS, place, 'FIPS MCD Code');
  const name = text(at(COL.placeName), place, 'Place Name').trim();
  const units = UNITS.map(({ column, name: unitName }) => {
    const n = numeric(at(column), place, unitName);
    if (!Number.isInteger(n) || n < 0)
      throw new FixtureError('not_numeric', { ...place, column: unitName }, `units must be a count, got ${JSON.stringify(at(column))}`);
    return n;
  });
  return { market, county, name, units: units.reduce((a, b) => a + b, 0), origin: place };
}

const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** What a reader of the page is told about a market whose permits add up several rows: which rows, and why. */
function sumNote(market: MarketDefinition, parts: readonly { name: string }[]): string {
  const count = COUNT_WORDS[parts.length] ?? String(parts.length);
  return `The sum of the ${count} rows the Building Permits Survey publishes for ${market.placeName}, one per county: ${listWords(parts.map((p) => p.name))}.`;
}

const describeRow = (r: BpsRow): string => `${r.origin.file}:${r.origin.line}`;

/** The rows each market's permits add up, checked against the registry: one row of the place, or one per listed county. */
function permitsOf(market: MarketDefinition, rows: readonly BpsRow[]): { units: number; origin: { file: string; line: number } } | { missing: string } {
  const where = `state ${market.placeGeoid.state} place ${market.placeGeoid.place}`;
  const parts = market.counties;
  if (parts === undefined) {
    const [first, second] = rows;
    if (first === undefined) return { missing: `none of the four BPS place files has a row for ${where} (${market.placeName})` };
    if (second !== undefined) {
      throw new FixtureError('duplicate_row', second.origin, `second row for ${where} (${second.name}); the first is on ${describeRow(first)}`);
    }
    return { units: first.units, origin: first.origin };
  }
  const byCounty = new Map<string, BpsRow>();
  for (const row of rows) {
    if (!parts.some((p) => p.countyFips === row.county)) {
      throw new FixtureError(
        'bad_shape',
        { ...row.origin, column: 'County Code' },
        `a row for ${where} in county ${row.county} (${row.name}), which is not one of the ${parts.length} the market adds up (${parts.map((p) => p.countyFips).join(', ')})`,
      );
    }
    const previous = byCounty.get(row.county);
    if (previous !== undefined) {
      throw new FixtureError(
        'duplicate_row',
        row.origin,
        `second row for ${where} county ${row.county} (${row.name}); the first is on ${describeRow(previous)}`,
      );
    }
    byCounty.set(row.county, row);
  }
  const absent = parts.filter((p) => !byCounty.has(p.countyFips));
  if (absent.length > 0) {
    return {
      missing: `the permits of ${market.placeName} are the sum of ${parts.length} rows (${parts.map((p) => p.name).join(', ')}); the BPS place files lack ${absent.map((p) => `${p.name} (county ${p.countyFips})`).join(', ')}`,
    };
  }
  // Rows come in reading order, so within a file the first is the earliest line: the origin is the first row of the file whose name sorts first.
  const first = rows.reduce((a, b) => (b.origin.file < a.origin.file ? b : a));
  return { units: rows.reduce((n, r) => n + r.units, 0), origin: first.origin };
}

export interface BpsValues {
  observations: Observation<BpsMetric>[];
  missing: MissingValue<BpsMetric>[];
  notes: ValueNote<BpsMetric>[];
  skipped: number;
  /** The survey date the files' rows carry. */
  survey: string;
}

/** The survey date the first regional file's rows carry: the files' vintage. */
export const fileSurvey = (source: string, file: string): string => readFile(source, file, new Map()).survey;

/** Every market's permits from the four files; a market without its rows is missing with the reason. */
export function readPlaceFiles(read: (path: string) => string, markets: readonly MarketDefinition[]): BpsValues {
  const byPlace = new Map(markets.map((m) => [placeKey(m.placeGeoid.state, m.placeGeoid.place), m]));
  const rowsOf = new Map<string, BpsRow[]>();
  let skipped = 0;
  let survey = String(YEAR);
  for (const file of FILES) {
    const got = readFile(read(file), file, byPlace);
    skipped += got.skipped;
    survey = got.survey;
    for (const row of got.rows) rowsOf.set(row.market.id, [...(rowsOf.get(row.market.id) ?? []), row]);
  }
  const observations: Observation<BpsMetric>[] = [];
  const missing: MissingValue<BpsMetric>[] = [];
  const notes: ValueNote<BpsMetric>[] = [];
  for (const market of markets) {
    const result = permitsOf(market, rowsOf.get(market.id) ?? []);
    if ('missing' in result) {
      missing.push({ marketId: market.id, metricId: PERMITS, reason: result.missing, origin: { file: FILES.join(', ') } });
      continue;
    }
    observations.push({
      marketId: market.id,
      metricId: PERMITS,
      value: result.units,
      asOf: survey,
      sourceId: SOURCE_ID,
      boundary: {
        level: 'place',
        name: market.placeName,
        codes: { stateFips: market.placeGeoid.state, placeFips: market.placeGeoid.place },
        states: [market.stateCode],
      },
      origin: result.origin,
    });
    if (market.counties !== undefined) notes.push({ marketId: market.id, metricId: PERMITS, note: sumNote(market, market.counties) });
  }
  return { observations, missing, notes, skipped, survey };
}
