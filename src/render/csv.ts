// Renders profiles as CSV (spec 2.6): header line, RFC 4180 quoting, CRLF, UTF-8 without BOM, plain decimals.
import { CSV_COLUMNS, type CsvRow, type MarketProfile } from '../contract.ts';

const CRLF = '\r\n';

/** Quotes a field when RFC 4180 requires it: a comma, a double quote, CR or LF. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Writes a finite number as a plain decimal: no exponent, no thousands separator, no negative zero. */
export function plainDecimal(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`cannot write ${value} as a CSV decimal`);
  if (Object.is(value, -0) || value === 0) return '0';
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (match === null) return text;
  const [, sign = '', lead = '', fraction = '', exp = '0'] = match;
  const digits = lead + fraction;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

export const marketName = (p: MarketProfile): string => `${p.market.name}, ${p.market.stateCode}`;

/** One row per metric of the profile, sorted by metric id. */
export function csvRows(p: MarketProfile): CsvRow[] {
  return Object.values(p.profile.metrics)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((m) => ({
      market_id: p.market.id,
      market_name: marketName(p),
      metric_id: m.id,
      metric_label: m.label,
      value: plainDecimal(m.value),
      unit: m.unit,
      source_id: m.sourceId,
      updated_date: p.profile.updatedDate,
      methodology_version: p.methodologyVersion,
      production_mode: p.productionMode,
      live_data: String(p.liveData),
    }));
}

function csvDocument(rows: readonly CsvRow[]): string {
  const header = CSV_COLUMNS.map((c) => c.name).join(',');
  const body = rows.map((row) => CSV_COLUMNS.map((c) => csvField(row[c.name])).join(','));
  return [header, ...body].map((line) => line + CRLF).join('');
}

export function renderMarketCsv(p: MarketProfile): string {
  return csvDocument(csvRows(p));
}

/** Every market's rows, sorted by market_id then metric_id (spec 4). */
export function renderBulkCsv(profiles: readonly MarketProfile[]): string {
  const ordered = [...profiles].sort((a, b) => (a.market.id < b.market.id ? -1 : a.market.id > b.market.id ? 1 : 0));
  return csvDocument(ordered.flatMap(csvRows));
}
