// Adapter for the FHFA House Price Index: reads HPI_AT_metro.csv (no header; name, CBSA, year, quarter, index, SE).
import { FixtureError } from '../errors.ts';
import { lines, numeric, readRetrieval, roundTo, splitCsvLine, text, withRetrieval } from './parse.ts';
import type { Observation, SourceAdapter, SourceLoad } from './types.ts';

const DIR = 'fhfa-hpi';
const FILE = `${DIR}/HPI_AT_metro.csv`;

interface Quarter {
  year: number;
  quarter: number;
  index: number;
  line: number;
}

const quarterLabel = (q: { year: number; quarter: number }): string => `${q.year} Q${q.quarter}`;

export const fhfaHpi: SourceAdapter = {
  sourceId: 'fhfa-hpi',
  files: [FILE, `${DIR}/retrieval.json`],
  remote: [],
  load(read, markets): SourceLoad {
    const retrieval = readRetrieval(read, DIR);
    const byCbsa = new Map(markets.map((m) => [m.cbsaCode, m]));
    const series = new Map<string, { name: string; quarters: Map<string, Quarter> }>();
    for (const { line, text: raw } of lines(read(FILE))) {
      const place = { file: FILE, line };
      const fields = splitCsvLine(raw, place);
      if (fields.length !== 6) {
        throw new FixtureError('bad_shape', place, `expected 6 fields (name, CBSA, year, quarter, index, standard error), got ${fields.length}`);
      }
      const name = text(fields[0], place, 'metro name');
      const cbsa = text(fields[1], place, 'CBSA');
      const year = numeric(fields[2], place, 'year');
      const quarter = numeric(fields[3], place, 'quarter');
      if (!Number.isInteger(year) || !Number.isInteger(quarter) || quarter < 1 || quarter > 4) {
        throw new FixtureError('bad_shape', place, `year ${fields[2]} and quarter ${fields[3]} do not name a calendar quarter`);
      }
      if (!byCbsa.has(cbsa)) {
        throw new FixtureError('unknown_market_code', { ...place, column: 'CBSA' }, `CBSA ${cbsa} (${name}) is not the metro of a supported market`);
      }
      const entry = series.get(cbsa) ?? { name, quarters: new Map<string, Quarter>() };
      series.set(cbsa, entry);
      const key = `${year}-${quarter}`;
      const previous = entry.quarters.get(key);
      if (previous !== undefined) {
        throw new FixtureError('duplicate_row', place, `second row for CBSA ${cbsa} ${year} Q${quarter}; the first is on line ${previous.line}`);
      }
      // FHFA writes "-" where a metro has too few transactions for an index value.
      if (fields[4] === '-') continue;
      entry.quarters.set(key, { year, quarter, index: roundTo(numeric(fields[4], place, 'index'), 2), line });
    }

    const observations: Observation[] = [];
    for (const market of markets) {
      const entry = series.get(market.cbsaCode);
      if (entry === undefined) continue;
      const ordered = [...entry.quarters.values()].sort((a, b) => a.year - b.year || a.quarter - b.quarter);
      const latest = ordered.at(-1);
      if (latest === undefined) continue;
      const boundary = {
        level: 'cbsa' as const,
        name: entry.name,
        codes: { cbsa: market.cbsaCode },
        states: (entry.name.split(', ').pop() ?? '').split('-'),
      };
      const base = { marketId: market.id, sourceId: 'fhfa-hpi', boundary };
      observations.push({ ...base, metricId: 'homePriceIndex', value: latest.index, asOf: quarterLabel(latest), origin: { file: FILE, line: latest.line } });
      const yearBefore = entry.quarters.get(`${latest.year - 1}-${latest.quarter}`);
      if (yearBefore !== undefined) {
        observations.push({
          ...base,
          metricId: 'homePriceChange',
          value: roundTo((latest.index / yearBefore.index - 1) * 100, 1),
          asOf: `${quarterLabel(yearBefore)} to ${quarterLabel(latest)}`,
          origin: { file: FILE, line: latest.line },
        });
      }
    }
    return {
      source: withRetrieval(
        {
          sourceId: 'fhfa-hpi',
          sourceName: 'FHFA House Price Index',
          agency: 'Federal Housing Finance Agency',
          datasetName: `House Price Index, all-transactions, metropolitan areas, quarterly (through ${retrieval.vintage})`,
          sourceUrl: 'https://www.fhfa.gov/data/hpi',
          confidence: 'high',
          updateFrequency: 'quarterly',
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
