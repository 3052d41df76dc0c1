// FHFA HPI files in the published layout for synthetic markets (scale benchmark, tests of page size and of large inputs).
import type { MarketDefinition } from '../../src/markets.ts';
import type { SyntheticMarket } from './types.ts';

/** The registry fields of the FHFA series of synthetic market i (whose metro code is `cbsa`). */
export function fhfaRegistryFields(
  _i: number,
  cbsa: string,
  cbsaName: string,
  stateCode: string,
): Pick<MarketDefinition, 'cbsaCode' | 'cbsaName' | 'cbsaStates'> {
  return { cbsaCode: cbsa, cbsaName, cbsaStates: [stateCode] };
}

/** The FHFA files for these markets, keyed by fixture path. */
export function fhfaFiles(markets: readonly SyntheticMarket[]): Map<string, string> {
  const hpi: string[] = [];
  for (const { i, market } of markets) {
    for (const [year, q, idx] of [
      [2025, 2, 300 + (i % 200)],
      [2026, 1, 305 + (i % 200)],
      [2026, 2, 310 + (i % 210)],
    ] as const) {
      hpi.push(`"${market.cbsaName ?? ''}",${market.cbsaCode},${year},${q},${idx.toFixed(2)},1.50`);
    }
  }
  return new Map([
    ['fhfa-hpi/HPI_AT_metro.csv', `${hpi.join('\n')}\n`],
    ['fhfa-hpi/retrieval.json', '{"vintage":"2026 Q2","latestReleaseDate":"2026-08-26","latestRetrievedAt":"2026-09-28"}'],
  ]);
}
