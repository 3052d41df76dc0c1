// A market's every observation per metric: the current files' history (FHFA quarter by quarter) and latest values, and for periods they no longer hold, the archived vintages' values.
import { areaCode, areaOf, type Area } from '../contract/geography.ts';
import { PATHS } from '../contract/paths.ts';
import { comparePeriods, periodRange } from '../contract/periods.ts';
import { PRODUCTION_MODE, SCHEMA_VERSION, compareIds, type MarketProfile, type Source } from '../contract/schemas.ts';
import { SERIES_CAVEATS, type MarketSeries, type SeriesGeography, type SeriesMetric, type SeriesObservation } from '../contract/series.ts';
import type { ArchivedSource } from '../contract/vintages.ts';
import type { MetricSeries, SeriesPoint } from '../sources/source.ts';
import { metricDefinition, type MetricId } from './metrics.ts';
import { dollarYearOf, type AssembledProfile } from './profiles.ts';
import { keysOf } from '../contract/records.ts';

/** An archived snapshot as the build reads it back (archive/<date>/): what it was made of, and its documents as published. */
export interface PastSnapshot {
  snapshotDate: string;
  methodologyVersion: string;
  /** Its sources as recorded when it was archived: vintage, dates and files. */
  sources: readonly ArchivedSource[];
  /** Its profiles, parsed, by market id. */
  profiles: ReadonlyMap<string, MarketProfile>;
  /** Its documents by archive name (markets.json, markets/<id>.csv, …), absolute URLs written with the base URL placeholder. */
  documents: ReadonlyMap<string, Buffer>;
}

/** What the series of one market is made of: its profile, its metrics' histories and areas, and the snapshots before it. */
export interface SeriesInput {
  profile: AssembledProfile;
  series: ReadonlyMap<MetricId, MetricSeries>;
  boundaries: ReadonlyMap<MetricId, Area>;
  /** Archived snapshots older than this one, newest first. */
  past: readonly PastSnapshot[];
  baseUrl: string;
}

export const geographyOf = (b: Area): SeriesGeography => ({
  level: b.level,
  code: areaCode(b),
  name: b.name,
});

const sameGeography = (a: SeriesGeography, b: SeriesGeography): boolean => a.level === b.level && a.code === b.code;

const observation = (period: string, value: number, snapshotDate: string, extra: Partial<SeriesObservation> = {}): SeriesObservation => {
  const { start, end } = periodRange(period);
  return {
    period,
    periodStart: start,
    periodEnd: end,
    value,
    ...(extra.marginOfError === undefined ? {} : { marginOfError: extra.marginOfError }),
    ...(extra.illustrative === true ? { illustrative: true as const } : {}),
    ...(extra.qualifier === undefined ? {} : { qualifier: extra.qualifier }),
    ...(extra.dollarYear === undefined ? {} : { dollarYear: extra.dollarYear }),
    snapshotDate,
    ...(extra.geography === undefined ? {} : { geography: extra.geography }),
  };
};

/** Where an archived profile says a metric's value came from: its geographyScope boundary, or (with one area only) undefined. */
function pastGeography(profile: MarketProfile, metricId: string): SeriesGeography | undefined {
  const b = profile.geographyScope?.boundaries.find((x) => x.metrics.includes(metricId));
  const area = b === undefined ? undefined : areaOf(b);
  return area === undefined ? undefined : geographyOf(area);
}

function seriesMetric(input: SeriesInput, id: MetricId, source: Source): SeriesMetric | undefined {
  const metric = input.profile.profile.metrics[id];
  const boundary = input.boundaries.get(id);
  if (metric === undefined || boundary === undefined) return undefined;
  const snapshotDate = input.profile.generatedAt;
  const geography = geographyOf(boundary);
  const dollars = metricDefinition(id)?.dollars === 'period-end';
  /** A point as published: its margin, what qualifies it, the dollars it is in. */
  const published = (p: Pick<SeriesPoint, 'period' | 'marginOfError' | 'qualifier'>): Partial<SeriesObservation> => ({
    ...(p.marginOfError === undefined ? {} : { marginOfError: p.marginOfError }),
    ...(p.qualifier === undefined ? {} : { qualifier: p.qualifier }),
    ...(dollars ? { dollarYear: dollarYearOf(p.period) } : {}),
  });
  // An illustrative metric is illustrative in every period its files hold, and has no margin; the state's and the nation's figures beside it stay as published.
  const extra = (p: Pick<SeriesPoint, 'period' | 'marginOfError' | 'qualifier'>): Partial<SeriesObservation> =>
    metric.illustrative === true ? { ...published({ ...p, marginOfError: undefined }), illustrative: true as const } : published(p);
  const byPeriod = new Map<string, SeriesObservation>();
  const history = input.series.get(id);
  for (const p of history?.points ?? []) if (p.value !== undefined) byPeriod.set(p.period, observation(p.period, p.value, snapshotDate, extra(p)));
  // The latest value is the profile's, whatever the history holds.
  byPeriod.set(metric.asOf, observation(metric.asOf, metric.value, snapshotDate, extra({ period: metric.asOf, ...metric })));
  // A period the current files no longer hold comes from the newest archived snapshot that has it.
  for (const past of input.past) {
    const old = past.profiles.get(input.profile.market.id);
    const value = old?.profile.metrics[id];
    if (old === undefined || value === undefined || byPeriod.has(value.asOf)) continue;
    const area = pastGeography(old, id) ?? geography;
    byPeriod.set(
      value.asOf,
      observation(value.asOf, value.value, past.snapshotDate, {
        ...(value.marginOfError === undefined ? {} : { marginOfError: value.marginOfError }),
        ...(value.illustrative === true ? { illustrative: true as const } : {}),
        ...(value.qualifier === undefined ? {} : { qualifier: value.qualifier }),
        ...(dollars ? { dollarYear: dollarYearOf(value.asOf) } : {}),
        ...(sameGeography(area, geography) ? {} : { geography: area }),
      }),
    );
  }
  // The state's and the nation's, every period the current files hold them in.
  const comparisons = (history?.comparisons ?? []).flatMap((c) => {
    const observations = c.points.flatMap((p) => (p.value === undefined ? [] : [observation(p.period, p.value, snapshotDate, published(p))]));
    return observations.length === 0 ? [] : [{ geography: geographyOf(c.area), observations: observations.sort((a, b) => comparePeriods(a.period, b.period)) }];
  });
  return {
    id,
    label: metric.label,
    unit: metric.unit,
    sourceId: metric.sourceId,
    frequency: source.updateFrequency,
    geography,
    observations: [...byPeriod.values()].sort((a, b) => comparePeriods(a.period, b.period)),
    ...(comparisons.length === 0 ? {} : { comparisons }),
  };
}

/** The series document of one market (/api/markets/<market-id>/series). */
export function assembleSeries(input: SeriesInput): MarketSeries {
  const { profile, baseUrl } = input;
  const id = profile.market.id;
  const sources = new Map(profile.sources.map((s) => [s.sourceId, s]));
  const metrics: Partial<Record<MetricId, SeriesMetric>> = {};
  for (const key of keysOf(profile.profile.metrics).sort(compareIds)) {
    const source = sources.get(profile.profile.metrics[key]?.sourceId ?? '');
    const m = source === undefined ? undefined : seriesMetric(input, key, source);
    if (m !== undefined) metrics[key] = m;
  }
  return {
    schemaVersion: SCHEMA_VERSION,
    generatedAt: profile.generatedAt,
    methodologyVersion: profile.methodologyVersion,
    productionMode: PRODUCTION_MODE,
    liveData: false,
    market: profile.market,
    metrics,
    sources: profile.sources,
    caveats: [...SERIES_CAVEATS],
    links: {
      self: baseUrl + PATHS.series(id),
      csv: baseUrl + PATHS.seriesCsv(id),
      profile: baseUrl + PATHS.profile(id),
      html: baseUrl + PATHS.marketPage(id),
      schema: baseUrl + PATHS.seriesSchema,
    },
  };
}
