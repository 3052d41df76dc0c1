// The layout of the Building Permits Survey's annual place files, written once for the adapter that reads them and the generator that writes them.
//
// Four regional files (`ne2025a.txt`, `mw2025a.txt`, `so2025a.txt`, `we2025a.txt`), each a header spread over several
// lines (column names on two lines, then a line holding a space), then one comma-separated row of 41 fields per permit
// office. Code fields are space-padded (`51000 ,00000 ,1401142 ,`); offices in states that report through minor civil
// divisions carry an MCD code beside their place code (Boston `07000 ,07000 ,`), townships carry place code `00000`.
// Lines end with LF.
import type { RemoteFile } from '../source.ts';

/** The source's id, which names its fixtures folder too. */
export const SOURCE_ID = 'census-bps';
export const DIR = SOURCE_ID;
/** The survey year the files hold; a new year's files are a new vintage (their names change). */
export const YEAR = 2024;
export const REGIONS = [
  { code: 'ne', folder: 'Northeast Region' },
  { code: 'mw', folder: 'Midwest Region' },
  { code: 'so', folder: 'South Region' },
  { code: 'we', folder: 'West Region' },
] as const;
export type RegionCode = (typeof REGIONS)[number]['code'];
export const fileOf = (region: RegionCode): string => `${DIR}/${region}${YEAR}a.txt`;
export const FILES = REGIONS.map((r) => fileOf(r.code));
export const REMOTE: RemoteFile[] = REGIONS.map((r) => ({
  file: fileOf(r.code),
  url: `https://www2.census.gov/econ/bps/Place/${encodeURIComponent(r.folder)}/${r.code}${YEAR}a.txt`,
}));

/** The header lines before the first data row: two lines of column names, then a line holding a space. */
export const HEADER = [
  'Survey,State,6-Digit,County,Census Place,FIPS Place,FIPS MCD,Pop,CSA,CBSA,Footnote,Central,Zip,Region,Division,Number of,Place,,1-unit,,,2-units,,,3-4 units,,,5+ units,,,1-unit rep,,,2-units rep,,,3-4 units rep,,,5+ units rep',
  `Date,Code,ID,Code,Code,Code,Code,  ,Code,Code,Code,City,Code,Code,Code,Months Rep,Name,${Array.from({ length: 8 }, () => 'Bldgs,Units,Value').join(',')}`,
  ' ',
] as const;
/** The published files end their lines with LF (the adapter reads CRLF too). */
export const EOL = '\n';
/** How the first header line starts. */
export const HEADER_START = 'Survey,';

export const FIELDS = 41;
export const COL = { survey: 0, state: 1, county: 3, fipsPlace: 5, fipsMcd: 6, placeName: 16 } as const;
/** Units columns of the four structure-size groups, with imputation for months not reported. */
export const UNITS = [
  { column: 18, name: '1-unit Units' },
  { column: 21, name: '2-units Units' },
  { column: 24, name: '3-4 units Units' },
  { column: 27, name: '5+ units Units' },
] as const;
/** A survey date of a data row: the year (annual files), or a year and month. */
export const SURVEY = /^\d{4}(\d{2})?$/;
