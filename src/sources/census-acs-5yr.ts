// Adapter for the Census ACS 5-year estimates: reads Census Data API rows (JSON arrays of strings).
import { FixtureError } from '../errors.ts';
import type { MarketDefinition } from '../markets.ts';
import { arrayElementLines, numeric, parseJson, readRetrieval, roundTo, text, withRetrieval } from './parse.ts';
import type { Observation, ReadFixture, SourceAdapter, SourceLoad } from './types.ts';

const DIR = 'census-acs-5yr';
const DETAILED = `${DIR}/acs5-2024-detailed-place.json`;
const PROFILE = `${DIR}/acs5-2024-profile-place.json`;

/** The Census API writes annotation codes such as -666666666 where an estimate is not available. */
const isAnnotation = (value: number): boolean => value < 0;

interface ApiRow {
  market: MarketDefinition;
  name: string;
  get(field: string): number | undefined;
  origin: { file: string; line: number };
}

/** Reads one Census API response: a header row of variable names, then one row of strings per geography. */
function readApiRows(read: ReadFixture, file: string, fields: readonly string[], markets: readonly MarketDefinition[]): ApiRow[] {
  const source = read(file);
  const parsed = parseJson(source, file);
  const lineOf = arrayElementLines(source);
  if (!Array.isArray(parsed) || parsed.length === 0) {
    throw new FixtureError('bad_shape', { file }, 'expected a Census API response: an array whose first row names the variables');
  }
  const header = parsed[0] as unknown;
  if (!Array.isArray(header) || !header.every((cell) => typeof cell === 'string')) {
    throw new FixtureError('bad_shape', { file, line: lineOf[0], pointer: '/0' }, 'the first row must be the header: an array of variable names');
  }
  const columns = header as string[];
  for (const field of ['NAME', ...fields, 'state', 'place']) {
    if (!columns.includes(field)) {
      throw new FixtureError('missing_field', { file, line: lineOf[0], pointer: '/0', column: field }, `header has no "${field}" column`);
    }
  }
  const byGeoid = new Map(markets.map((m) => [`${m.placeGeoid.state}${m.placeGeoid.place}`, m]));
  const seen = new Map<string, number>();
  const rows: ApiRow[] = [];
  for (let r = 1; r < parsed.length; r += 1) {
    const row = parsed[r] as unknown;
    const line = lineOf[r] ?? 0;
    const place = { file, line, pointer: `/${r}` };
    if (!Array.isArray(row) || row.length !== columns.length || !row.every((cell) => typeof cell === 'string' || cell === null)) {
      throw new FixtureError('bad_shape', place, `row must be an array of ${columns.length} strings, like the header`);
    }
    const cell = (field: string): string | undefined => {
      const value = row[columns.indexOf(field)] as string | null;
      return value === null ? undefined : value;
    };
    const name = text(cell('NAME'), place, 'NAME');
    const state = text(cell('state'), place, 'state');
    const placeCode = text(cell('place'), place, 'place');
    const geoid = `${state}${placeCode}`;
    const market = byGeoid.get(geoid);
    if (market === undefined) {
      throw new FixtureError(
        'unknown_market_code',
        { ...place, column: 'state+place' },
        `state ${state} place ${placeCode} (${name}) is not a supported market`,
      );
    }
    const previous = seen.get(geoid);
    if (previous !== undefined) {
      throw new FixtureError('duplicate_row', place, `second row for state ${state} place ${placeCode} (${name}); the first is on line ${previous}`);
    }
    seen.set(geoid, line);
    const values = new Map<string, number>();
    for (const field of fields) values.set(field, numeric(cell(field), place, field));
    rows.push({
      market,
      name,
      get: (field) => {
        const value = values.get(field);
        return value === undefined || isAnnotation(value) ? undefined : value;
      },
      origin: { file, line },
    });
  }
  return rows;
}

const DETAILED_FIELDS = [
  'B25064_001E',
  'B19013_001E',
  'B25001_001E',
  'B25070_001E',
  'B25070_007E',
  'B25070_008E',
  'B25070_009E',
  'B25070_010E',
  'B25070_011E',
] as const;

export const censusAcs5yr: SourceAdapter = {
  sourceId: 'census-acs-5yr',
  files: [DETAILED, PROFILE, `${DIR}/retrieval.json`],
  remote: [],
  load(read, markets): SourceLoad {
    const retrieval = readRetrieval(read, DIR);
    const observations: Observation[] = [];
    const emit = (row: ApiRow, metricId: string, value: number | undefined): void => {
      if (value === undefined) return;
      observations.push({
        marketId: row.market.id,
        metricId,
        value,
        asOf: retrieval.vintage,
        sourceId: 'census-acs-5yr',
        boundary: {
          level: 'place',
          name: row.name,
          codes: { stateFips: row.market.placeGeoid.state, placeFips: row.market.placeGeoid.place },
          states: [row.market.stateCode],
        },
        origin: row.origin,
      });
    };
    for (const row of readApiRows(read, DETAILED, DETAILED_FIELDS, markets)) {
      emit(row, 'medianGrossRent', row.get('B25064_001E'));
      emit(row, 'medianHouseholdIncome', row.get('B19013_001E'));
      emit(row, 'housingUnits', row.get('B25001_001E'));
      const total = row.get('B25070_001E');
      const notComputed = row.get('B25070_011E');
      const burdened = ['B25070_007E', 'B25070_008E', 'B25070_009E', 'B25070_010E'].map((f) => row.get(f));
      if (total !== undefined && notComputed !== undefined && total > notComputed && burdened.every((v) => v !== undefined)) {
        const sum = burdened.reduce<number>((acc, v) => acc + (v ?? 0), 0);
        emit(row, 'rentBurden', roundTo((sum / (total - notComputed)) * 100, 1));
      }
    }
    for (const row of readApiRows(read, PROFILE, ['DP04_0005E'], markets)) {
      const rate = row.get('DP04_0005E');
      emit(row, 'rentalVacancyRate', rate === undefined ? undefined : roundTo(rate, 1));
    }
    return {
      source: withRetrieval(
        {
          sourceId: 'census-acs-5yr',
          sourceName: 'American Community Survey 5-year estimates',
          agency: 'U.S. Census Bureau',
          datasetName: `ACS 5-year estimates ${retrieval.vintage}: tables B25064, B19013, B25001, B25070 and profile DP04`,
          sourceUrl: 'https://www.census.gov/programs-surveys/acs',
          confidence: 'high',
          updateFrequency: 'annually',
          provenance: 'fixture',
        },
        retrieval,
      ),
      observations,
      missing: [],
      skipped: 0,
    };
  },
};
