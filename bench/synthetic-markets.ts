// Synthetic markets in each upstream's fixture shape, any number of them: for the scale benchmark and the tests that page size does not grow with the market count.
import type { MarketDefinition } from '../src/contract/markets.ts';
import type { ReadFixture } from '../src/sources/types.ts';
import { acsFiles } from './upstream/census-acs-5yr.ts';
import { bpsFiles } from './upstream/census-bps.ts';
import { fhfaFiles, fhfaRegistryFields } from './upstream/fhfa-hpi.ts';
import type { SyntheticMarket } from './upstream/types.ts';

const STATES = [
  ['TX', 'Texas', '48'],
  ['CA', 'California', '06'],
  ['FL', 'Florida', '12'],
  ['NY', 'New York', '36'],
] as const;

/** N markets with their codes, and fixture files in each upstream's shape with values of realistic size. */
export function synthetic(n: number): { markets: MarketDefinition[]; read: ReadFixture } {
  const all: SyntheticMarket[] = [];
  for (let i = 0; i < n; i += 1) {
    const [code, state, fips] = STATES[i % STATES.length] ?? STATES[0];
    const name = `Town ${i}`;
    all.push({
      i,
      market: {
        id: `us-${code.toLowerCase()}-town-${i}`,
        name,
        slug: `town-${i}`,
        state,
        stateCode: code,
        countryCode: 'US',
        countyName: `County ${i}`,
        placeGeoid: { state: fips, place: String(10000 + i).padStart(5, '0') },
        placeName: `${name} city, ${state}`,
        ...fhfaRegistryFields(i, String(20000 + i), `${name} Metro, ${code}`, code),
      },
    });
  }
  const files = new Map([...acsFiles(all), ...fhfaFiles(all), ...bpsFiles(all)]);
  return {
    markets: all.map((m) => m.market),
    read: (path) => {
      const text = files.get(path);
      if (text === undefined) throw new Error(`no synthetic fixture ${path}`);
      return text;
    },
  };
}
