// Census BPS files in the published layout for synthetic markets (scale benchmark, tests of page size and of large inputs).
import type { SyntheticMarket } from './types.ts';

/** The BPS files for these markets, keyed by fixture path. */
export function bpsFiles(markets: readonly SyntheticMarket[]): Map<string, string> {
  const bps: string[] = [
    'Survey,State,6-Digit,County,Census Place,FIPS Place,FIPS MCD,Pop,CSA,CBSA,Footnote,Central,Zip,Region,Division,Number of,Place,1-unit,,,2-units,,,3-4 units,,,5+ units,,,1-unit rep,,,2-units rep,,,3-4 units rep,,,5+ units rep,,',
    'Date,Code,ID,Code,Code,Code,Code,,Code,Code,Code,City,Code,Code,Code,Months Rep,Name,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value,Bldgs,Units,Value',
  ];
  for (const { i, market } of markets) {
    bps.push(
      [
        '2025',
        market.placeGeoid.state,
        '000000',
        '001',
        '0000',
        market.placeGeoid.place,
        '00000',
        '100000',
        '',
        market.cbsaCode,
        '',
        '1',
        '',
        '3',
        '7',
        '12',
        market.name,
        ...Array.from({ length: 24 }, (_, k) => String(k % 3 === 1 ? 100 + (i % 50) : 1000)),
      ].join(','),
    );
  }
  return new Map([
    ['census-bps/place-annual-2025.txt', `${bps.join('\r\n')}\r\n`],
    ['census-bps/retrieval.json', '{"vintage":"2025","latestReleaseDate":"2026-05-01","latestRetrievedAt":"2026-09-28"}'],
  ]);
}
