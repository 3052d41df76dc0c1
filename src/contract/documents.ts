// The kinds of document the service serves, one record each, keyed by the endpoint that describes them: the schema that gives a JSON document its type, its published draft-07 form and its OpenAPI component; a CSV's descriptor and the schema of that descriptor. The build's checks, the describers' renderers, the OpenAPI components and verify reach each kind by this id.
import type { TSchema } from '@sinclair/typebox';
import { ENDPOINTS, type DescriberId } from './endpoints.ts';
import { CsvDescriptor, DRAFT_07, MarketIndex, MarketProfile, SCHEMA_VERSION, csvDescriptor, plainSchema } from './schemas.ts';
import { MarketSeries, SeriesCsvDescriptor, seriesCsvDescriptor } from './series.ts';
import { VintageIndex } from './vintages.ts';

/** A JSON document: its schema (the TypeBox definition that gives its type), published at its describer's path and as an OpenAPI component. */
export interface JsonKind {
  format: 'json';
  schema: TSchema;
  /** The OpenAPI component's name (`components.schemas`), which the client's types are generated from. */
  component: string;
  /** What the schema is published under, at its path and as the component. */
  title: string;
  description: string;
}

/** A CSV document: the descriptor its describer serves (its columns), and the schema of that descriptor, an OpenAPI component. */
export interface CsvKind {
  format: 'csv';
  descriptor: () => object;
  /** The schema of the descriptor document. */
  schema: TSchema;
  component: string;
  title: string;
  description: string;
}

export type DocumentKind = JsonKind | CsvKind;

/**
 * Every kind, by the id of the endpoint that describes it (the records' `describedBy`): a record naming a describer
 * without a kind here does not compile. In the order of the OpenAPI document's components.
 */
export const DOCUMENTS = {
  profileSchema: {
    format: 'json',
    schema: MarketProfile,
    component: 'MarketProfile',
    title: 'Market profile response',
    description: `Schema version ${SCHEMA_VERSION} of a market profile. Unknown properties are allowed so that additive optional fields (see the versioning policy on the changelog page) do not break validators; constants, types, ranges and required fields are enforced.`,
  },
  indexSchema: {
    format: 'json',
    schema: MarketIndex,
    component: 'MarketIndex',
    title: 'Market index response',
    description: `Schema version ${SCHEMA_VERSION} of the index of markets at ${ENDPOINTS.index.path}. Unknown properties are allowed.`,
  },
  seriesSchema: {
    format: 'json',
    schema: MarketSeries,
    component: 'MarketSeries',
    title: 'Market series response',
    description: `Schema version ${SCHEMA_VERSION} of a market's series at ${ENDPOINTS.series.path('<market-id>')}: every observation the snapshot holds, per metric. Unknown properties are allowed.`,
  },
  vintagesSchema: {
    format: 'json',
    schema: VintageIndex,
    component: 'VintageIndex',
    title: 'Vintage index response',
    description: `Schema version ${SCHEMA_VERSION} of the index of published snapshots at ${ENDPOINTS.vintages.path}. Unknown properties are allowed.`,
  },
  csvDescriptor: {
    format: 'csv',
    descriptor: csvDescriptor,
    schema: CsvDescriptor,
    component: 'CsvDescriptor',
    title: 'CSV column descriptor',
    description: 'The columns of both CSV endpoints.',
  },
  seriesCsvDescriptor: {
    format: 'csv',
    descriptor: seriesCsvDescriptor,
    schema: SeriesCsvDescriptor,
    component: 'SeriesCsvDescriptor',
    title: 'Series CSV column descriptor',
    description: 'The columns of both series CSV endpoints.',
  },
} as const satisfies Readonly<Record<DescriberId, DocumentKind>>;

/** The describers of CSV documents (their descriptors'). */
export type CsvDescriberId = { [K in DescriberId]: (typeof DOCUMENTS)[K]['format'] extends 'csv' ? K : never }[DescriberId];
export const isCsvDescriber = (id: DescriberId): id is CsvDescriberId => DOCUMENTS[id].format === 'csv';

/** The describers of JSON documents (their schemas'). */
export type JsonDescriberId = Exclude<DescriberId, CsvDescriberId>;

/** A JSON kind's schema as the plain draft-07 document published at its describer's path. */
const schemaDocument = (kind: JsonKind, path: string, baseUrl: string): Record<string, unknown> => ({
  $schema: DRAFT_07,
  $id: baseUrl + path,
  title: kind.title,
  description: kind.description,
  ...plainSchema(kind.schema),
});

/** What a describer serves: a JSON kind's published schema, a CSV kind's descriptor. */
export function describerBody(id: DescriberId, baseUrl: string): object {
  const kind: DocumentKind = DOCUMENTS[id];
  return kind.format === 'json' ? schemaDocument(kind, ENDPOINTS[id].path, baseUrl) : kind.descriptor();
}

/** Each kind's OpenAPI component, by its name, in the kinds' order: the same schema the describer publishes (a CSV's: its descriptor's). */
export const documentComponents = (): Record<string, Record<string, unknown>> =>
  Object.fromEntries(
    Object.values(DOCUMENTS).map((k: DocumentKind) => [k.component, { title: k.title, description: k.description, ...plainSchema(k.schema) }]),
  );
