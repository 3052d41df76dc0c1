// What a source's load would publish, checked before anything is built from it: every market accounted for, one latest period, periods the source can hold, numbers in range.
import { FixtureError, type Place } from '../contract/errors.ts';
import type { MarketDefinition } from '../contract/markets.ts';
import { periodRangeOf } from '../contract/periods.ts';
import { withDerived } from './derive.ts';
import { refuseInvisibleIn } from './parse.ts';
import type { MetricSpec, ReadFixture, SourceLoad, SourceModule } from './source.ts';

/**
 * Loads one source, adds the metrics it derives (derive.ts), and holds what it gives to the rules below; the build
 * (loadSources) and `fetch` load every source through it, so a download meets the same rules as the fixtures. Every file the adapter reads is refused first if it
 * holds an invisible character anywhere, rows no market reads included.
 */
export function checkedLoad<M extends string>(source: SourceModule<string, M>, read: ReadFixture, markets: readonly MarketDefinition[]): SourceLoad<M> {
  const read_ = (path: string): string => {
    const text = read(path);
    refuseInvisibleIn(text, path);
    return text;
  };
  // The metrics the source derives from two others join what its adapter read, and meet the same rules.
  const load = withDerived(source.metrics, source.load(read_, markets));
  checkLoad(source, load, markets);
  return load;
}

/** The label's last period: a change "2024 Q4 to 2025 Q4" is as of 2025 Q4. */
const latestOf = (label: string): string => label.split(' to ').at(-1) ?? label;

/** The way a period is written (a quarter, a year, a span of years, a fiscal year): a vintage names the latest period only when written the values' way. */
const formOf = (label: string): string => label.replace(/\d/g, '9');

/**
 * The rules every load meets, each refusal naming the file and line (or the market and the rule):
 * 1. Every market has every metric of the source, or a missing value the file itself states (an annotation, a null,
 *    FHFA's "-"); a market whose rows the files lack is refused, not published as missing.
 * 2. Every value's latest period is the same for every market, so no market is served an older period than the
 *    others: the source's vintage (retrieval.json) where the vintage is written as the periods are ("2026 Q2").
 * 3. Every period (the vintage, each value's, each point of a series) is one the contract can place, starts no earlier
 *    than the source's first period and ends no later than the retrieval date; a series has a row for each of its periods.
 * 4. Every number is finite and within its metric's range; a margin of error is not negative.
 */
export function checkLoad<M extends string>(source: SourceModule<string, M>, load: SourceLoad<M>, markets: readonly MarketDefinition[]): void {
  const retrieval: Place = { file: `${source.sourceId}/retrieval.json`, line: 1, pointer: '/vintage' };
  const retrievedAt = load.source.latestRetrievedAt;
  const first = source.firstPeriod === undefined ? undefined : periodRangeOf(source.firstPeriod)?.start;
  const coverage = [
    ...(source.firstPeriod === undefined ? [] : [`${source.sourceId} publishes ${source.firstPeriod} onwards`]),
    ...(retrievedAt === undefined ? [] : [`these files were retrieved on ${retrievedAt}`]),
  ].join(', and ');
  /** Why a period cannot be served, or undefined where it can. */
  const periodFault = (label: string, ends = true): string | undefined => {
    const range = periodRangeOf(label);
    if (range === undefined) return `"${label}" is not a period (a year, a span of years, a quarter or a fiscal year)`;
    if (first !== undefined && range.start < first) return `${label} begins before ${source.firstPeriod ?? ''}: ${coverage}`;
    if (ends && retrievedAt !== undefined && range.end > retrievedAt) return `${label} ends on ${range.end}, after the retrieval date: ${coverage}`;
    return undefined;
  };
  const specs = new Map<string, MetricSpec<M>>(source.metrics.map((m) => [m.id, m]));
  const ids = new Set(markets.map((m) => m.id));
  const observations = load.observations.filter((o) => ids.has(o.marketId));
  // The vintage is a period. Where it is written otherwise than the values' periods (HUD's "2026" of fiscal year
  // FY2026, which ends before the year does), only the values' own periods are held to the retrieval date.
  const alike = observations.length === 0 || observations.some((o) => formOf(latestOf(o.asOf)) === formOf(load.vintage));
  const vintageFault = periodFault(load.vintage, alike);
  if (vintageFault !== undefined) throw new FixtureError('out_of_range', retrieval, `the vintage ${vintageFault}`);
  // 1. Every market accounted for (by market and metric, in maps: a national build holds thousands of markets).
  const key = (marketId: string, metricId: string): string => `${marketId}\u0000${metricId}`;
  const given = new Map(observations.map((o) => [key(o.marketId, o.metricId), o]));
  const stated = new Map(load.missing.map((m) => [key(m.marketId, m.metricId), m]));
  for (const market of markets) {
    for (const spec of source.metrics) {
      if (given.has(key(market.id, spec.id))) continue;
      const missing = stated.get(key(market.id, spec.id));
      if (missing?.origin.line !== undefined) continue;
      throw new FixtureError(
        'missing_row',
        { file: missing?.origin.file ?? retrieval.file, marketId: market.id, column: spec.id },
        `${missing === undefined ? `${source.sourceId} gives no value of ${spec.id} and no reason` : missing.reason}: a market's value missing without the file saying so is refused, never published as missing`,
      );
    }
  }
  // 2 and 4, and 3 for the values: each observation, at the line it was read from. The latest period every market's
  // value must have: the vintage where it is written as the values' periods are (FHFA's "2026 Q2"), else the latest any has.
  const latest = new Map<string, string>();
  for (const o of observations) {
    const period = latestOf(o.asOf);
    const known = latest.get(o.metricId);
    if (formOf(period) === formOf(load.vintage)) latest.set(o.metricId, load.vintage);
    else if (known === undefined || (periodRangeOf(period)?.end ?? '') > (periodRangeOf(known)?.end ?? '')) latest.set(o.metricId, period);
  }
  for (const o of observations) {
    const place: Place = { ...o.origin, marketId: o.marketId, column: o.metricId };
    const fault = periodFault(o.asOf);
    if (fault !== undefined) throw new FixtureError('out_of_range', place, fault);
    const expected = latest.get(o.metricId) ?? load.vintage;
    if (latestOf(o.asOf) !== expected) {
      const others = observations.filter((x) => x.metricId === o.metricId && latestOf(x.asOf) === expected).length;
      const whose = expected === load.vintage ? `the source's vintage (retrieval.json) is ${expected}` : `the latest period of ${o.metricId} is ${expected}`;
      throw new FixtureError(
        'out_of_range',
        place,
        `${o.metricId} is as of ${latestOf(o.asOf)}, but ${whose}${others > 0 ? `, as ${others} other markets' ${o.metricId} is` : ''}: every market's latest period of a source is the same (its vintage, where written alike), so none is served an older one`,
      );
    }
    const spec = specs.get(o.metricId);
    rangeCheck(o.value, spec, place, o.metricId);
    if (o.marginOfError !== undefined && !(o.marginOfError >= 0 && Number.isFinite(o.marginOfError))) {
      throw new FixtureError('out_of_range', place, `the margin of error of ${o.metricId} is ${o.marginOfError}; a margin is a finite number, not negative`);
    }
    for (const c of o.comparisons ?? []) {
      rangeCheck(c.value, spec, place, `${o.metricId} of ${c.name}`);
      if (c.marginOfError !== undefined && !(c.marginOfError >= 0 && Number.isFinite(c.marginOfError))) {
        throw new FixtureError(
          'out_of_range',
          place,
          `the margin of error of ${o.metricId} of ${c.name} is ${c.marginOfError}; a margin is a finite number, not negative`,
        );
      }
    }
  }
  // 3 and 4 for the series: every point a period the source can hold, every value in range; every market's series of a
  // metric begins where the others' do (a first row lost shortens one series only).
  const firstRows = new Map<string, string>();
  for (const s of load.series) {
    const known = firstRows.get(s.metricId);
    if (
      s.firstRow !== undefined &&
      ids.has(s.marketId) &&
      (known === undefined || (periodRangeOf(s.firstRow)?.start ?? '') < (periodRangeOf(known)?.start ?? ''))
    ) {
      firstRows.set(s.metricId, s.firstRow);
    }
  }
  for (const s of load.series) {
    if (!ids.has(s.marketId)) continue;
    const origin = given.get(key(s.marketId, s.metricId))?.origin;
    const place: Place = { ...origin, marketId: s.marketId, column: s.metricId };
    const begins = firstRows.get(s.metricId);
    if (s.firstRow !== undefined && begins !== undefined && s.firstRow !== begins) {
      throw new FixtureError(
        'missing_row',
        { ...place, file: origin?.file ?? retrieval.file },
        `the series of ${s.metricId} begins in ${s.firstRow}, where the other markets' begin in ${begins}: the agency writes every series from one period on, so a row was lost`,
      );
    }
    for (const point of s.points) {
      if (point.noRow === true) {
        throw new FixtureError(
          'missing_row',
          { ...place, file: origin?.file ?? retrieval.file },
          `the series of ${s.metricId} has no row for ${point.period}, though it runs from ${s.points[0]?.period ?? ''} to ${s.points.at(-1)?.period ?? ''}: the agency writes every period of a series (FHFA "-" where it has no value), so a row was lost`,
        );
      }
      const fault = periodFault(point.period);
      if (fault !== undefined) throw new FixtureError('out_of_range', place, `the series of ${s.metricId}: ${fault}`);
      if (point.value !== undefined) rangeCheck(point.value, specs.get(s.metricId), place, `${s.metricId} in ${point.period}`);
    }
    for (const c of s.comparisons ?? []) {
      for (const point of c.points) {
        const fault = periodFault(point.period);
        if (fault !== undefined) throw new FixtureError('out_of_range', place, `the series of ${s.metricId} of ${c.area.name}: ${fault}`);
        if (point.value !== undefined) rangeCheck(point.value, specs.get(s.metricId), place, `${s.metricId} of ${c.area.name} in ${point.period}`);
      }
    }
  }
}

/** A value finite and within its metric's range (where the source gives one). */
function rangeCheck(value: number, spec: MetricSpec | undefined, place: Place, what: string): void {
  const range = spec?.range;
  if (!Number.isFinite(value) || (range !== undefined && (value < range[0] || value > range[1]))) {
    const bounds = range === undefined ? 'a finite number' : `from ${range[0]} to ${range[1]} ${spec?.unit ?? ''}`.trimEnd();
    throw new FixtureError('out_of_range', place, `${what} is ${value}, outside the metric's range (${bounds})`);
  }
}
