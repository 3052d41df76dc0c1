// Today's data: the service's own fixtures/ and source registry, read only by the tests that hold what it serves now (the published values, the golden files).
import { fileURLToPath } from 'node:url';
import { buildRouteTable } from '../../src/pipeline/build.ts';
import { MARKET_IDS } from '../../src/contract/markets.ts';
import type { MarketProfile } from '../../src/contract/schemas.ts';
import type { RouteTable } from '../../src/routes/route-table.ts';
import { fixturesOnDisk } from '../../src/sources/load.ts';
import { BASE_URL, servedProfiles } from './data.ts';

/** The service's fixtures/: what it serves today. */
export const TODAY_FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/** The route table the service builds today: every registered source and market, from fixtures/. */
export const buildToday = (baseUrl: string = BASE_URL): RouteTable => buildRouteTable({ baseUrl, read: fixturesOnDisk(TODAY_FIXTURES) });

/** Every market's profile as served today. */
export const todaysProfiles = (table: RouteTable): MarketProfile[] => servedProfiles(table, MARKET_IDS);
