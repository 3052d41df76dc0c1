// The quarters a row of FHFA's files may name: from its first index to the last quarter that had ended when the files were retrieved.
import { ZIP_DATES } from '../../contract/periods.ts';
import type { YearSpan } from '../parse.ts';
import { quarterKey, quarterOfKey } from './format.ts';

/** FHFA's all-transactions metro indexes begin in 1975 Q1. */
export const FIRST_YEAR = 1975;

/** The quarters a row may name: from FHFA's first to the last that ended by the retrieval date (by the zip's last year, where none is recorded). */
export interface QuarterSpan {
  span: YearSpan;
  /** The key of the last quarter that ended on or before the retrieval date. */
  lastKey: number;
  retrievedAt: string | undefined;
}

export function quarterSpan(retrievedAt: string | undefined): QuarterSpan {
  const [y = 2107, m = 12, d = 31] = (retrievedAt ?? ZIP_DATES.last).split('-').map(Number);
  // A quarter has ended once its last month has: on its last day, that quarter; else the one before.
  const endsToday = m % 3 === 0 && d === new Date(Date.UTC(y, m, 0)).getUTCDate();
  const lastKey = quarterKey(y, Math.floor((m - 1) / 3) + 1) - (endsToday ? 0 : 1);
  const last = quarterOfKey(lastKey).year;
  const says = `FHFA's indexes begin in ${FIRST_YEAR}, and ${retrievedAt === undefined ? `a zip file dates nothing after ${ZIP_DATES.last}` : `these files were retrieved on ${retrievedAt}`}`;
  return { span: { first: FIRST_YEAR, last, says }, lastKey, retrievedAt };
}
