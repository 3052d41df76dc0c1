// What the per-source writers of synthetic upstream files are given: each market with its index (values derive from it).
import type { MarketDefinition } from '../../src/contract/markets.ts';

export interface SyntheticMarket {
  i: number;
  market: MarketDefinition;
}
