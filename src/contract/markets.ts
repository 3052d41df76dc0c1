// The fixed registry of the sixteen supported markets (docs/contract.md 2.5) and their geography: the codes of the city, its metro and divisions.
import { byId } from './json.ts';

export interface MarketDefinition {
  id: string;
  name: string;
  slug: string;
  state: string;
  stateCode: string;
  countryCode: string;
  countyName?: string;
  cbsaName?: string;
  /** Census place code: two-digit state FIPS and five-digit place FIPS. */
  placeGeoid: { state: string; place: string };
  /** Census place name as the Census Bureau writes it. */
  placeName: string;
  /**
   * The counties a city spans, where it spans several and a survey publishes it county by county (New York City's five
   * boroughs, each a county). Absent: the city is one row wherever it is published by place.
   */
  counties?: readonly CityCounty[];
  /** Core-based statistical area code (OMB metro area). */
  cbsaCode: string;
  /** Two-letter codes of every state the CBSA touches, in the order of its name. */
  cbsaStates: string[];
  /**
   * The metropolitan divisions of the market's metro area that hold its principal city, one per edition of the OMB
   * delineations that divides the metro (empty when the metro is not divided).
   */
  divisions: readonly MetroDivision[];
  /** Where the principal city's centre is, in degrees: only to place the market's dot on the home page's map. Absent: no dot. */
  location?: Location;
}

export interface Location {
  lat: number;
  lon: number;
}

/** One county of a city that spans several: its FIPS code and the name of the part of the city it holds. */
export interface CityCounty {
  countyFips: string;
  name: string;
}

/** An edition of the OMB metropolitan delineations. */
export type Delineation = '2020' | '2023';

/** A metropolitan division (MSAD), as its code and the name OMB gives it. */
export interface MetroDivision {
  /** Five-digit metropolitan division code. */
  code: string;
  /** The division's name, e.g. "Dallas-Plano-Irving, TX". */
  name: string;
  /** The editions of the delineations in which this division holds the principal city. */
  delineations: readonly Delineation[];
}

/** A market as the registry writes it: what the id, slug and metro states are derived from. */
interface MarketEntry {
  stateCode: string;
  state: string;
  name: string;
  placeGeoid: { state: string; place: string };
  placeName: string;
  /** New York City spans five counties (the boroughs), so no single county name applies. */
  countyName?: string;
  cbsaCode: string;
  cbsaName: string;
  divisions?: readonly MetroDivision[];
  counties?: readonly CityCounty[];
  location: Location;
}

const division = (code: string, name: string, ...delineations: Delineation[]): MetroDivision => ({ code, name, delineations });
const BOTH: Delineation[] = ['2020', '2023'];

function market(entry: MarketEntry): MarketDefinition {
  const slug = entry.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return {
    id: `us-${entry.stateCode.toLowerCase()}-${slug}`,
    name: entry.name,
    slug,
    state: entry.state,
    stateCode: entry.stateCode,
    countryCode: 'US',
    ...(entry.countyName === undefined ? {} : { countyName: entry.countyName }),
    cbsaName: entry.cbsaName,
    placeGeoid: entry.placeGeoid,
    placeName: entry.placeName,
    ...(entry.counties === undefined ? {} : { counties: entry.counties }),
    cbsaCode: entry.cbsaCode,
    cbsaStates: (entry.cbsaName.split(', ').pop() ?? '').split('-'),
    divisions: entry.divisions ?? [],
    location: entry.location,
  };
}

/**
 * Sorted by id, the order every listing uses. Each city's centre (its city hall) is rounded to 0.01 degree: a dot on a
 * national map needs no more.
 *
 * Metropolitan divisions: in the 2020 delineations the metros of New York, Los Angeles, Chicago, Dallas, Miami,
 * Washington, Boston, San Francisco and Seattle are divided; in the 2023 delineations also those of Atlanta and Tampa.
 * The other five are undivided in both.
 */
export const MARKETS: readonly MarketDefinition[] = [
  market({
    stateCode: 'TX',
    state: 'Texas',
    name: 'Austin',
    placeGeoid: { state: '48', place: '05000' },
    placeName: 'Austin city, Texas',
    countyName: 'Travis County',
    cbsaCode: '12420',
    cbsaName: 'Austin-Round Rock-San Marcos, TX',
    location: { lat: 30.27, lon: -97.74 },
  }),
  market({
    stateCode: 'FL',
    state: 'Florida',
    name: 'Miami',
    placeGeoid: { state: '12', place: '45000' },
    placeName: 'Miami city, Florida',
    countyName: 'Miami-Dade County',
    cbsaCode: '33100',
    cbsaName: 'Miami-Fort Lauderdale-West Palm Beach, FL',
    divisions: [division('33124', 'Miami-Miami Beach-Kendall, FL', ...BOTH)],
    location: { lat: 25.77, lon: -80.19 },
  }),
  market({
    stateCode: 'AZ',
    state: 'Arizona',
    name: 'Phoenix',
    placeGeoid: { state: '04', place: '55000' },
    placeName: 'Phoenix city, Arizona',
    countyName: 'Maricopa County',
    cbsaCode: '38060',
    cbsaName: 'Phoenix-Mesa-Chandler, AZ',
    location: { lat: 33.45, lon: -112.07 },
  }),
  market({
    stateCode: 'WA',
    state: 'Washington',
    name: 'Seattle',
    placeGeoid: { state: '53', place: '63000' },
    placeName: 'Seattle city, Washington',
    countyName: 'King County',
    cbsaCode: '42660',
    cbsaName: 'Seattle-Tacoma-Bellevue, WA',
    divisions: [division('42644', 'Seattle-Bellevue-Kent, WA', ...BOTH)],
    location: { lat: 47.6, lon: -122.33 },
  }),
  market({
    stateCode: 'CO',
    state: 'Colorado',
    name: 'Denver',
    placeGeoid: { state: '08', place: '20000' },
    placeName: 'Denver city, Colorado',
    countyName: 'Denver County',
    cbsaCode: '19740',
    cbsaName: 'Denver-Aurora-Centennial, CO',
    location: { lat: 39.74, lon: -104.99 },
  }),
  market({
    stateCode: 'TN',
    state: 'Tennessee',
    name: 'Nashville',
    placeGeoid: { state: '47', place: '52006' },
    placeName: 'Nashville-Davidson metropolitan government (balance), Tennessee',
    countyName: 'Davidson County',
    cbsaCode: '34980',
    cbsaName: 'Nashville-Davidson--Murfreesboro--Franklin, TN',
    location: { lat: 36.17, lon: -86.78 },
  }),
  market({
    stateCode: 'TX',
    state: 'Texas',
    name: 'Dallas',
    placeGeoid: { state: '48', place: '19000' },
    placeName: 'Dallas city, Texas',
    countyName: 'Dallas County',
    cbsaCode: '19100',
    cbsaName: 'Dallas-Fort Worth-Arlington, TX',
    divisions: [division('19124', 'Dallas-Plano-Irving, TX', ...BOTH)],
    location: { lat: 32.78, lon: -96.8 },
  }),
  market({
    stateCode: 'FL',
    state: 'Florida',
    name: 'Tampa',
    placeGeoid: { state: '12', place: '71000' },
    placeName: 'Tampa city, Florida',
    countyName: 'Hillsborough County',
    cbsaCode: '45300',
    cbsaName: 'Tampa-St. Petersburg-Clearwater, FL',
    divisions: [division('45294', 'Tampa, FL', '2023')],
    location: { lat: 27.95, lon: -82.46 },
  }),
  market({
    stateCode: 'CA',
    state: 'California',
    name: 'Los Angeles',
    placeGeoid: { state: '06', place: '44000' },
    placeName: 'Los Angeles city, California',
    countyName: 'Los Angeles County',
    cbsaCode: '31080',
    cbsaName: 'Los Angeles-Long Beach-Anaheim, CA',
    divisions: [division('31084', 'Los Angeles-Long Beach-Glendale, CA', ...BOTH)],
    location: { lat: 34.05, lon: -118.24 },
  }),
  market({
    stateCode: 'CA',
    state: 'California',
    name: 'San Diego',
    placeGeoid: { state: '06', place: '66000' },
    placeName: 'San Diego city, California',
    countyName: 'San Diego County',
    cbsaCode: '41740',
    cbsaName: 'San Diego-Chula Vista-Carlsbad, CA',
    location: { lat: 32.72, lon: -117.16 },
  }),
  market({
    stateCode: 'CA',
    state: 'California',
    name: 'San Francisco',
    placeGeoid: { state: '06', place: '67000' },
    placeName: 'San Francisco city, California',
    countyName: 'San Francisco County',
    cbsaCode: '41860',
    cbsaName: 'San Francisco-Oakland-Fremont, CA',
    divisions: [division('41884', 'San Francisco-San Mateo-Redwood City, CA', ...BOTH)],
    location: { lat: 37.78, lon: -122.42 },
  }),
  market({
    stateCode: 'NY',
    state: 'New York',
    name: 'New York',
    placeGeoid: { state: '36', place: '51000' },
    placeName: 'New York city, New York',
    cbsaCode: '35620',
    cbsaName: 'New York-Newark-Jersey City, NY-NJ',
    divisions: [division('35614', 'New York-Jersey City-White Plains, NY-NJ', ...BOTH)],
    counties: [
      { countyFips: '005', name: 'Bronx borough' },
      { countyFips: '047', name: 'Brooklyn borough' },
      { countyFips: '061', name: 'Manhattan borough' },
      { countyFips: '081', name: 'Queens borough' },
      { countyFips: '085', name: 'Staten Island borough' },
    ],
    location: { lat: 40.71, lon: -74.01 },
  }),
  market({
    stateCode: 'MA',
    state: 'Massachusetts',
    name: 'Boston',
    placeGeoid: { state: '25', place: '07000' },
    placeName: 'Boston city, Massachusetts',
    countyName: 'Suffolk County',
    cbsaCode: '14460',
    cbsaName: 'Boston-Cambridge-Newton, MA-NH',
    divisions: [division('14454', 'Boston, MA', ...BOTH)],
    location: { lat: 42.36, lon: -71.06 },
  }),
  market({
    stateCode: 'IL',
    state: 'Illinois',
    name: 'Chicago',
    placeGeoid: { state: '17', place: '14000' },
    placeName: 'Chicago city, Illinois',
    countyName: 'Cook County',
    cbsaCode: '16980',
    cbsaName: 'Chicago-Naperville-Elgin, IL-IN',
    // Named Chicago-Naperville-Evanston, IL in the 2020 delineations; the code is the same.
    divisions: [division('16984', 'Chicago-Naperville-Schaumburg, IL', ...BOTH)],
    location: { lat: 41.88, lon: -87.63 },
  }),
  market({
    stateCode: 'GA',
    state: 'Georgia',
    name: 'Atlanta',
    placeGeoid: { state: '13', place: '04000' },
    placeName: 'Atlanta city, Georgia',
    countyName: 'Fulton County',
    cbsaCode: '12060',
    cbsaName: 'Atlanta-Sandy Springs-Roswell, GA',
    divisions: [division('12054', 'Atlanta-Sandy Springs-Roswell, GA', '2023')],
    location: { lat: 33.75, lon: -84.39 },
  }),
  market({
    stateCode: 'DC',
    state: 'District of Columbia',
    name: 'Washington',
    placeGeoid: { state: '11', place: '50000' },
    placeName: 'Washington city, District of Columbia',
    countyName: 'District of Columbia',
    cbsaCode: '47900',
    cbsaName: 'Washington-Arlington-Alexandria, DC-VA-MD-WV',
    divisions: [division('47764', 'Washington, DC-MD', '2023'), division('47894', 'Washington-Arlington-Alexandria, DC-VA-MD-WV', '2020')],
    location: { lat: 38.9, lon: -77.04 },
  }),
].sort(byId((m) => m.id));

export const MARKET_IDS: readonly string[] = MARKETS.map((m) => m.id);

const marketById = new Map(MARKETS.map((m) => [m.id, m]));

export function findMarket(id: string): MarketDefinition | undefined {
  return marketById.get(id);
}
