// The client package's generated types are the contract's, to the type: each line fails to compile when the two differ (checked by tsc in test/integration/client.test.ts and by npm run typecheck).
import type * as Generated from '../../client/src/generated/contract.ts';
import type { CsvColumn, CsvDescriptor, MarketIndex, MarketProfile } from '../../src/contract/schemas.ts';
import type { MarketSeries, SeriesCsvColumn, SeriesCsvDescriptor } from '../../src/contract/series.ts';
import type { VintageIndex } from '../../src/contract/vintages.ts';
import type { ProblemCode } from '../../src/protocol/problems.ts';

/** True only when A and B are the same type (not merely assignable to each other). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Same, but for the key K, compared on its own. */
type SameBut<A, B, K extends keyof A & keyof B> = Same<Omit<A, K>, Omit<B, K>>;

/**
 * The scores object's schema allows any further score key (`additionalProperties` a score), which the generated type says
 * and TypeBox's Static leaves out: the contract's type is compared with that index signature added.
 */
type Scores<S> = S & { [key: string]: number };
type ProfileBody = MarketProfile['profile'];
type IndexEntry = MarketIndex['markets'][number];
type GeneratedEntry = Generated.MarketIndex['markets'][number];

export const SAME: Record<string, true> = {
  MarketProfile: true satisfies SameBut<Generated.MarketProfile, MarketProfile, 'profile'>,
  'MarketProfile.profile': true satisfies SameBut<Generated.MarketProfile['profile'], ProfileBody, 'scores'>,
  'MarketProfile.profile.scores': true satisfies Same<Generated.MarketProfile['profile']['scores'], Scores<ProfileBody['scores']>>,
  MarketIndex: true satisfies SameBut<Generated.MarketIndex, MarketIndex, 'markets'>,
  'MarketIndex.markets[]': true satisfies SameBut<GeneratedEntry, IndexEntry, 'scores'>,
  'MarketIndex.markets[].scores': true satisfies Same<GeneratedEntry['scores'], Scores<IndexEntry['scores']>>,
  MarketSeries: true satisfies Same<Generated.MarketSeries, MarketSeries>,
  VintageIndex: true satisfies Same<Generated.VintageIndex, VintageIndex>,
  CsvDescriptor: true satisfies Same<Generated.CsvDescriptor, CsvDescriptor>,
  SeriesCsvDescriptor: true satisfies Same<Generated.SeriesCsvDescriptor, SeriesCsvDescriptor>,
  CsvColumn: true satisfies Same<Generated.CsvColumn, CsvColumn>,
  SeriesCsvColumn: true satisfies Same<Generated.SeriesCsvColumn, SeriesCsvColumn>,
  ProblemCode: true satisfies Same<Generated.ProblemCode, ProblemCode>,
};

/** The check is sharp: a field left out, an optional field made required, or a constant widened is a difference. */
type Metric = ProfileBody['metrics'][string];
export const DIFFERENT: Record<string, false> = {
  'a field left out': false satisfies SameBut<Generated.MarketProfile, Omit<MarketProfile, 'sources'>, 'profile'>,
  'an optional field made required': false satisfies Same<Generated.MarketProfile['profile']['metrics'][string], Required<Metric>>,
  'a constant widened': false satisfies Same<Generated.MarketProfile['liveData'], boolean>,
};
