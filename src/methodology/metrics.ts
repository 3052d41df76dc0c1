// The metric set: every source's metric definitions in one list, with the typed ids, the values the scores read and coverage.
import type { Coverage, Metric } from '../contract/schemas.ts';
import { SOURCES, type MetricId, type SourceId } from '../sources/registry.ts';
import type { MetricSpec } from '../sources/source.ts';

export type { MetricId, SourceId };

/** A metric as its source defines it, with the source it comes from. */
export interface MetricDefinition extends MetricSpec<MetricId> {
  sourceId: SourceId;
}

/** Every metric of every source, in the order pages list them (the registry's order of sources, then each source's own). */
export const METRICS: readonly MetricDefinition[] = SOURCES.flatMap((s) => s.metrics.map((m) => ({ ...m, sourceId: s.sourceId })));

export const METRIC_IDS: readonly MetricId[] = METRICS.map((m) => m.id);
/** The metrics the methodology requires of every market: coverage counts these. */
export const REQUIRED_METRIC_IDS: readonly MetricId[] = METRICS.filter((m) => m.required).map((m) => m.id);

/**
 * The metric set of a build: the metrics its sources hold (LoadedSources' metricIds), in the registry's order. In
 * production that is every metric of every registered source; the test world builds with its own metric set, whatever
 * the registry holds besides.
 */
export const metricsOf = (metricIds: Iterable<string>): MetricDefinition[] => {
  const loaded = new Set(metricIds);
  return METRICS.filter((m) => loaded.has(m.id));
};

/** The ids of the metrics of a set that the methodology requires: what coverage counts. */
export const requiredOf = (metrics: readonly MetricDefinition[]): MetricId[] => metrics.filter((m) => m.required).map((m) => m.id);

const metricById = new Map<string, MetricDefinition>(METRICS.map((m) => [m.id, m]));

export function metricDefinition(id: string): MetricDefinition | undefined {
  return metricById.get(id);
}

export const isMetricId = (id: string): id is MetricId => metricById.has(id);

/** A market's value of each metric it has; what the scores read. */
export type Values = Readonly<Partial<Record<MetricId, number>>>;

/** A profile's metrics, keyed by their typed ids. */
export type ProfileMetrics = { readonly [K in MetricId]?: Metric };

/** The values of a profile's metrics, by metric id: what the scores and their derived inputs read. */
export const valuesOf = (metrics: ProfileMetrics): Values =>
  Object.fromEntries(Object.values(metrics).flatMap((m) => (m === undefined ? [] : [[m.id, m.value] as const])));

const METRIC_ORDER = new Map<string, number>(METRICS.map((m, i) => [m.id, i]));

/** Metric ids in the methodology's order (the order pages list them). */
export const inMetricOrder = <T extends string>(ids: readonly T[]): T[] => [...ids].sort((a, b) => (METRIC_ORDER.get(a) ?? 0) - (METRIC_ORDER.get(b) ?? 0));

/** totalRequired: the required metrics; missing: those not provided; percent: provided over required, one decimal. */
export function computeCoverage(
  provided: ReadonlySet<string>,
  required: readonly MetricId[] = REQUIRED_METRIC_IDS,
): Omit<Coverage, 'missing'> & { missing: MetricId[] } {
  const missing = required.filter((id) => !provided.has(id));
  const totalRequired = required.length;
  const totalProvided = totalRequired - missing.length;
  return { totalRequired, totalProvided, percent: Math.round((totalProvided / totalRequired) * 1000) / 10, missing };
}
