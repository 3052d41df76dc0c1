// The calendar span of a period label as the sources write it ("2024", "2020-2024", "2025 Q4", "2024 Q4 to 2025 Q4", "FY2026"): the series' period_start and period_end.
import { InvariantError } from './errors.ts';

/**
 * The first and last days a zip file's MS-DOS dates can record (1980 to 2107): the download is dated by the snapshot, so
 * the load refuses a retrieval or release date outside them.
 */
export const ZIP_DATES = { first: '1980-01-01', last: '2107-12-31' } as const;

export interface PeriodRange {
  /** First day of the period, ISO date. */
  start: string;
  /** Last day of the period, ISO date. */
  end: string;
}

const pad = (n: number): string => String(n).padStart(2, '0');
const lastDay = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();
// Years are written with four digits, so that spans compare as text whatever the year ("0999" before "2005").
const year = (y: number): string => String(y).padStart(4, '0');
const span = (y1: number, m1: number, y2: number, m2: number): PeriodRange => ({
  start: `${year(y1)}-${pad(m1)}-01`,
  end: `${year(y2)}-${pad(m2)}-${pad(lastDay(y2, m2))}`,
});

const QUARTER = /^(\d{4}) Q([1-4])$/;

/** One period: a year, a span of years, a quarter, or a US federal fiscal year (October to September). */
function single(label: string): PeriodRange | undefined {
  let m = /^(\d{4})$/.exec(label);
  if (m !== null) return span(Number(m[1]), 1, Number(m[1]), 12);
  m = /^(\d{4})-(\d{4})$/.exec(label);
  if (m !== null && Number(m[1]) <= Number(m[2])) return span(Number(m[1]), 1, Number(m[2]), 12);
  m = QUARTER.exec(label);
  if (m !== null) {
    const first = (Number(m[2]) - 1) * 3 + 1;
    return span(Number(m[1]), first, Number(m[1]), first + 2);
  }
  m = /^FY(\d{4})$/.exec(label);
  if (m !== null) return span(Number(m[1]) - 1, 10, Number(m[1]), 9);
  return undefined;
}

/** The span a period label covers, or undefined for a label of no form the sources write (data, not a bug, may name one). */
export function periodRangeOf(label: string): PeriodRange | undefined {
  const parts = label.split(' to ');
  const ranges = parts.map(single);
  const first = ranges[0];
  const last = ranges.at(-1);
  if (parts.length > 2 || first === undefined || last === undefined || ranges.includes(undefined)) return undefined;
  return { start: first.start, end: last.end };
}

/**
 * The span a period label covers. "A to B" (a change between two periods) runs from the start of A to the end of B.
 * A label of another form is a bug in a source module (its asOf), not bad input: it throws an InvariantError.
 */
export function periodRange(label: string): PeriodRange {
  const range = periodRangeOf(label);
  if (range === undefined) {
    throw new InvariantError(`the period "${label}" is not a year, a span of years, a quarter, a fiscal year, or "A to B" of those`);
  }
  return range;
}

/** Sorts period labels by their span: earlier ends first, then earlier starts. */
export const comparePeriods = (a: string, b: string): number => {
  const ra = periodRange(a);
  const rb = periodRange(b);
  return ra.end < rb.end ? -1 : ra.end > rb.end ? 1 : ra.start < rb.start ? -1 : ra.start > rb.start ? 1 : 0;
};

/**
 * The period a source's next release covers, from the one it holds: the next year, the next span of years (an ACS
 * 5-year vintage moves by a year), the next quarter or fiscal year; undefined for a label of another form.
 */
export function nextPeriod(label: string): string | undefined {
  let m = /^(\d{4})$/.exec(label);
  if (m !== null) return String(Number(m[1]) + 1);
  m = /^(\d{4})-(\d{4})$/.exec(label);
  if (m !== null) return `${Number(m[1]) + 1}-${Number(m[2]) + 1}`;
  m = QUARTER.exec(label);
  if (m !== null) return Number(m[2]) === 4 ? `${Number(m[1]) + 1} Q1` : `${m[1]} Q${Number(m[2]) + 1}`;
  m = /^FY(\d{4})$/.exec(label);
  if (m !== null) return `FY${Number(m[1]) + 1}`;
  return undefined;
}
