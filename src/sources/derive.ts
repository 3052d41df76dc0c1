// The metrics a source derives from two of its others (a ratio of published figures), computed once for every market, area and period, with the Census Bureau's margin of a ratio; and the one ratio function the scores' inputs use too.
import type { Comparison } from '../contract/schemas.ts';
import { roundTo } from './parse.ts';
import type { ComparisonSeries, MetricSeries, MetricSpec, MissingValue, Observation, Ratio, SeriesPoint, SourceLoad } from './source.ts';

/** A ratio's value from its operands' values, only when both are finite and the denominator positive: before × n ÷ d × after. */
export function ratioValue(ratio: Ratio, numerator: number | undefined, denominator: number | undefined): number | undefined {
  if (numerator === undefined || denominator === undefined || !Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator <= 0)
    return undefined;
  return (numerator / denominator) * (ratio.before ?? 1) * (ratio.after ?? 1);
}

/**
 * The 90 % margin of a ratio R = x / y of two estimates from their margins (the Census Bureau's approximation for derived
 * ratios, ACS General Handbook, chapter 8): √(mx² + R²·my²) / y; a constant factor scales it as it scales the ratio.
 */
export function ratioMargin(x: number, mx: number, y: number, my: number): number {
  const r = x / y;
  return Math.sqrt(mx * mx + r * r * my * my) / y;
}

/** One figure of an operand: its value, and its margin where it has one. */
interface Figure {
  value: number;
  marginOfError?: number;
}

/** The derived figure of two operands' figures, rounded to the metric's decimals, with its margin where both have one; undefined where the ratio has none. */
function derivedFigure(ratio: Ratio, decimals: number, n: Figure, d: Figure): Figure | undefined {
  const value = ratioValue(ratio, n.value, d.value);
  if (value === undefined) return undefined;
  const factor = (ratio.before ?? 1) * (ratio.after ?? 1);
  const margin =
    n.marginOfError === undefined || d.marginOfError === undefined ? undefined : ratioMargin(n.value, n.marginOfError, d.value, d.marginOfError) * factor;
  return { value: roundTo(value, decimals), ...(margin === undefined ? {} : { marginOfError: roundTo(margin, decimals) }) };
}

/** The points of two series' periods that both have a value, derived. */
function derivedPoints(ratio: Ratio, decimals: number, n: readonly SeriesPoint[], d: readonly SeriesPoint[]): SeriesPoint[] {
  const byPeriod = new Map(d.map((p) => [p.period, p]));
  return n.flatMap((p): SeriesPoint[] => {
    const q = byPeriod.get(p.period);
    if (p.value === undefined || q?.value === undefined || p.qualifier !== undefined || q.qualifier !== undefined) return [];
    const f = derivedFigure(ratio, decimals, { value: p.value, marginOfError: p.marginOfError }, { value: q.value, marginOfError: q.marginOfError });
    return f === undefined ? [] : [{ period: p.period, ...f }];
  });
}

const key = (marketId: string, metricId: string): string => `${marketId}\u0000${metricId}`;

/**
 * A source's load with its derived metrics added (each metric with `derived`, in the source's order): per market, the
 * ratio of its two operands' values where both have one for the same area and period, with the ratio's margin, beside
 * the same ratio of each area both are compared with; and its series over the periods both have. Where an operand is
 * missing, open-ended ("4,000+": the ratio has only a bound) or the denominator is not positive, the derived metric is
 * missing with the reason.
 */
export function withDerived<M extends string>(metrics: readonly MetricSpec<M>[], load: SourceLoad<M>): SourceLoad<M> {
  const derived = metrics.filter((m): m is MetricSpec<M> & { derived: Ratio<M> } => m.derived !== undefined);
  if (derived.length === 0) return load;
  const observations = new Map(load.observations.map((o) => [key(o.marketId, o.metricId), o]));
  const missing = new Map(load.missing.map((m) => [key(m.marketId, m.metricId), m]));
  const series = new Map(load.series.map((s) => [key(s.marketId, s.metricId), s]));
  const markets = [...new Set([...load.observations, ...load.missing].map((o) => o.marketId))];
  const out = { observations: [...load.observations], missing: [...load.missing], series: [...load.series] };
  for (const metric of derived) {
    const { numerator, denominator } = metric.derived;
    for (const marketId of markets) {
      const n = observations.get(key(marketId, numerator));
      const d = observations.get(key(marketId, denominator));
      const lack = (reason: string, origin: MissingValue['origin']): void => void out.missing.push({ marketId, metricId: metric.id, reason, origin });
      if (n === undefined || d === undefined) {
        const absent = [n === undefined ? numerator : undefined, d === undefined ? denominator : undefined].flatMap((id) => (id === undefined ? [] : [id]));
        const why = absent.map((id) => missing.get(key(marketId, id)));
        const first = why.find((m) => m !== undefined);
        const reasons = why.map((m, i) => m?.reason ?? `${absent[i] ?? ''} has no value`).join('; ');
        lack(`${metric.id} needs ${numerator} and ${denominator}; ${reasons}`, first?.origin ?? { file: `${load.source.sourceId}/retrieval.json` });
        continue;
      }
      const open = [n, d].find((o) => o.qualifier !== undefined);
      if (open?.qualifier !== undefined) {
        lack(`${open.metricId} is open-ended (published as "${open.qualifier.publishedAs}"), so ${metric.id} has only a bound, not a figure`, open.origin);
        continue;
      }
      if (n.asOf !== d.asOf || n.boundary.name !== d.boundary.name) {
        lack(`${numerator} (${n.boundary.name}, ${n.asOf}) and ${denominator} (${d.boundary.name}, ${d.asOf}) are not of one area and period`, n.origin);
        continue;
      }
      const figure = derivedFigure(metric.derived, metric.decimals, n, d);
      if (figure === undefined) {
        lack(`${denominator} is ${d.value}: no ratio to take`, d.origin);
        continue;
      }
      const comparisons = (n.comparisons ?? []).flatMap((c): Comparison[] => {
        const o = (d.comparisons ?? []).find((x) => x.level === c.level && x.code === c.code && x.asOf === c.asOf);
        const f = o === undefined ? undefined : derivedFigure(metric.derived, metric.decimals, c, o);
        return f === undefined ? [] : [{ level: c.level, code: c.code, name: c.name, ...f, asOf: c.asOf }];
      });
      const illustrative = n.illustrative === true || d.illustrative === true;
      out.observations.push({
        marketId,
        metricId: metric.id,
        value: figure.value,
        ...(figure.marginOfError === undefined || illustrative ? {} : { marginOfError: figure.marginOfError }),
        ...(illustrative ? { illustrative: true as const } : {}),
        asOf: n.asOf,
        sourceId: n.sourceId,
        boundary: n.boundary,
        ...(comparisons.length === 0 ? {} : { comparisons }),
        origin: n.origin,
      } satisfies Observation<M>);
      const ns = series.get(key(marketId, numerator));
      const ds = series.get(key(marketId, denominator));
      if (ns === undefined || ds === undefined) continue;
      const around = (ns.comparisons ?? []).flatMap((c): ComparisonSeries[] => {
        const o = (ds.comparisons ?? []).find((x) => x.area.level === c.area.level && x.area.name === c.area.name);
        const points = o === undefined ? [] : derivedPoints(metric.derived, metric.decimals, c.points, o.points);
        return points.length === 0 ? [] : [{ area: c.area, points }];
      });
      out.series.push({
        marketId,
        metricId: metric.id,
        perYear: ns.perYear,
        points: derivedPoints(metric.derived, metric.decimals, ns.points, ds.points),
        ...(around.length === 0 ? {} : { comparisons: around }),
      } satisfies MetricSeries<M>);
    }
  }
  return { ...load, ...out };
}
