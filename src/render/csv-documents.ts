// Renders profiles and series as CSV (docs/contract.md 2.6, 2.10): header line, RFC 4180 quoting, CRLF, UTF-8 without BOM, plain decimals.
import { CSV_COLUMNS, byId, displayName, type CsvRow, type MarketProfile } from '../contract/schemas.ts';
import { csvField, plainDecimal } from '../contract/csv-format.ts';
import { SERIES_CSV_COLUMNS, type MarketSeries, type SeriesCsvColumn } from '../contract/series.ts';

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

/** The one CSV writer: a header line of the columns' names, then each row's fields in column order, every line ended by CRLF. */
function csvDocument<C extends string>(columns: readonly { name: C }[], rows: readonly Readonly<Record<C, string>>[]): string {
  const header = columns.map((c) => c.name).join(',');
  const body = rows.map((row) => columns.map((c) => csvField(row[c.name])).join(','));
  return [header, ...body].map((line) => line + CRLF).join('');
}

export function renderMarketCsv(p: MarketProfile): string {
  return csvDocument(CSV_COLUMNS, csvRows(p));
}

/** Every market's rows, sorted by market_id then metric_id (docs/contract.md 2.6). */
export function renderBulkCsv(profiles: readonly MarketProfile[]): string {
  const ordered = [...profiles].sort(byId((p) => p.market.id));
  return csvDocument(CSV_COLUMNS, ordered.flatMap(csvRows));
}

/** The long-format rows of a market's series (SERIES_CSV_COLUMNS): by metric id, the market's own observations then each comparison's, each by period. */
export function seriesRows(s: MarketSeries): Record<SeriesCsvColumn, string>[] {
  return Object.values(s.metrics)
    .sort(byId((m) => m.id))
    .flatMap((m) =>
      [{ geography: m.geography, observations: m.observations }, ...(m.comparisons ?? [])].flatMap((line) =>
        line.observations.map((o) => {
          const area = o.geography ?? line.geography;
          return {
            market_id: s.market.id,
            metric_id: m.id,
            period: o.period,
            period_start: o.periodStart,
            period_end: o.periodEnd,
            value: plainDecimal(o.value),
            unit: m.unit,
            dollar_year: o.dollarYear === undefined ? '' : String(o.dollarYear),
            margin_of_error: o.marginOfError === undefined ? '' : plainDecimal(o.marginOfError),
            published_as: o.qualifier?.publishedAs ?? '',
            illustrative: String(o.illustrative === true),
            source_id: m.sourceId,
            geography_level: area.level,
            geography_code: area.code,
            snapshot_date: o.snapshotDate,
            updated_date: s.generatedAt,
            methodology_version: s.methodologyVersion,
            production_mode: s.productionMode,
            live_data: String(s.liveData),
          };
        }),
      ),
    );
}

export function renderSeriesCsv(s: MarketSeries): string {
  return csvDocument(SERIES_CSV_COLUMNS, seriesRows(s));
}

/** Every market's series rows, sorted by market_id, metric_id, then period. */
export function renderBulkSeriesCsv(series: readonly MarketSeries[]): string {
  return csvDocument(SERIES_CSV_COLUMNS, [...series].sort(byId((s) => s.market.id)).flatMap(seriesRows));
}
