// The client package's generated types are the contract's, to the type: each line fails to compile when the two differ (checked by tsc in test/integration/client.test.ts and by npm run typecheck).
import type * as Generated from '../../client/src/generated/contract.ts';
import type { CsvColumn, CsvDescriptor, MarketIndex, MarketProfile } from '../../src/contract/schemas.ts';
import type { MarketSeries, SeriesCsvColumn, SeriesCsvDescriptor } from '../../src/contract/series.ts';
import type { VintageIndex } from '../../src/contract/vintages.ts';
import type { ProblemCode } from '../../src/protocol/problems.ts';
import type { MetricId } from '../../src/methodology/metrics.ts';
import type { ScoreKey } from '../../src/methodology/scores.ts';

/** True only when A and B are the same type (not merely assignable to each other). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Same, but for the key K, compared on its own. */
type SameBut<A, B, K extends keyof A & keyof B> = Same<Omit<A, K>, Omit<B, K>>;

/**
 * The maps by id (a profile's and a series' metrics, every scores object) are typed by the ids the service defines, each
 * optional, with no index signature, where the published schemas take any id: the contract's value types, keyed by
 * the registry's metric ids and the score definitions' keys (client.test.ts holds the market ids to the registry's).
 */
type ProfileBody = MarketProfile['profile'];
type Metric = ProfileBody['metrics'][string];
type IndexEntry = MarketIndex['markets'][number];
type GeneratedEntry = Generated.MarketIndex['markets'][number];
type ByKnown<K extends string, V> = { [P in K]?: V };

export const SAME: Record<string, true> = {
  MarketProfile: true satisfies SameBut<Generated.MarketProfile, MarketProfile, 'profile'>,
  'MarketProfile.profile': true satisfies SameBut<Generated.MarketProfile['profile'], ProfileBody, 'scores' | 'metrics'>,
  'MarketProfile.profile.scores': true satisfies Same<Generated.MarketProfile['profile']['scores'], ByKnown<ScoreKey, number>>,
  'MarketProfile.profile.metrics': true satisfies Same<Generated.MarketProfile['profile']['metrics'], ByKnown<MetricId, Metric>>,
  MarketIndex: true satisfies SameBut<Generated.MarketIndex, MarketIndex, 'markets'>,
  'MarketIndex.markets[]': true satisfies SameBut<GeneratedEntry, IndexEntry, 'scores'>,
  'MarketIndex.markets[].scores': true satisfies Same<GeneratedEntry['scores'], ByKnown<ScoreKey, number>>,
  MarketSeries: true satisfies SameBut<Generated.MarketSeries, MarketSeries, 'metrics'>,
  'MarketSeries.metrics': true satisfies Same<Generated.MarketSeries['metrics'], ByKnown<MetricId, MarketSeries['metrics'][string]>>,
  KnownMetricId: true satisfies Same<Generated.KnownMetricId, MetricId>,
  KnownScoreId: true satisfies Same<Generated.KnownScoreId, ScoreKey>,
  VintageIndex: true satisfies Same<Generated.VintageIndex, VintageIndex>,
  CsvDescriptor: true satisfies Same<Generated.CsvDescriptor, CsvDescriptor>,
  SeriesCsvDescriptor: true satisfies Same<Generated.SeriesCsvDescriptor, SeriesCsvDescriptor>,
  CsvColumn: true satisfies Same<Generated.CsvColumn, CsvColumn>,
  SeriesCsvColumn: true satisfies Same<Generated.SeriesCsvColumn, SeriesCsvColumn>,
  ProblemCode: true satisfies Same<Generated.ProblemCode, ProblemCode>,
};

/** The check is sharp: a field left out, an optional field made required, a constant widened or an id added is a difference. */
export const DIFFERENT: Record<string, false> = {
  'a field left out': false satisfies SameBut<Generated.MarketProfile, Omit<MarketProfile, 'sources'>, 'profile'>,
  'an optional field made required': false satisfies Same<Generated.Metric, Required<Metric>>,
  'an id added': false satisfies Same<Generated.KnownMetricId, MetricId | 'medianRentAddedLater'>,
  'a constant widened': false satisfies Same<Generated.MarketProfile['liveData'], boolean>,
};
