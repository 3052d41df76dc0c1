// The vintage index (/api/vintages): the current snapshot first, then every archived one, each with its sources' vintages, files and next expected release.
import { PATHS } from '../contract/paths.ts';
import { PRODUCTION_MODE, SCHEMA_VERSION, compareIds } from '../contract/schemas.ts';
import { VINTAGE_CAVEATS, type ArchivedSource, type Vintage, type VintageIndex, type VintageSource } from '../contract/vintages.ts';
import { isOverdue, nextExpectedRelease } from './freshness.ts';
import type { Snapshot } from './snapshot.ts';
import { METHODOLOGY_VERSION } from './version.ts';

/** A source as the index lists it: as recorded, with its next release and whether it was overdue at that snapshot's date. */
function listed(source: ArchivedSource, snapshotDate: string): VintageSource {
  const next = nextExpectedRelease(source);
  return { ...source, ...(next === undefined ? {} : { nextExpectedRelease: next, overdue: isOverdue(source, snapshotDate) }) };
}

function links(baseUrl: string, date: string, marketIds: readonly string[]): Vintage['links'] {
  return {
    index: baseUrl + PATHS.vintageIndex(date),
    bulkCsv: baseUrl + PATHS.vintageBulkCsv(date),
    markets: Object.fromEntries(
      [...marketIds].sort(compareIds).map((id) => [id, { json: baseUrl + PATHS.vintageProfile(date, id), csv: baseUrl + PATHS.vintageCsv(date, id) }]),
    ),
  };
}

/** The sources of the current snapshot as an archive records them. */
export function currentSources(snapshot: Snapshot): ArchivedSource[] {
  const cited = new Set(snapshot.markets.flatMap((m) => m.profile.sources.map((s) => s.sourceId)));
  return snapshot.sources
    .filter((s) => cited.has(s.source.sourceId))
    .map(({ source, vintage, files }) => ({
      sourceId: source.sourceId,
      vintage,
      updateFrequency: source.updateFrequency,
      ...(source.latestReleaseDate === undefined ? {} : { latestReleaseDate: source.latestReleaseDate }),
      ...(source.latestRetrievedAt === undefined ? {} : { latestRetrievedAt: source.latestRetrievedAt }),
      files: [...files],
    }));
}

export function buildVintageIndex(snapshot: Snapshot, baseUrl: string): VintageIndex {
  const date = snapshot.snapshotDate;
  const archivedNow = snapshot.archive.find((p) => p.snapshotDate === date);
  const current: Vintage =
    archivedNow === undefined
      ? {
          snapshotDate: date,
          methodologyVersion: METHODOLOGY_VERSION,
          current: true,
          sources: currentSources(snapshot).map((s) => listed(s, date)),
          links: links(
            baseUrl,
            date,
            snapshot.markets.map((m) => m.profile.market.id),
          ),
        }
      : {
          snapshotDate: date,
          methodologyVersion: archivedNow.methodologyVersion,
          current: true,
          sources: archivedNow.sources.map((s) => listed(s, date)),
          links: links(baseUrl, date, [...archivedNow.profiles.keys()]),
        };
  const others = snapshot.archive
    .filter((p) => p.snapshotDate !== date)
    .map((p): Vintage => ({
      snapshotDate: p.snapshotDate,
      methodologyVersion: p.methodologyVersion,
      current: false,
      sources: p.sources.map((s) => listed(s, p.snapshotDate)),
      links: links(baseUrl, p.snapshotDate, [...p.profiles.keys()]),
    }));
  const vintages = [current, ...others];
  return {
    schemaVersion: SCHEMA_VERSION,
    generatedAt: date,
    productionMode: PRODUCTION_MODE,
    liveData: false,
    count: vintages.length,
    vintages,
    caveats: [...VINTAGE_CAVEATS],
    links: { self: baseUrl + PATHS.vintages, schema: baseUrl + PATHS.vintagesSchema },
  };
}
