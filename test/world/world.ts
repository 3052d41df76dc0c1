// The test world: the markets, sources, fixtures and archived snapshots the machinery's tests build from, pinned so that new data or a new source leaves them as they are.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readArchive } from '../../src/archive/archive.ts';
import { buildRouteTable, buildSnapshot, type BuildOptions } from '../../src/pipeline/build.ts';
import { findMarket, type MarketDefinition } from '../../src/contract/markets.ts';
import { metricsOf, requiredOf, type MetricDefinition, type MetricId } from '../../src/methodology/metrics.ts';
import type { PastSnapshot } from '../../src/methodology/series.ts';
import type { Snapshot } from '../../src/methodology/snapshot.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { censusAcs5yr } from '../../src/sources/census-acs-5yr/index.ts';
import { censusBps } from '../../src/sources/census-bps/index.ts';
import { fhfaHpi } from '../../src/sources/fhfa-hpi/index.ts';
import { fixturesOnDisk } from '../../src/sources/load.ts';
import { withMetrics, type SourceModule } from '../../src/sources/source.ts';

/** test/world/fixtures/: each source's files as the service held them on 2026-11-29, and the files the source modules read since (test/world/README.md). */
export const WORLD_FIXTURES = fileURLToPath(new URL('fixtures/', import.meta.url));

/**
 * The world's own archive (test/world/archive/): the service's first snapshot, 2026-11-24, as archive/ holds it, and the
 * world's own 2026-11-29 snapshot as the machinery writes it today (test/world/README.md says how it is rewritten when
 * the machinery's output changes, as the golden files are). The service's archive/ is today's data, not the world's.
 */
export const ARCHIVE_DIR = fileURLToPath(new URL('archive/', import.meta.url));

/**
 * The world's metrics, by id, in its pages' order: the ten the world was pinned with. A metric the product adds (read or
 * derived) is not among them, so the world's sources do not read or derive it and no machinery test changes.
 */
export const WORLD_METRIC_IDS = [
  'medianGrossRent',
  'medianHouseholdIncome',
  'medianHomeValue',
  'medianOwnerCostsWithMortgage',
  'homeownershipRate',
  'vacancyRate',
  'housingUnits',
  'homePriceIndex',
  'homePriceChange',
  'permits',
] as const satisfies readonly MetricId[];

/** The world's sources: the product's modules named here (not read from the registry), each with the world's metrics only. */
export const WORLD_ACS = withMetrics(censusAcs5yr, WORLD_METRIC_IDS);
export const WORLD_FHFA = withMetrics(fhfaHpi, WORLD_METRIC_IDS);
export const WORLD_BPS = withMetrics(censusBps, WORLD_METRIC_IDS);

/** The world's sources, in the order its pages list their metrics. */
export const WORLD_SOURCES: readonly SourceModule[] = [WORLD_ACS, WORLD_FHFA, WORLD_BPS];

/** The world's markets, by id: the sixteen markets the service launched with, whatever the registry holds besides. */
export const WORLD_MARKET_IDS = [
  'us-az-phoenix',
  'us-ca-los-angeles',
  'us-ca-san-diego',
  'us-ca-san-francisco',
  'us-co-denver',
  'us-dc-washington',
  'us-fl-miami',
  'us-fl-tampa',
  'us-ga-atlanta',
  'us-il-chicago',
  'us-ma-boston',
  'us-ny-new-york',
  'us-tn-nashville',
  'us-tx-austin',
  'us-tx-dallas',
  'us-wa-seattle',
] as const;

export const WORLD_MARKETS: readonly MarketDefinition[] = WORLD_MARKET_IDS.map((id) => findMarket(id) ?? fail(`the market registry has no ${id}`));

/** The world's markets and sources: what `runnersFor` (src/commands/cli.ts) is given to run the commands on the world. */
export const WORLD_INPUTS: Pick<BuildOptions, 'markets' | 'sources'> = { markets: WORLD_MARKETS, sources: WORLD_SOURCES };

/** The world's metric definitions, in its pages' order, and the ids of those the methodology requires. */
export const WORLD_METRICS: readonly MetricDefinition[] = metricsOf(WORLD_METRIC_IDS);
export const WORLD_REQUIRED_METRIC_IDS: readonly MetricId[] = requiredOf(WORLD_METRICS);

/** The world's snapshot date: the latest retrieval among its fixtures. */
export const WORLD_SNAPSHOT_DATE = '2026-11-29';

/** The archived snapshots of the world: those archived up to its snapshot date. */
export const WORLD_ARCHIVE_DATES: readonly string[] = ['2026-11-24', '2026-11-29'];

/** The world's archived snapshots, read from its archive (only the dated folders the world names). */
export function worldArchive(dir: string = ARCHIVE_DIR): PastSnapshot[] {
  return readArchive(dir).filter((s) => WORLD_ARCHIVE_DATES.includes(s.snapshotDate));
}

/** Copies the world's archived snapshots into a folder: the `--archive` of a command run on the world. */
export function copyWorldArchive(to: string): void {
  for (const date of WORLD_ARCHIVE_DATES) cpSync(join(ARCHIVE_DIR, date), join(to, date), { recursive: true });
}

/** What a build of the world is given; a test overrides the parts it is about (a reader with one file edited, an archive). */
export const worldInputs = (options: Partial<BuildOptions> = {}): BuildOptions => ({
  baseUrl: 'http://localhost:3000',
  read: fixturesOnDisk(WORLD_FIXTURES),
  ...WORLD_INPUTS,
  ...options,
});

/** The world's validated route table. */
export const buildWorld = (options: Partial<BuildOptions> = {}): RouteTable => buildRouteTable(worldInputs(options));

/** The world's snapshot and its validated route table. */
export const buildWorldSnapshot = (options: Partial<BuildOptions> = {}): { snapshot: Snapshot; table: RouteTable } => buildSnapshot(worldInputs(options));

/** A file of the world's fixtures, by its path below fixtures/. */
export const worldFixture = (path: string): string => join(WORLD_FIXTURES, path);

function fail(message: string): never {
  throw new Error(message);
}
