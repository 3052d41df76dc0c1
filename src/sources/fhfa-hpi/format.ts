// The layout of FHFA's hpi_at_metro.csv, written once for the adapter that reads it and the generator that writes it.
//
// No header line (one is tolerated): "name",code,year,quarter,index,(standard error). A name is quoted and ends with the
// states ("Austin-Round Rock-San Marcos, TX"); a metropolitan division's name carries " (MSAD)" after the states. "-"
// stands for a quarter with too few transactions for an index, in both value columns. The standard error is written in
// parentheses, padded to five characters: "( 2.51)", "(10.55)". Rows come in FHFA's name order.

/** The source's id, which names its fixtures folder too. */
export const SOURCE_ID = 'fhfa-hpi';
export const DIR = SOURCE_ID;
export const FILE = `${DIR}/hpi_at_metro.csv`;
export const URL_METRO = 'https://www.fhfa.gov/hpi/download/quarterly_datasets/hpi_at_metro.csv';

/** What follows a metropolitan division's name. */
export const MSAD_MARKER = ' (MSAD)';
export const MSAD = /\s*\(MSAD\)\s*$/;
export const STATE = /^[A-Z]{2}$/;
export const CODE = /^\d{5}$/;
export const STANDARD_ERROR = /^\(\s*\d+(\.\d+)?\)$/;
/** FHFA's mark for a quarter without an index. */
export const NO_VALUE = '-';

/** A standard error as FHFA writes it: two decimals in parentheses, padded to five characters. */
export const standardError = (value: number): string => `(${value.toFixed(2).padStart(5, ' ')})`;

export const quarterLabel = (q: { year: number; quarter: number }): string => `${q.year} Q${q.quarter}`;
/** Quarters as consecutive integers, so a year earlier is four less. */
export const quarterKey = (year: number, quarter: number): number => year * 4 + quarter - 1;
export const quarterOfKey = (key: number): { year: number; quarter: number } => ({ year: Math.floor(key / 4), quarter: (key % 4) + 1 });

/** FHFA orders its rows by name, ignoring case, spaces and punctuation ("Sandusky, OH" before "San Francisco-…"). */
export const collationKey = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** One line of the file, split only as far as the code: enough to know whether the row belongs to a market. */
export function codeOf(raw: string): string | undefined {
  // Names are quoted (they hold a comma); the code follows the closing quote.
  if (raw.charCodeAt(0) === 34) {
    const close = raw.indexOf('",', 1);
    if (close === -1) return undefined;
    const end = raw.indexOf(',', close + 2);
    return end === -1 ? undefined : raw.slice(close + 2, end);
  }
  // Without a first comma there is no second one either.
  const first = raw.indexOf(',');
  const end = raw.indexOf(',', first + 1);
  return end === -1 ? undefined : raw.slice(first + 1, end);
}

/**
 * FHFA's House Price Index master file (HPI_master.csv): every index FHFA publishes, one quarter or month per line,
 * after a header line. The adapter reads its traditional, all-transactions, quarterly lines of the states and the
 * nation: the figures each market's price change is shown beside.
 */
export const MASTER = `${DIR}/hpi_master.csv`;
export const URL_MASTER = 'https://www.fhfa.gov/hpi/download/monthly/hpi_master.csv';
export const MASTER_HEADER = [
  'hpi_type',
  'hpi_flavor',
  'frequency',
  'level',
  'place_name',
  'place_id',
  'yr',
  'period',
  'index_nsa',
  'index_sa',
  'rstderr',
  'note',
] as const;
/** The first three fields of the lines the adapter reads, and the master file's level of a state and of the nation. */
export const MASTER_KIND = 'traditional,all-transactions,quarterly';
export const MASTER_LEVELS = { state: 'State', nation: 'USA or Census Division' } as const;
/** FHFA's place_id of the United States in the master file. */
export const NATION_ID = 'USA';
/** The quarter the metro file's indexes equal 100 (the master file's state and US all-transactions indexes are 1980 Q1 = 100). */
export const METRO_BASE = { year: 1995, quarter: 1 } as const;
