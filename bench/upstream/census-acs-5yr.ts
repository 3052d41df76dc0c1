// Census ACS files in the published layout for synthetic markets (scale benchmark, tests of page size and of large inputs).
import type { SyntheticMarket } from './types.ts';

/** The ACS files for these markets, keyed by fixture path. */
export function acsFiles(markets: readonly SyntheticMarket[]): Map<string, string> {
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
  for (const { i, market } of markets) {
    const { state: fips, place } = market.placeGeoid;
    const renters = 50000 + (i % 997) * 100;
    acs.push([
      market.placeName,
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
    dp04.push([market.placeName, (3 + (i % 50) / 10).toFixed(1), fips, place]);
  }
  return new Map([
    ['census-acs-5yr/acs5-2024-detailed-place.json', `[\n${acs.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`],
    ['census-acs-5yr/acs5-2024-profile-place.json', `[\n${dp04.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`],
    ['census-acs-5yr/retrieval.json', '{"vintage":"2020-2024","latestReleaseDate":"2025-12-11","latestRetrievedAt":"2026-09-28"}'],
  ]);
}
