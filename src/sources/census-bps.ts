// Adapter for the Census Building Permits Survey: reads the four regional annual place files as the Census Bureau publishes them.
//
// Each file (`ne2025a.txt`, `mw2025a.txt`, `so2025a.txt`, `we2025a.txt`) starts with a header spread over several lines
// (column names on two lines, then a line holding a space), then one comma-separated row of 41 fields per permit office.
// Code fields are space-padded (`51000 ,00000 ,1401142 ,`); offices in states that report through minor civil
// divisions carry an MCD code beside their place code (Boston `07000 ,07000 ,`), townships carry place code `00000`.
// A market's row is found by state and FIPS place code, never by name; New York City is the sum of its five borough
// rows (methodology v1.1), which share the city's place code and differ by county.
import { listWords } from '../contract/schemas.ts';
import { FixtureError, type Place } from '../contract/errors.ts';
import type { MarketDefinition } from '../contract/markets.ts';
import { eachLine, numeric, readRetrieval, splitCsvLine, text, withRetrieval } from './parse.ts';
import type { MissingValue, Observation, ReadFixture, RemoteFile, SourceAdapter, SourceLoad, ValueNote } from './types.ts';

const DIR = 'census-bps';
/** The survey year the files hold; a new year's files are a new vintage (their names change). */
const YEAR = 2025;
const REGIONS = [
  { code: 'ne', folder: 'Northeast Region' },
  { code: 'mw', folder: 'Midwest Region' },
  { code: 'so', folder: 'South Region' },
  { code: 'we', folder: 'West Region' },
] as const;
const fileOf = (region: (typeof REGIONS)[number]): string => `${DIR}/${region.code}${YEAR}a.txt`;
const FILES = REGIONS.map(fileOf);
const REMOTE: RemoteFile[] = REGIONS.map((r) => ({
  file: fileOf(r),
  url: `https://www2.census.gov/econ/bps/Place/${encodeURIComponent(r.folder)}/${r.code}${YEAR}a.txt`,
}));

const FIELDS = 41;
const COL = { survey: 0, county: 3, fipsPlace: 5, fipsMcd: 6, placeName: 16 } as const;
/** Units columns of the four structure-size groups, with imputation for months not reported. */
const UNITS = [
  { column: 18, name: '1-unit Units' },
  { column: 21, name: '2-units Units' },
  { column: 24, name: '3-4 units Units' },
  { column: 27, name: '5+ units Units' },
] as const;
/** A survey date of a data row: the year (annual files), or a year and month. */
const SURVEY = /^\d{4}(\d{2})?$/;
/** A code of so many digits, and the pattern that checks it. */
const CODE = (digits: number): { digits: number; pattern: RegExp } => ({ digits, pattern: new RegExp(`^\\d{${digits}}$`) });
const COUNTY_CODE = CODE(3);
const FIVE_DIGITS = CODE(5);

/** The key a market's rows are found by: state and FIPS place code. */
const placeKey = (state: string, place: string): string => `${state}:${place}`;

/** A data row starts with a survey date; the header lines (and the line holding only a space) do not. */
function surveyOf(raw: string): string | undefined {
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
    const rowSurvey = surveyOf(raw);
    if (rowSurvey === undefined) {
      // Header lines come before the first data row, and the first of them names the columns from "Survey".
      if (survey !== undefined) throw new FixtureError('bad_shape', { file, line }, 'a line that is not a data row (no survey date) after the data rows began');
      if (!headerSeen && !raw.startsWith('Survey,')) {
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
    const market = byPlace.get(placeKey((head[1] ?? '').trim(), (head[5] ?? '').trim()));
    if (market === undefined) {
      skipped += 1;
      return;
    }
    rows.push(parseRow(raw, { file, line }, market));
  });
  if (!headerSeen) throw new FixtureError('bad_shape', { file }, 'the file is empty: no header and no data rows');
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
  const at = (column: number): string => fields[column] as string;
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
  const parts = market.bpsParts;
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

export const censusBps: SourceAdapter = {
  sourceId: 'census-bps',
  files: [...FILES, `${DIR}/retrieval.json`],
  remote: REMOTE,
  vintageOf: (read: ReadFixture) => {
    const first = fileOf(REGIONS[0]);
    return readFile(read(first), first, new Map()).survey;
  },
  load(read, markets): SourceLoad {
    const retrieval = readRetrieval(read, DIR);
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
    const observations: Observation[] = [];
    const missing: MissingValue[] = [];
    const notes: ValueNote[] = [];
    for (const market of markets) {
      const result = permitsOf(market, rowsOf.get(market.id) ?? []);
      if ('missing' in result) {
        missing.push({ marketId: market.id, metricId: 'permits', reason: result.missing, origin: { file: FILES.join(', ') } });
        continue;
      }
      observations.push({
        marketId: market.id,
        metricId: 'permits',
        value: result.units,
        asOf: survey,
        sourceId: 'census-bps',
        boundary: {
          level: 'place',
          name: market.placeName,
          codes: { stateFips: market.placeGeoid.state, placeFips: market.placeGeoid.place },
          states: [market.stateCode],
        },
        origin: result.origin,
      });
      if (market.bpsParts !== undefined) notes.push({ marketId: market.id, metricId: 'permits', note: sumNote(market, market.bpsParts) });
    }
    return {
      source: withRetrieval(
        {
          sourceId: 'census-bps',
          sourceName: 'Building Permits Survey',
          agency: 'U.S. Census Bureau',
          datasetName: `Building Permits Survey, annual place files, new privately-owned housing units authorized (${retrieval.vintage})`,
          sourceUrl: 'https://www.census.gov/construction/bps/',
          confidence: 'high',
          updateFrequency: 'annually',
          provenance: 'fixture',
        },
        retrieval,
      ),
      observations,
      missing,
      skipped,
      ...(retrieval.illustrative === undefined ? {} : { illustrative: retrieval.illustrative }),
      notes,
    };
  },
};
