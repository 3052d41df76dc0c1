// The fixed registry of the sixteen supported markets (docs/contract.md 2.5) and the census codes adapters join on.
import { byId } from './schemas.ts';

export interface MarketDefinition {
  id: string;
  name: string;
  slug: string;
  state: string;
  stateCode: string;
  countryCode: string;
  countyName?: string;
  cbsaName?: string;
  /** Census place code: two-digit state FIPS and five-digit place FIPS (ACS, BPS). */
  placeGeoid: { state: string; place: string };
  /** Census place name as the Census Bureau writes it. */
  placeName: string;
  /** Core-based statistical area code (FHFA metro HPI). */
  cbsaCode: string;
  /** Two-letter codes of every state the CBSA touches, in the order of its name. */
  cbsaStates: string[];
  /**
   * The metropolitan divisions FHFA publishes for this market's metro in place of a whole-metro row: for each edition of
   * the OMB delineations, the division that holds the market's principal city (empty when the metro is not divided).
   */
  fhfaDivisions: readonly FhfaDivision[];
  /**
   * Where the Building Permits Survey publishes a city as several rows of its place code, one per county (New York
   * City's five boroughs), the counties whose rows add up to the market's permits (methodology v1.1). Absent: the place's one row.
   */
  bpsParts?: readonly BpsPart[];
  /** Where the principal city's centre is, in degrees: only to place the market's dot on the home page's map. Absent: no dot. */
  location?: Location;
}

export interface Location {
  lat: number;
  lon: number;
}

/** One row of a city the Building Permits Survey publishes county by county: the county's FIPS code and the row's name. */
export interface BpsPart {
  countyFips: string;
  name: string;
}

/** An edition of the OMB metropolitan delineations that FHFA's metro HPI file has followed. */
export type Delineation = '2020' | '2023';

/** A metropolitan division (MSAD) as FHFA's hpi_at_metro.csv names and codes it. */
export interface FhfaDivision {
  /** Five-digit metropolitan division code. */
  code: string;
  /** The division's name as the file writes it, without the ` (MSAD)` marker. */
  name: string;
  /** The editions of the delineations in which this division holds the principal city. */
  delineations: readonly Delineation[];
}

/**
 * The rule that names a market's FHFA series, in the order the FHFA adapter tries them: the whole metro (CBSA code)
 * where FHFA publishes it, else the metropolitan division that holds the market's principal city.
 */
export function fhfaSeriesCodes(market: Pick<MarketDefinition, 'cbsaCode' | 'fhfaDivisions'>): string[] {
  return [market.cbsaCode, ...market.fhfaDivisions.map((d) => d.code)];
}

const division = (code: string, name: string, ...delineations: Delineation[]): FhfaDivision => ({ code, name, delineations });
const BOTH: Delineation[] = ['2020', '2023'];

function market(
  stateCode: string,
  state: string,
  name: string,
  fips: [string, string],
  placeName: string,
  countyName: string | undefined,
  cbsaCode: string,
  cbsaName: string,
  fhfaDivisions: readonly FhfaDivision[] = [],
  bpsParts?: readonly BpsPart[],
): MarketDefinition {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const cbsaStates = (cbsaName.split(', ').pop() ?? '').split('-');
  return {
    id: `us-${stateCode.toLowerCase()}-${slug}`,
    name,
    slug,
    state,
    stateCode,
    countryCode: 'US',
    ...(countyName === undefined ? {} : { countyName }),
    cbsaName,
    placeGeoid: { state: fips[0], place: fips[1] },
    placeName,
    cbsaCode,
    cbsaStates,
    fhfaDivisions,
    ...(bpsParts === undefined ? {} : { bpsParts }),
  };
}

/** Each city's centre (its city hall), rounded to 0.01 degree: a dot on a national map needs no more. */
const LOCATIONS: Readonly<Record<string, Location>> = {
  'us-az-phoenix': { lat: 33.45, lon: -112.07 },
  'us-ca-los-angeles': { lat: 34.05, lon: -118.24 },
  'us-ca-san-diego': { lat: 32.72, lon: -117.16 },
  'us-ca-san-francisco': { lat: 37.78, lon: -122.42 },
  'us-co-denver': { lat: 39.74, lon: -104.99 },
  'us-dc-washington': { lat: 38.9, lon: -77.04 },
  'us-fl-miami': { lat: 25.77, lon: -80.19 },
  'us-fl-tampa': { lat: 27.95, lon: -82.46 },
  'us-ga-atlanta': { lat: 33.75, lon: -84.39 },
  'us-il-chicago': { lat: 41.88, lon: -87.63 },
  'us-ma-boston': { lat: 42.36, lon: -71.06 },
  'us-ny-new-york': { lat: 40.71, lon: -74.01 },
  'us-tn-nashville': { lat: 36.17, lon: -86.78 },
  'us-tx-austin': { lat: 30.27, lon: -97.74 },
  'us-tx-dallas': { lat: 32.78, lon: -96.8 },
  'us-wa-seattle': { lat: 47.6, lon: -122.33 },
};

/**
 * Sorted by id, the order every listing uses.
 *
 * FHFA series (hpi_at_metro.csv): the whole metro where FHFA publishes it, else the metropolitan division that holds
 * the principal city. In the 2020 delineations FHFA publishes no whole-metro row for New York, Los Angeles, Chicago,
 * Dallas, Miami, Washington, Boston, San Francisco and Seattle; in the 2023 delineations (FHFA's files from the
 * 2025 Q1 release on) also none for Atlanta and Tampa, whose metros were divided. The other five are whole metros in both.
 */
export const MARKETS: readonly MarketDefinition[] = [
  market('TX', 'Texas', 'Austin', ['48', '05000'], 'Austin city, Texas', 'Travis County', '12420', 'Austin-Round Rock-San Marcos, TX'),
  market('FL', 'Florida', 'Miami', ['12', '45000'], 'Miami city, Florida', 'Miami-Dade County', '33100', 'Miami-Fort Lauderdale-West Palm Beach, FL', [
    division('33124', 'Miami-Miami Beach-Kendall, FL', ...BOTH),
  ]),
  market('AZ', 'Arizona', 'Phoenix', ['04', '55000'], 'Phoenix city, Arizona', 'Maricopa County', '38060', 'Phoenix-Mesa-Chandler, AZ'),
  market('WA', 'Washington', 'Seattle', ['53', '63000'], 'Seattle city, Washington', 'King County', '42660', 'Seattle-Tacoma-Bellevue, WA', [
    division('42644', 'Seattle-Bellevue-Kent, WA', ...BOTH),
  ]),
  market('CO', 'Colorado', 'Denver', ['08', '20000'], 'Denver city, Colorado', 'Denver County', '19740', 'Denver-Aurora-Centennial, CO'),
  market(
    'TN',
    'Tennessee',
    'Nashville',
    ['47', '52006'],
    'Nashville-Davidson metropolitan government (balance), Tennessee',
    'Davidson County',
    '34980',
    'Nashville-Davidson--Murfreesboro--Franklin, TN',
  ),
  market('TX', 'Texas', 'Dallas', ['48', '19000'], 'Dallas city, Texas', 'Dallas County', '19100', 'Dallas-Fort Worth-Arlington, TX', [
    division('19124', 'Dallas-Plano-Irving, TX', ...BOTH),
  ]),
  market('FL', 'Florida', 'Tampa', ['12', '71000'], 'Tampa city, Florida', 'Hillsborough County', '45300', 'Tampa-St. Petersburg-Clearwater, FL', [
    division('45294', 'Tampa, FL', '2023'),
  ]),
  market(
    'CA',
    'California',
    'Los Angeles',
    ['06', '44000'],
    'Los Angeles city, California',
    'Los Angeles County',
    '31080',
    'Los Angeles-Long Beach-Anaheim, CA',
    [division('31084', 'Los Angeles-Long Beach-Glendale, CA', ...BOTH)],
  ),
  market('CA', 'California', 'San Diego', ['06', '66000'], 'San Diego city, California', 'San Diego County', '41740', 'San Diego-Chula Vista-Carlsbad, CA'),
  market(
    'CA',
    'California',
    'San Francisco',
    ['06', '67000'],
    'San Francisco city, California',
    'San Francisco County',
    '41860',
    'San Francisco-Oakland-Fremont, CA',
    [division('41884', 'San Francisco-San Mateo-Redwood City, CA', ...BOTH)],
  ),
  // New York city spans five counties (the boroughs), so no single county name applies.
  // The Building Permits Survey publishes the city as one row per borough, each with the city's place code and the borough's county.
  market(
    'NY',
    'New York',
    'New York',
    ['36', '51000'],
    'New York city, New York',
    undefined,
    '35620',
    'New York-Newark-Jersey City, NY-NJ',
    [division('35614', 'New York-Jersey City-White Plains, NY-NJ', ...BOTH)],
    [
      { countyFips: '005', name: 'Bronx borough' },
      { countyFips: '047', name: 'Brooklyn borough' },
      { countyFips: '061', name: 'Manhattan borough' },
      { countyFips: '081', name: 'Queens borough' },
      { countyFips: '085', name: 'Staten Island borough' },
    ],
  ),
  market('MA', 'Massachusetts', 'Boston', ['25', '07000'], 'Boston city, Massachusetts', 'Suffolk County', '14460', 'Boston-Cambridge-Newton, MA-NH', [
    division('14454', 'Boston, MA', ...BOTH),
  ]),
  market('IL', 'Illinois', 'Chicago', ['17', '14000'], 'Chicago city, Illinois', 'Cook County', '16980', 'Chicago-Naperville-Elgin, IL-IN', [
    // Named Chicago-Naperville-Evanston, IL in the 2020 delineations; the code is the same.
    division('16984', 'Chicago-Naperville-Schaumburg, IL', ...BOTH),
  ]),
  market('GA', 'Georgia', 'Atlanta', ['13', '04000'], 'Atlanta city, Georgia', 'Fulton County', '12060', 'Atlanta-Sandy Springs-Roswell, GA', [
    division('12054', 'Atlanta-Sandy Springs-Roswell, GA', '2023'),
  ]),
  market(
    'DC',
    'District of Columbia',
    'Washington',
    ['11', '50000'],
    'Washington city, District of Columbia',
    'District of Columbia',
    '47900',
    'Washington-Arlington-Alexandria, DC-VA-MD-WV',
    [division('47764', 'Washington, DC-MD', '2023'), division('47894', 'Washington-Arlington-Alexandria, DC-VA-MD-WV', '2020')],
  ),
]
  .map((m): MarketDefinition => {
    const location = LOCATIONS[m.id];
    return location === undefined ? m : { ...m, location };
  })
  .sort(byId((m) => m.id));

export const MARKET_IDS: readonly string[] = MARKETS.map((m) => m.id);

const marketById = new Map(MARKETS.map((m) => [m.id, m]));

export function findMarket(id: string): MarketDefinition | undefined {
  return marketById.get(id);
}
