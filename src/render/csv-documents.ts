// Renders profiles as CSV (docs/contract.md 2.6): header line, RFC 4180 quoting, CRLF, UTF-8 without BOM, plain decimals.
import { CSV_COLUMNS, byId, displayName, type CsvRow, type MarketProfile } from '../contract/schemas.ts';
import { csvField, plainDecimal } from '../contract/csv-format.ts';

const CRLF = '\r\n';

/** One row per metric of the profile, sorted by metric id. */
export function csvRows(p: MarketProfile): CsvRow[] {
  return Object.values(p.profile.metrics)
    .sort(byId((m) => m.id))
    .map((m) => ({
      market_id: p.market.id,
      market_name: displayName(p.market),
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

/** Every market's rows, sorted by market_id then metric_id (docs/contract.md 2.6). */
export function renderBulkCsv(profiles: readonly MarketProfile[]): string {
  const ordered = [...profiles].sort(byId((p) => p.market.id));
  return csvDocument(ordered.flatMap(csvRows));
}
