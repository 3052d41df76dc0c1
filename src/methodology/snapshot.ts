// The build's data, assembled once: every market's profile with what its page draws beside it, every source with its terms, and the index.
import { byId, type MarketIndex, type Source } from '../contract/schemas.ts';
import type { Location, MarketDefinition } from '../contract/markets.ts';
import type { MarketSeries } from '../contract/series.ts';
import type { LoadedSources, SourceFile } from '../sources/load.ts';
import type { Area } from '../contract/geography.ts';
import type { Licence, MetricSeries, MissingValue } from '../sources/source.ts';
import { isOverdue, nextExpectedRelease } from './freshness.ts';
import { buildMarketIndex } from './market-index.ts';
import { isMetricId, metricsOf, type MetricDefinition, type MetricId } from './metrics.ts';
import { assembleProfiles, type AssembledProfile } from './profiles.ts';
import { assembleSeries, type PastSnapshot } from './series.ts';

/** One market: its profile, and what only its page shows (never the JSON or CSV, which carry the latest values). */
export interface MarketData {
  profile: AssembledProfile;
  /** Where the city is, for the map's dot; undefined where the registry has no location. */
  location: Location | undefined;
  /** Each metric's history, where its source holds one (the house price index by quarter). */
  series: ReadonlyMap<MetricId, MetricSeries>;
  /** The area each metric's value describes. */
  boundaries: ReadonlyMap<MetricId, Area>;
  /** Every observation per metric, as /api/markets/<market-id>/series serves it. */
  seriesDocument: MarketSeries;
  /** How a value was put together where it is more than one row's (New York City's permits). */
  notes: ReadonlyMap<MetricId, string>;
  /** Why a metric the methodology requires is missing: what the source's file said, or that it has no row. */
  missing: ReadonlyMap<MetricId, MissingValue>;
}

/** One loaded source: its attribution with the fixture's dates, its terms, and whether its values are the agency's. */
export interface SourceData {
  source: Source;
  licence: Licence;
  /** Which values are illustrative rather than published, in a sentence; undefined when every value is the agency's. */
  illustrative: string | undefined;
  /** The vintage its files hold, and the files with their sizes and SHA-256. */
  vintage: string;
  files: readonly SourceFile[];
  /** When its next release is due (its release date plus one update interval), and whether that was before the snapshot date. */
  nextExpectedRelease: string | undefined;
  overdue: boolean;
}

export interface Snapshot {
  /** The latest retrieval among the sources; every date-dependent output derives from it. */
  snapshotDate: string;
  /** The metrics of the sources loaded, in the registry's order: what every page lists and coverage counts. */
  metrics: readonly MetricDefinition[];
  /** Every market, in the order of the markets the build was given (the registry's: by id). */
  markets: readonly MarketData[];
  /** Every source loaded, sorted by id (the profiles cite those that gave them a value). */
  sources: readonly SourceData[];
  index: MarketIndex;
  /** Every archived snapshot, newest first (this one too, once archived): their documents are served as vintages. */
  archive: readonly PastSnapshot[];
}

/** Per market, per metric: the items of one kind the sources gave, typed by metric id. */
function byMarket<T extends { marketId: string; metricId: string }>(items: readonly T[]): Map<string, Map<MetricId, T>> {
  const out = new Map<string, Map<MetricId, T>>();
  for (const item of items) {
    if (!isMetricId(item.metricId)) continue;
    const perMarket = out.get(item.marketId) ?? new Map<MetricId, T>();
    perMarket.set(item.metricId, item);
    out.set(item.marketId, perMarket);
  }
  return out;
}

export function assembleSnapshot(markets: readonly MarketDefinition[], data: LoadedSources, baseUrl: string, archived: readonly PastSnapshot[] = []): Snapshot {
  const profiles = assembleProfiles(markets, data, baseUrl);
  const archive = [...archived].sort((a, b) => (a.snapshotDate < b.snapshotDate ? 1 : -1));
  // The series read the snapshots before this one: a later one (an older checkout) is not history.
  const past = archive.filter((p) => p.snapshotDate < data.snapshotDate);
  const series = byMarket(data.loads.flatMap((l) => l.series));
  const boundaries = byMarket(data.loads.flatMap((l) => l.observations.map((o) => ({ marketId: o.marketId, metricId: o.metricId, boundary: o.boundary }))));
  const notes = byMarket(data.loads.flatMap((l) => l.notes));
  const missing = byMarket(data.loads.flatMap((l) => l.missing));
  const definitions = new Map(markets.map((m) => [m.id, m]));
  return {
    snapshotDate: data.snapshotDate,
    metrics: metricsOf(data.metricIds),
    markets: profiles.map((profile) => {
      const id = profile.market.id;
      const own = series.get(id) ?? new Map<MetricId, MetricSeries>();
      const areas = new Map([...(boundaries.get(id) ?? [])].map(([metricId, o]) => [metricId, o.boundary]));
      return {
        profile,
        location: definitions.get(id)?.location,
        series: own,
        boundaries: areas,
        seriesDocument: assembleSeries({ profile, series: own, boundaries: areas, past, baseUrl }),
        notes: new Map([...(notes.get(id) ?? [])].map(([metricId, n]) => [metricId, n.note])),
        missing: missing.get(id) ?? new Map(),
      };
    }),
    sources: data.loads
      .map((l) => ({
        source: l.source,
        licence: l.licence,
        illustrative: l.illustrative,
        vintage: l.vintage,
        files: data.files.get(l.source.sourceId) ?? [],
        nextExpectedRelease: nextExpectedRelease(l.source),
        overdue: isOverdue(l.source, data.snapshotDate),
      }))
      .sort(byId((s) => s.source.sourceId)),
    index: buildMarketIndex(profiles, data.snapshotDate, baseUrl),
    archive,
  };
}
