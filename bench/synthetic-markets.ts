// Synthetic markets in each upstream's fixture shape, any number of them: for the scale benchmark and the tests that page size does not grow with the market count.
import type { MarketDefinition } from '../src/markets.ts';
import type { ReadFixture } from '../src/sources/types.ts';

const STATES = [
  ['TX', 'Texas', '48'],
  ['CA', 'California', '06'],
  ['FL', 'Florida', '12'],
  ['NY', 'New York', '36'],
] as const;

/** N markets with their codes, and fixture files in each upstream's shape with values of realistic size. */
export function synthetic(n: number): { markets: MarketDefinition[]; read: ReadFixture } {
  const markets: MarketDefinition[] = [];
  const acs: string[][] = [
    [
      'NAME',
      'B25064_001E',
      'B19013_001E',
      'B25001_001E',
      'B25070_001E',
      'B25070_007E',
      'B25070_008E',
      'B25070_009E',
      'B25070_010E',
      'B25070_011E',
      'state',
      'place',
    ],
  ];
  const dp04: string[][] = [['NAME', 'DP04_0005E', 'state', 'place']];
  const hpi: string[] = [];
  const bps: string[] = [
    'Survey,State,6-Digit,County,Census Place,FIPS Place,FIPS MCD,Pop,CSA,CBSA,Footnote,Central,Zip,Region,Division,Number of,Place,1-unit,,,2-units,,,3-4 units,,,5+ units,,,1-unit rep,,,2-units rep,,,3-4 units rep,,,5+ units rep,,',
    'Date,Code,ID,Code,Code,Code,Code,,Code,Code,Code,City,Code,Code,Code,Months Rep,Name,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value',
  ];
  for (let i = 0; i < n; i += 1) {
    const [code, state, fips] = STATES[i % STATES.length] ?? STATES[0];
    const place = String(10000 + i).padStart(5, '0');
    const cbsa = String(20000 + i);
    const name = `Town ${i}`;
    const placeName = `${name} city, ${state}`;
    const cbsaName = `${name} Metro, ${code}`;
    markets.push({
      id: `us-${code.toLowerCase()}-town-${i}`,
      name,
      slug: `town-${i}`,
      state,
      stateCode: code,
      countryCode: 'US',
      countyName: `County ${i}`,
      cbsaName,
      placeGeoid: { state: fips, place },
      placeName,
      cbsaCode: cbsa,
      cbsaStates: [code],
    });
    const renters = 50000 + (i % 997) * 100;
    acs.push([
      placeName,
      String(1200 + (i % 900)),
      String(60000 + (i % 5000) * 10),
      String(renters * 2),
      String(renters),
      '5000',
      '4000',
      '5000',
      String(9000 + (i % 3000)),
      '1000',
      fips,
      place,
    ]);
    dp04.push([placeName, (3 + (i % 50) / 10).toFixed(1), fips, place]);
    for (const [year, q, idx] of [
      [2025, 2, 300 + (i % 200)],
      [2026, 1, 305 + (i % 200)],
      [2026, 2, 310 + (i % 210)],
    ] as const) {
      hpi.push(`"${cbsaName}",${cbsa},${year},${q},${idx.toFixed(2)},1.50`);
    }
    bps.push(
      [
        '2025',
        fips,
        '000000',
        '001',
        '0000',
        place,
        '00000',
        '100000',
        '',
        cbsa,
        '',
        '1',
        '',
        '3',
        '7',
        '12',
        name,
        ...Array.from({ length: 24 }, (_, k) => String(k % 3 === 1 ? 100 + (i % 50) : 1000)),
      ].join(','),
    );
  }
  const files = new Map<string, string>([
    ['census-acs-5yr/acs5-2024-detailed-place.json', `[\n${acs.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`],
    ['census-acs-5yr/acs5-2024-profile-place.json', `[\n${dp04.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`],
    ['census-acs-5yr/retrieval.json', '{"vintage":"2020-2024","latestReleaseDate":"2025-12-11","latestRetrievedAt":"2026-09-28"}'],
    ['fhfa-hpi/HPI_AT_metro.csv', `${hpi.join('\n')}\n`],
    ['fhfa-hpi/retrieval.json', '{"vintage":"2026 Q2","latestReleaseDate":"2026-08-26","latestRetrievedAt":"2026-09-28"}'],
    ['census-bps/place-annual-2025.txt', `${bps.join('\r\n')}\r\n`],
    ['census-bps/retrieval.json', '{"vintage":"2025","latestReleaseDate":"2026-05-01","latestRetrievedAt":"2026-09-28"}'],
  ]);
  return {
    markets,
    read: (path) => {
      const text = files.get(path);
      if (text === undefined) throw new Error(`no synthetic fixture ${path}`);
      return text;
    },
  };
}
