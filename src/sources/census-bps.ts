// Adapter for the Census Building Permits Survey: reads the annual place file (two header lines, 41 columns).
import { FixtureError } from '../errors.ts';
import { lines, numeric, readRetrieval, splitCsvLine, text, withRetrieval } from './parse.ts';
import type { Observation, SourceAdapter, SourceLoad } from './types.ts';

const DIR = 'census-bps';
const FILE = `${DIR}/place-annual-2025.txt`;
const FIELDS = 41;
const COL = { survey: 0, state: 1, fipsPlace: 5, fipsMcd: 6, placeName: 16 } as const;
/** Units columns of the four imputed groups: 1-unit, 2-units, 3-4 units, 5+ units. */
const UNIT_COLUMNS = [18, 21, 24, 27] as const;
const UNIT_NAMES = ['1-unit units', '2-units units', '3-4 units units', '5+ units units'] as const;

export const censusBps: SourceAdapter = {
  sourceId: 'census-bps',
  files: [FILE, `${DIR}/retrieval.json`],
  remote: [],
  load(read, markets): SourceLoad {
    const retrieval = readRetrieval(read, DIR);
    const byGeoid = new Map(markets.map((m) => [`${m.placeGeoid.state}${m.placeGeoid.place}`, m]));
    const rows = lines(read(FILE));
    const [first, second] = rows;
    if (first === undefined || second === undefined || !first.text.startsWith('Survey,') || !second.text.startsWith('Date,')) {
      throw new FixtureError(
        'bad_shape',
        { file: FILE, line: first?.line ?? 1 },
        'expected the two BPS header lines ("Survey,State,..." then "Date,Code,...")',
      );
    }
    const seen = new Map<string, number>();
    const observations: Observation[] = [];
    for (const { line, text: raw } of rows.slice(2)) {
      const place = { file: FILE, line };
      const fields = splitCsvLine(raw, place);
      if (fields.length !== FIELDS) {
        throw new FixtureError('bad_shape', place, `expected ${FIELDS} fields, got ${fields.length}`);
      }
      const survey = text(fields[COL.survey], place, 'Survey Date');
      const state = text(fields[COL.state], place, 'State Code');
      const fipsPlace = text(fields[COL.fipsPlace], place, 'FIPS Place Code');
      const mcd = fields[COL.fipsMcd] ?? '';
      const name = text(fields[COL.placeName], place, 'Place Name');
      const units = UNIT_COLUMNS.map((column, i) => numeric(fields[column], place, UNIT_NAMES[i] ?? String(column)));
      // Rows with an MCD code are county subdivisions (New York City's boroughs, for example);
      // methodology v1.0 reads place rows only and does not add subdivisions up into a place.
      if (mcd.trim() !== '' && mcd.trim() !== '00000') continue;
      const geoid = `${state}${fipsPlace}`;
      const market = byGeoid.get(geoid);
      if (market === undefined) {
        throw new FixtureError(
          'unknown_market_code',
          { ...place, column: 'State Code+FIPS Place' },
          `state ${state} place ${fipsPlace} (${name}) is not a supported market`,
        );
      }
      const previous = seen.get(geoid);
      if (previous !== undefined) {
        throw new FixtureError('duplicate_row', place, `second row for state ${state} place ${fipsPlace} (${name}); the first is on line ${previous}`);
      }
      seen.set(geoid, line);
      observations.push({
        marketId: market.id,
        metricId: 'permits',
        value: units.reduce((a, b) => a + b, 0),
        asOf: survey,
        sourceId: 'census-bps',
        boundary: {
          level: 'place',
          name: market.placeName,
          codes: { stateFips: state, placeFips: fipsPlace },
          states: [market.stateCode],
        },
        origin: { file: FILE, line },
      });
    }
    return {
      source: withRetrieval(
        {
          sourceId: 'census-bps',
          sourceName: 'Building Permits Survey',
          agency: 'U.S. Census Bureau',
          datasetName: `Building Permits Survey, annual place-level new housing units authorized (${retrieval.vintage})`,
          sourceUrl: 'https://www.census.gov/construction/bps/',
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
