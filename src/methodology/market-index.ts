// Builds the /api/markets index envelope from the assembled profiles (docs/contract.md 2.8).
import { PROFILE_CAVEATS, PRODUCTION_MODE, SCHEMA_VERSION, byId, type IndexEntry, type MarketIndex, type MarketProfile } from '../contract/schemas.ts';
import { METHODOLOGY_VERSION } from './version.ts';
import { ENTRY_LINKS, INDEX_LINKS } from '../contract/paths.ts';
import type { IndexLink } from '../contract/endpoints.ts';
import { recordOf } from '../contract/records.ts';

/** The URLs of these links (those of the index, or of a market's entry), for a market where they name one; the schema's type is theirs. */
const urlsOf = <Links>(links: readonly IndexLink[], baseUrl: string, marketId = ''): Links =>
  recordOf(links.map((l) => [l.key, baseUrl + (typeof l.path === 'string' ? l.path : l.path(marketId))])) as Links;

export function buildMarketIndex(profiles: readonly MarketProfile[], snapshotDate: string, baseUrl: string): MarketIndex {
  const markets = [...profiles].sort(byId((p) => p.market.id)).map((p) => ({
    id: p.market.id,
    name: p.market.name,
    state: p.market.state,
    stateCode: p.market.stateCode,
    ...(p.market.cbsaName === undefined ? {} : { cbsaName: p.market.cbsaName }),
    updatedDate: p.profile.updatedDate,
    scores: p.profile.scores,
    ...(p.profile.illustrativeScores === undefined ? {} : { illustrativeScores: p.profile.illustrativeScores }),
    ...(p.profile.scoreBounds === undefined ? {} : { scoreBounds: p.profile.scoreBounds }),
    coverage: { percent: p.profile.coverage.percent, missing: p.profile.coverage.missing },
    freshness: p.profile.freshness.freshness,
    links: urlsOf<IndexEntry['links']>(ENTRY_LINKS, baseUrl, p.market.id),
  }));
  return {
    schemaVersion: SCHEMA_VERSION,
    generatedAt: snapshotDate,
    methodologyVersion: METHODOLOGY_VERSION,
    productionMode: PRODUCTION_MODE,
    liveData: false,
    count: markets.length,
    markets,
    links: urlsOf<MarketIndex['links']>(INDEX_LINKS, baseUrl),
    caveats: [...PROFILE_CAVEATS],
  };
}
