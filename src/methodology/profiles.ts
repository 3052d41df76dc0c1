// The assembly stage: observations of every source become one market profile per market (docs/contract.md 2.1-2.4).
import {
  PRODUCTION_MODE,
  PROFILE_CAVEATS,
  SCHEMA_VERSION,
  byId,
  compareIds,
  type Coverage,
  type MarketProfile,
  type Metric,
  type Source,
} from '../contract/schemas.ts';
import { GEOGRAPHY_LEVELS, areaPhrase, type Area } from '../contract/geography.ts';
import { listWords } from '../contract/words.ts';
import { DataError } from '../contract/errors.ts';
import type { MarketDefinition } from '../contract/markets.ts';
import { profileLinks } from '../contract/paths.ts';
import type { LoadedSources } from '../sources/load.ts';
import type { MetricSeries, Observation } from '../sources/source.ts';
import { periodRange, periodRangeOf } from '../contract/periods.ts';
import type { Change, Qualifier, ScoreBound } from '../contract/schemas.ts';
import { changeBetween } from './comparisons.ts';
import { daysBetween, sourceFreshness, worstFreshness } from './freshness.ts';
import {
  computeCoverage,
  inMetricOrder,
  isMetricId,
  metricDefinition,
  metricsOf,
  requiredOf,
  type MetricId,
  type ProfileMetrics,
  type Values,
} from './metrics.ts';
import { SCORE_KEYS, boundedScores, scoreDependencies, type ScoreKey, type ScoreValues } from './scores.ts';
import { METHODOLOGY_VERSION } from './version.ts';

type ProfileBody = MarketProfile['profile'];

/** A market profile as the build assembles it: the contract's document, its metrics and scores keyed by their typed ids. */
/** A profile's geographyScope as the build makes it: each boundary an area with the codes of its level. */
export interface AreaScope {
  note: string;
  boundaries: (Area & { metrics: string[] })[];
}

export interface AssembledProfile extends Omit<MarketProfile, 'profile' | 'geographyScope'> {
  geographyScope?: AreaScope;
  profile: Omit<ProfileBody, 'metrics' | 'scores' | 'illustrativeScores' | 'scoreBounds' | 'coverage'> & {
    metrics: ProfileMetrics;
    scores: ScoreValues;
    illustrativeScores?: ScoreKey[];
    scoreBounds?: Partial<Record<ScoreKey, ScoreBound>>;
    coverage: Omit<Coverage, 'missing'> & { missing: MetricId[] };
  };
}

/** Copies a source record with its keys in contract order, optional dates omitted when unknown. */
function sourceEntry(s: Source): Source {
  return {
    sourceId: s.sourceId,
    sourceName: s.sourceName,
    agency: s.agency,
    datasetName: s.datasetName,
    sourceUrl: s.sourceUrl,
    confidence: s.confidence,
    updateFrequency: s.updateFrequency,
    provenance: s.provenance,
    ...(s.latestReleaseDate === undefined ? {} : { latestReleaseDate: s.latestReleaseDate }),
    ...(s.latestRetrievedAt === undefined ? {} : { latestRetrievedAt: s.latestRetrievedAt }),
    ...(s.latestReleaseDateBasis === undefined ? {} : { latestReleaseDateBasis: s.latestReleaseDateBasis }),
    ...(s.readFrom === undefined ? {} : { readFrom: s.readFrom }),
  };
}

/** The year whose dollars a figure of this period is in, for a metric stated in the dollars of its period's last year. */
export const dollarYearOf = (asOf: string): number => Number(periodRange(asOf).end.slice(0, 4));

/**
 * How a figure compares with the latest earlier one of its series that shares no part of its period and has a
 * margin of error (the Census Bureau compares 5-year estimates only so): none where there is no such figure, or where
 * either is open-ended (an interval's edge is no figure to take a difference of).
 */
function changeOf(
  metric: Pick<Metric, 'value' | 'asOf' | 'marginOfError' | 'qualifier'>,
  history: MetricSeries | undefined,
  decimals: number,
  dollars: boolean,
): Change | undefined {
  const start = periodRangeOf(metric.asOf)?.start;
  if (history === undefined || start === undefined || metric.qualifier !== undefined) return undefined;
  const earlier = [...history.points]
    .reverse()
    .find((p) => p.value !== undefined && p.marginOfError !== undefined && p.qualifier === undefined && (periodRangeOf(p.period)?.end ?? start) < start);
  if (earlier?.value === undefined) return undefined;
  const from = { value: earlier.value, ...(earlier.marginOfError === undefined ? {} : { marginOfError: earlier.marginOfError }) };
  return {
    from: { asOf: earlier.period, ...from, ...(dollars ? { dollarYear: dollarYearOf(earlier.period) } : {}) },
    ...changeBetween(metric, from, decimals),
    ...(dollars ? { dollars: 'nominal' as const } : {}),
  };
}

function freshnessNote(sources: readonly Source[], snapshotDate: string): string {
  const parts = sources.map((s) => {
    const release =
      s.latestReleaseDate === undefined
        ? 'release date unknown'
        : `released ${s.latestReleaseDate}, ${daysBetween(s.latestReleaseDate, snapshotDate)} days before the snapshot`;
    return `${s.sourceId} (${s.updateFrequency}) ${release}: ${sourceFreshness(s, snapshotDate)}`;
  });
  return `Static fixtures, snapshot ${snapshotDate}. Each source is judged against its update frequency: ${parts.join('; ')}.`;
}

/** The boundary as a sentence names it, with its codes: "Austin city, Texas (Census place 4805000)"; a division with its metro's name. */
export const boundaryPhrase = (b: Area, cbsaName: string | undefined): string => areaPhrase(b, cbsaName);

/**
 * Metrics and the area they describe, as a clause of the geographyScope note and of the market page's covers line:
 * "median gross rent and housing units describe Austin city, Texas (Census place 4805000)", metrics in the methodology's order.
 */
export function coverageClause(metricIds: readonly string[], boundary: Area, cbsaName: string | undefined): string {
  const nouns = inMetricOrder(metricIds).map((id) => metricDefinition(id)?.noun ?? id);
  return `${listWords(nouns)} ${nouns.length === 1 && !/s$/.test(nouns[0] ?? '') ? 'describes' : 'describe'} ${boundaryPhrase(boundary, cbsaName)}`;
}

/**
 * geographyScope appears whenever a market's metrics come from more than one boundary (today every market: the city's
 * ACS and permits values beside a metro's or a metropolitan division's price index). It names each boundary with its
 * codes and states, the metrics it measures, and says the same in one sentence.
 */
function geographyScope(market: MarketDefinition, observations: readonly Observation[]): AreaScope | undefined {
  const boundaries = new Map<string, { boundary: Area; metrics: Set<string> }>();
  for (const o of observations) {
    const key = `${o.boundary.level}:${Object.values(o.boundary.codes).join(':')}`;
    const entry = boundaries.get(key) ?? { boundary: o.boundary, metrics: new Set<string>() };
    entry.metrics.add(o.metricId);
    boundaries.set(key, entry);
  }
  if (boundaries.size < 2) return undefined;
  const entries = [...boundaries.values()].sort((a, b) => GEOGRAPHY_LEVELS[a.boundary.level].order - GEOGRAPHY_LEVELS[b.boundary.level].order);
  const sentence = entries.map(({ boundary, metrics }) => coverageClause([...metrics], boundary, market.cbsaName)).join('; ');
  return {
    note: `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`,
    boundaries: entries.map(({ boundary, metrics }) => ({ ...boundary, metrics: [...metrics].sort(compareIds) })),
  };
}

export function assembleProfile(
  market: MarketDefinition,
  data: LoadedSources,
  baseUrl: string,
  observations: readonly Observation[],
  series: readonly MetricSeries[] = [],
): AssembledProfile {
  const metrics: { [K in MetricId]?: Metric } = {};
  const values: { [K in MetricId]?: number } = {};
  const open = new Map<MetricId, Qualifier>();
  const histories = new Map(series.map((s) => [s.metricId, s]));
  for (const o of [...observations].sort(byId((o) => o.metricId))) {
    const definition = metricDefinition(o.metricId);
    if (definition === undefined || !isMetricId(o.metricId)) {
      throw new DataError(
        'unknown_metric',
        { ...o.origin, marketId: market.id },
        `source ${o.sourceId} produced metric "${o.metricId}", which methodology ${METHODOLOGY_VERSION} does not define`,
      );
    }
    if (!Number.isFinite(o.value)) {
      throw new DataError(
        'not_numeric',
        { ...o.origin, marketId: market.id },
        `source ${o.sourceId} produced ${o.value} for "${o.metricId}"; values must be finite numbers`,
      );
    }
    if (metrics[o.metricId] !== undefined) {
      throw new DataError(
        'duplicate_metric',
        { ...o.origin, marketId: market.id },
        `metric "${o.metricId}" is provided twice (by ${metrics[o.metricId]?.sourceId} and ${o.sourceId})`,
      );
    }
    if (o.marginOfError !== undefined && !(Number.isFinite(o.marginOfError) && o.marginOfError >= 0)) {
      throw new DataError(
        'not_numeric',
        { ...o.origin, marketId: market.id },
        `source ${o.sourceId} produced the margin of error ${o.marginOfError} for "${o.metricId}"; a margin is a finite number, 0 or more`,
      );
    }
    const dollars = definition.dollars === 'period-end';
    const change = changeOf(o, histories.get(o.metricId), definition.decimals, dollars);
    metrics[o.metricId] = {
      id: o.metricId,
      label: definition.label,
      unit: definition.unit,
      value: o.value,
      asOf: o.asOf,
      sourceId: o.sourceId,
      ...(o.marginOfError === undefined ? {} : { marginOfError: o.marginOfError }),
      ...(o.illustrative === true ? { illustrative: true as const } : {}),
      ...(o.qualifier === undefined ? {} : { qualifier: o.qualifier }),
      ...(dollars ? { dollarYear: dollarYearOf(o.asOf) } : {}),
      ...(o.comparisons === undefined || o.comparisons.length === 0 ? {} : { comparisons: o.comparisons }),
      ...(change === undefined ? {} : { change }),
    };
    values[o.metricId] = o.value;
    if (o.qualifier !== undefined) open.set(o.metricId, o.qualifier);
  }
  const { scores, bounds } = boundedScores(values satisfies Values, open);
  const scoreBounds = SCORE_KEYS.filter((key) => bounds[key] !== undefined);
  const illustrativeScores = illustrativeScoresOf(scores, metrics);
  const cited = new Set(Object.values(metrics).map((m) => m.sourceId));
  const sources = data.loads
    .map((l) => l.source)
    .filter((s) => cited.has(s.sourceId))
    .sort(byId((s) => s.sourceId));
  const retrievals = sources
    .map((s) => s.latestRetrievedAt)
    .filter((d): d is string => d !== undefined)
    .sort();
  const scope = geographyScope(market, observations);
  return {
    schemaVersion: SCHEMA_VERSION,
    generatedAt: data.snapshotDate,
    methodologyVersion: METHODOLOGY_VERSION,
    productionMode: PRODUCTION_MODE,
    liveData: false,
    market: {
      id: market.id,
      name: market.name,
      slug: market.slug,
      state: market.state,
      stateCode: market.stateCode,
      countryCode: market.countryCode,
      ...(market.countyName === undefined ? {} : { countyName: market.countyName }),
      ...(market.cbsaName === undefined ? {} : { cbsaName: market.cbsaName }),
    },
    profile: {
      updatedDate: data.snapshotDate,
      scores,
      ...(illustrativeScores.length === 0 ? {} : { illustrativeScores }),
      ...(scoreBounds.length === 0 ? {} : { scoreBounds: bounds }),
      metrics,
      freshness: {
        provenance: sources.every((s) => s.provenance === 'fixture') ? 'fixture' : 'live',
        freshness: worstFreshness(sources.map((s) => sourceFreshness(s, data.snapshotDate))),
        // The oldest retrieval among the cited sources: the profile is no newer than that.
        retrievedAt: retrievals[0] ?? data.snapshotDate,
        note: freshnessNote(sources, data.snapshotDate),
      },
      coverage: computeCoverage(new Set(Object.keys(metrics)), requiredOf(metricsOf(data.metricIds))),
    },
    sources: sources.map(sourceEntry),
    caveats: [...PROFILE_CAVEATS],
    links: profileLinks(baseUrl, market.id),
    ...(scope === undefined ? {} : { geographyScope: scope }),
  };
}

const DEPENDENCIES = scoreDependencies();

/** The scores a profile has that read an illustrative metric: they are no more published than their inputs. */
export function illustrativeScoresOf(scores: ScoreValues, metrics: ProfileMetrics): ScoreKey[] {
  return SCORE_KEYS.filter((key) => scores[key] !== undefined && DEPENDENCIES[key].some((id) => metrics[id]?.illustrative === true));
}

export function assembleProfiles(markets: readonly MarketDefinition[], data: LoadedSources, baseUrl: string): AssembledProfile[] {
  // Grouped once, so assembly stays linear in the number of markets.
  const byMarket = grouped(data.loads.flatMap((l) => l.observations));
  const seriesByMarket = grouped(data.loads.flatMap((l) => l.series));
  return markets.map((m) => assembleProfile(m, data, baseUrl, byMarket.get(m.id) ?? [], seriesByMarket.get(m.id) ?? []));
}

/** Items by market id, in their order. */
function grouped<T extends { marketId: string }>(items: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const list = out.get(item.marketId);
    if (list === undefined) out.set(item.marketId, [item]);
    else list.push(item);
  }
  return out;
}
