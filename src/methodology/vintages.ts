// The vintage index (/api/vintages): the current snapshot first, then every archived one, each with its sources' vintages, files and next expected release.
import { PATHS } from '../contract/paths.ts';
import { PRODUCTION_MODE, SCHEMA_VERSION, compareIds, type MarketProfile, type ReleaseDateBasis } from '../contract/schemas.ts';
import { VINTAGE_CAVEATS, type ArchivedSource, type Vintage, type VintageIndex, type VintageSource } from '../contract/vintages.ts';
import type { PastSnapshot } from './series.ts';
import { isMetricId } from './metrics.ts';
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

/** The metrics each market's profile marks illustrative, by market id; undefined where none is. */
function illustrativeOf(profiles: Iterable<Pick<MarketProfile, 'market' | 'profile'>>): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const p of profiles) {
    const ids = Object.values(p.profile.metrics)
      .filter((m) => m.illustrative === true)
      .map((m) => m.id)
      .sort(compareIds);
    if (ids.length > 0) out[p.market.id] = ids;
  }
  const ids = Object.keys(out).sort(compareIds);
  return ids.length === 0 ? undefined : Object.fromEntries(ids.map((id) => [id, out[id] ?? []]));
}

const BASIS_WORDS: Readonly<Record<ReleaseDateBasis, string | undefined>> = {
  published: undefined,
  reported: "comes from public records other than the agency's own release notice",
  inferred: "is inferred from the agency's release calendar; the release itself was not seen",
};

/**
 * What the current snapshot says of an archived one's figures that the archived bytes do not: a value it serves
 * unqualified that is an interval's edge, a release date whose basis it did not say. Only where the two hold the same
 * figure or date, so nothing is said of what changed between them.
 */
function laterNotes(past: PastSnapshot, snapshot: Snapshot): string[] {
  const notes: string[] = [];
  const now = new Map(snapshot.markets.map((m) => [m.profile.market.id, m.profile]));
  for (const [id, old] of [...past.profiles].sort(([a], [b]) => compareIds(a, b))) {
    for (const [metricId, was] of Object.entries(old.profile.metrics).sort(([a], [b]) => compareIds(a, b))) {
      const is = isMetricId(metricId) ? now.get(id)?.profile.metrics[metricId] : undefined;
      if (is?.qualifier === undefined || was.qualifier !== undefined || is.value !== was.value || is.asOf !== was.asOf || is.sourceId !== was.sourceId)
        continue;
      notes.push(
        `${id} ${metricId} ${String(was.value)} (${was.asOf}) is the agency's "${is.qualifier.publishedAs}": an open-ended interval's edge, not an exact figure, and without a margin of error (said from the snapshot of ${snapshot.snapshotDate} on).`,
      );
    }
  }
  for (const source of past.sources) {
    const current = snapshot.sources.find((s) => s.source.sourceId === source.sourceId)?.source;
    const basis = current?.latestReleaseDateBasis;
    const words = basis === undefined ? undefined : BASIS_WORDS[basis];
    if (
      words === undefined ||
      source.latestReleaseDateBasis !== undefined ||
      current?.latestReleaseDate !== source.latestReleaseDate ||
      source.latestReleaseDate === undefined
    )
      continue;
    notes.push(`${source.sourceId}'s release date ${source.latestReleaseDate} ${words} (said from the snapshot of ${snapshot.snapshotDate} on).`);
  }
  return notes;
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
      ...(source.latestReleaseDateBasis === undefined ? {} : { latestReleaseDateBasis: source.latestReleaseDateBasis }),
      ...(source.latestRetrievedAt === undefined ? {} : { latestRetrievedAt: source.latestRetrievedAt }),
      files: [...files],
    }));
}

/** A vintage's optional descriptions, each present only where it says something. */
const described = (illustrative: Record<string, string[]> | undefined, notes: string[]): Pick<Vintage, 'illustrative' | 'laterNotes'> => ({
  ...(illustrative === undefined ? {} : { illustrative }),
  ...(notes.length === 0 ? {} : { laterNotes: notes }),
});

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
          ...described(illustrativeOf(snapshot.markets.map((m) => m.profile)), []),
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
          ...described(illustrativeOf(archivedNow.profiles.values()), []),
          links: links(baseUrl, date, [...archivedNow.profiles.keys()]),
        };
  const others = snapshot.archive
    .filter((p) => p.snapshotDate !== date)
    .map((p): Vintage => ({
      snapshotDate: p.snapshotDate,
      methodologyVersion: p.methodologyVersion,
      current: false,
      sources: p.sources.map((s) => listed(s, p.snapshotDate)),
      ...described(illustrativeOf(p.profiles.values()), laterNotes(p, snapshot)),
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
