// Reads FHFA's HPI_master.csv: the all-transactions quarterly index of each state a market lies in and of the nation, whole, with each line's place.
import { FixtureError, type Place } from '../../contract/errors.ts';
import { eachLine, numeric, roundTo, splitCsvLine, text, year as yearOf } from '../parse.ts';
import type { QuarterSpan } from './quarters.ts';
import { MASTER, MASTER_HEADER, MASTER_KIND, MASTER_LEVELS, quarterKey, quarterLabel, quarterOfKey } from './format.ts';

/** One place's series as the master file gives it: its name, and its index by quarter key with the line each was read from. */
export interface PlaceIndex {
  id: string;
  name: string;
  level: keyof typeof MASTER_LEVELS;
  quarters: ReadonlyMap<number, { index: number; line: number }>;
  /** The first and last quarter keys. */
  first: number;
  last: number;
}

const PREFIXES = [
  { level: 'state', prefix: `${MASTER_KIND},${MASTER_LEVELS.state},` },
  { level: 'nation', prefix: `${MASTER_KIND},${MASTER_LEVELS.nation},` },
] as const;

/**
 * Every wanted place's series (place_id "TX", "USA"), read from the lines of FHFA's traditional all-transactions
 * quarterly index at the state and national level; every other line is counted and left unread. Refused, with the line:
 * a header that is not the master file's, a line of the wrong width, a quarter outside what the retrieval allows, an
 * index that is not a positive number, a quarter given twice, a quarter missing inside a series, a wanted place absent.
 */
export function readMaster(source: string, wanted: ReadonlySet<string>, quarters: QuarterSpan): { places: Map<string, PlaceIndex>; skipped: number } {
  const series = new Map<string, { id: string; name: string; level: keyof typeof MASTER_LEVELS; quarters: Map<number, { index: number; line: number }> }>();
  let skipped = 0;
  let header = false;
  eachLine(source, (raw, line) => {
    const place: Place = { file: MASTER, line };
    if (!header) {
      header = true;
      const names = splitCsvLine(raw, place).map((n) => n.trim());
      const expected = MASTER_HEADER.join(',');
      if (names.join(',') !== expected) {
        const at = names.findIndex((n, i) => n !== MASTER_HEADER[i]);
        throw new FixtureError(
          'bad_shape',
          { ...place, column: names[at] ?? MASTER_HEADER[at] ?? '' },
          `the header must be FHFA's master-file columns in order (${expected}); column ${at + 1} is ${JSON.stringify(names[at] ?? '')}`,
        );
      }
      return;
    }
    const kind = PREFIXES.find((p) => raw.startsWith(p.prefix));
    if (kind === undefined) {
      skipped += 1;
      return;
    }
    const fields = splitCsvLine(raw, place);
    if (fields.length !== MASTER_HEADER.length) {
      throw new FixtureError('bad_shape', place, `expected ${MASTER_HEADER.length} fields (${MASTER_HEADER.join(', ')}), got ${fields.length}`);
    }
    const id = (fields[5] ?? '').trim();
    if (!wanted.has(id)) {
      skipped += 1;
      return;
    }
    const name = text(fields[4], place, 'place_name');
    const y = yearOf(fields[6], place, 'yr', quarters.span);
    const q = numeric(fields[7], place, 'period');
    if (!Number.isInteger(q) || q < 1 || q > 4) {
      throw new FixtureError('bad_shape', { ...place, column: 'period' }, `year ${y} and period ${fields[7] ?? ''} do not name a calendar quarter`);
    }
    const key = quarterKey(y, q);
    if (key > quarters.lastKey) {
      throw new FixtureError(
        'out_of_range',
        { ...place, column: 'period' },
        `${quarterLabel({ year: y, quarter: q })} had not ended on ${quarters.retrievedAt ?? ''}, the retrieval date: no index of it can have been published`,
      );
    }
    const index = numeric(fields[8], place, 'index_nsa');
    if (!(index > 0)) throw new FixtureError('not_numeric', { ...place, column: 'index_nsa' }, `the index must be positive, got ${JSON.stringify(fields[8])}`);
    let entry = series.get(id);
    if (entry === undefined) {
      entry = { id, name, level: kind.level, quarters: new Map() };
      series.set(id, entry);
    }
    const previous = entry.quarters.get(key);
    if (previous !== undefined) {
      throw new FixtureError(
        'duplicate_row',
        place,
        `second line for ${id} (${name}) ${quarterLabel({ year: y, quarter: q })}; the first is line ${previous.line}`,
      );
    }
    entry.quarters.set(key, { index: roundTo(index, 2), line });
  });
  if (!header) throw new FixtureError('bad_shape', { file: MASTER, line: 1 }, 'the file is empty: no header line');
  const places = new Map<string, PlaceIndex>();
  for (const entry of series.values()) {
    const keys = [...entry.quarters.keys()];
    const first = Math.min(...keys);
    const last = Math.max(...keys);
    for (let key = first; key <= last; key += 1) {
      if (!entry.quarters.has(key)) {
        throw new FixtureError(
          'missing_row',
          { file: MASTER, line: entry.quarters.get(key - 1)?.line ?? 0 },
          `${entry.id} (${entry.name}) has no line for ${quarterLabel(quarterOfKey(key))}, though its series runs from ${quarterLabel(quarterOfKey(first))} to ${quarterLabel(quarterOfKey(last))}: a line was lost`,
        );
      }
    }
    places.set(entry.id, { ...entry, first, last });
  }
  return { places, skipped };
}

/**
 * Every series of the master file, whatever its kind, by "<hpi_type> <hpi_flavor> <frequency> <place_id>", with the
 * periods it has a line for ("2026 Q2", "2026 M5"): what fetch holds a download to, so none loses a period it had.
 */
export function masterPeriodsBySeries(source: string): Map<string, Set<string>> {
  const series = new Map<string, Set<string>>();
  let header = true;
  eachLine(source, (raw, line) => {
    if (header) {
      header = false;
      return;
    }
    const fields = splitCsvLine(raw, { file: MASTER, line });
    const [type = '', flavor = '', frequency = '', , , id = '', yr = '', period = ''] = fields;
    const key = `${type} ${flavor} ${frequency} ${id}`;
    const periods = series.get(key) ?? new Set<string>();
    periods.add(`${yr} ${frequency === 'quarterly' ? 'Q' : 'M'}${period}`);
    series.set(key, periods);
  });
  return series;
}
