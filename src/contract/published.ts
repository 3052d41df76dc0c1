// The documents the service describes itself with, each with the title and description it is published under: the draft-07 schemas at /api/schema/* and the OpenAPI components are both made from these.
import { DRAFT_07, MarketIndex, MarketProfile, SCHEMA_VERSION, plainSchema } from './schemas.ts';
import { MarketSeries } from './series.ts';
import { VintageIndex } from './vintages.ts';
import { PATHS } from './paths.ts';

export const CONTRACT_SCHEMAS = {
  MarketProfile: {
    schema: MarketProfile,
    path: PATHS.profileSchema,
    title: 'Market profile response',
    description: `Schema version ${SCHEMA_VERSION} of a market profile. Unknown properties are allowed so that additive optional fields (see the versioning policy on the changelog page) do not break validators; constants, types, ranges and required fields are enforced.`,
  },
  MarketIndex: {
    schema: MarketIndex,
    path: PATHS.indexSchema,
    title: 'Market index response',
    description: `Schema version ${SCHEMA_VERSION} of the index of markets at /api/markets. Unknown properties are allowed.`,
  },
  MarketSeries: {
    schema: MarketSeries,
    path: PATHS.seriesSchema,
    title: 'Market series response',
    description: `Schema version ${SCHEMA_VERSION} of a market's series at /api/markets/<market-id>/series: every observation the snapshot holds, per metric. Unknown properties are allowed.`,
  },
  VintageIndex: {
    schema: VintageIndex,
    path: PATHS.vintagesSchema,
    title: 'Vintage index response',
    description: `Schema version ${SCHEMA_VERSION} of the index of published snapshots at /api/vintages. Unknown properties are allowed.`,
  },
} as const;

export type ContractSchemaName = keyof typeof CONTRACT_SCHEMAS;

/** A contract schema as the plain draft-07 JSON document we publish at its path. */
export function publishedSchema(name: ContractSchemaName, baseUrl: string): Record<string, unknown> {
  const { schema, path, title, description } = CONTRACT_SCHEMAS[name];
  return { $schema: DRAFT_07, $id: baseUrl + path, title, description, ...plainSchema(schema) };
}
