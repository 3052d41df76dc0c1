// Builds the /api/markets index envelope from the assembled profiles (docs/contract.md 2.8).
import { PROFILE_CAVEATS, PRODUCTION_MODE, SCHEMA_VERSION, byId, type MarketIndex, type MarketProfile } from '../contract/schemas.ts';
import { METHODOLOGY_VERSION } from './version.ts';
import { PATHS } from '../contract/paths.ts';

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
    coverage: { percent: p.profile.coverage.percent, missing: p.profile.coverage.missing },
    freshness: p.profile.freshness.freshness,
    links: {
      json: baseUrl + PATHS.profile(p.market.id),
      csv: baseUrl + PATHS.marketCsv(p.market.id),
      html: baseUrl + PATHS.marketPage(p.market.id),
      series: baseUrl + PATHS.series(p.market.id),
    },
  }));
  return {
    schemaVersion: SCHEMA_VERSION,
    generatedAt: snapshotDate,
    methodologyVersion: METHODOLOGY_VERSION,
    productionMode: PRODUCTION_MODE,
    liveData: false,
    count: markets.length,
    markets,
    links: {
      self: baseUrl + PATHS.index,
      bulkCsv: baseUrl + PATHS.bulkCsv,
      profileSchema: baseUrl + PATHS.profileSchema,
      csvDescriptor: baseUrl + PATHS.csvDescriptor,
      indexSchema: baseUrl + PATHS.indexSchema,
      html: baseUrl + PATHS.home,
      bulkSeriesCsv: baseUrl + PATHS.bulkSeriesCsv,
      vintages: baseUrl + PATHS.vintages,
      download: baseUrl + PATHS.download,
    },
    caveats: [...PROFILE_CAVEATS],
  };
}
