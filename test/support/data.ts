// Shared test inputs: the test world's fixtures read once, readers with one file altered, and the world's built table.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { MarketProfile } from '../../src/contract/schemas.ts';
import { PATHS } from '../../src/contract/paths.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import type { ReadFixture } from '../../src/sources/source.ts';
import { WORLD_FIXTURES, WORLD_MARKET_IDS, buildWorld } from '../world/world.ts';

/** The test world's fixtures (test/world/): the machinery's tests read these, never the service's fixtures/. */
export const FIXTURES_DIR = WORLD_FIXTURES;
export const BASE_URL = 'http://localhost:3000';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Every file of the world's fixtures, keyed by its path relative to the fixtures folder. */
export const FIXTURE_FILES: ReadonlyMap<string, string> = new Map(walk(FIXTURES_DIR).map((path) => [relative(FIXTURES_DIR, path), readFileSync(path, 'utf8')]));

/** Reads the world's fixtures from memory, with some files replaced or edited. */
export function fixtureReader(edits: Record<string, (text: string) => string> = {}): ReadFixture {
  return (path) => {
    const text = FIXTURE_FILES.get(path);
    if (text === undefined) throw new Error(`no fixture ${path}`);
    const edit = edits[path];
    return edit === undefined ? text : edit(text);
  };
}

/** The world's route table, built for a base URL from its fixtures (or a reader with some edited). */
export function buildTable(baseUrl: string = BASE_URL, read: ReadFixture = fixtureReader()): RouteTable {
  return buildWorld({ baseUrl, read });
}

export const body = (table: RouteTable, path: string): string => {
  const route = table.routes.get(path);
  if (route === undefined) throw new Error(`no route ${path}`);
  return route.identity.body.toString('utf8');
};

/** The served profile of every market of the world, parsed from the bytes the route table holds. */
export function servedProfiles(table: RouteTable, marketIds: readonly string[] = WORLD_MARKET_IDS): MarketProfile[] {
  return marketIds.map((id) => JSON.parse(body(table, PATHS.profile(id))) as MarketProfile);
}

/** FHFA's hpi_at_metro.csv one quarter on: after each series' last row, a row for the next quarter 1 % above it (a "-" stays "-"). */
export function fhfaNextQuarter(text: string): string {
  const rows = text.split('\n').filter((l) => l !== '');
  const next: string[] = [];
  rows.forEach((row, i) => {
    next.push(row);
    const [name, rest = ''] = row.split('",');
    const fields = rest.split(',');
    if (rows[i + 1]?.split('",')[1]?.split(',')[0] === fields[0]) return;
    const [year, quarter] = [Number(fields[1]), Number(fields[2])];
    const [y, q] = quarter === 4 ? [year + 1, 1] : [year, quarter + 1];
    const index = fields[3] === '-' ? '-' : (Number(fields[3]) * 1.01).toFixed(2);
    next.push(`${name}",${fields[0]},${y},${q},${index},${index === '-' ? '-' : '( 3.50)'}`);
  });
  return `${next.join('\n')}\n`;
}

/** FHFA's HPI_master.csv one quarter on: after each series' last line, a line for the next quarter 1 % above it (the same release as fhfaNextQuarter's metro file). */
export function fhfaMasterNextQuarter(text: string): string {
  const [header = '', ...rows] = text.split('\n').filter((l) => l !== '');
  const next: string[] = [header];
  // The fields after the place: place_id, yr, period, index_nsa, then the three empty ones.
  const split = (row: string): string[] => row.split(',');
  rows.forEach((row, i) => {
    next.push(row);
    const fields = split(row);
    const id = fields.at(-7);
    if (rows[i + 1] !== undefined && split(rows[i + 1] ?? '').at(-7) === id) return;
    const [year, quarter, index] = [Number(fields.at(-6)), Number(fields.at(-5)), Number(fields.at(-4))];
    const [y, q] = quarter === 4 ? [year + 1, 1] : [year, quarter + 1];
    next.push([...fields.slice(0, -6), y, q, (index * 1.01).toFixed(2), '', '', ''].join(','));
  });
  return `${next.join('\n')}\n`;
}
