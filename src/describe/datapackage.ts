// The Frictionless Data Package served at /api/datapackage: the bulk CSV and each market CSV as tabular resources, with the Table Schema, dialect, sizes and hashes of the bytes served.
import { createHash } from 'node:crypto';
import { CSV_COLUMNS, PRODUCTION_MODE, PROFILE_CAVEATS, byId, displayName, type CsvColumn, type MarketProfile } from '../contract/schemas.ts';
import { PATHS } from '../contract/paths.ts';
import { attachmentAt, dataPackagePaths } from '../contract/endpoints.ts';
import { SERIES_CSV_COLUMNS, SERIES_CSV_KEY } from '../contract/series.ts';
import type { Snapshot, SourceData } from '../methodology/snapshot.ts';
import { bodyOf, type Served } from './served.ts';
import { InvariantError } from '../contract/errors.ts';

type Json = Record<string, unknown>;

export interface DataPackageInput {
  baseUrl: string;
  snapshot: Snapshot;
  served: Served;
}

/** CSV Dialect (Frictionless CSV Dialect 1.2) of both CSV endpoints: comma, CRLF, double quotes doubled, a header line. */
export const CSV_DIALECT = {
  csvddfVersion: 1.2,
  delimiter: ',',
  lineTerminator: '\r\n',
  quoteChar: '"',
  doubleQuote: true,
  skipInitialSpace: false,
  header: true,
  caseSensitiveHeader: true,
} as const;

/**
 * The one type of each column the profile CSV and the series CSV share, as the contract's descriptor gives it: every
 * column but `value` a string, `updated_date` an ISO date written as text and `live_data` the text "false" (2.6). A
 * Table Schema that typed them otherwise would disagree with the descriptor a reader also sees; constraints say the
 * rest.
 */
const SHARED_CONSTRAINTS = {
  production_mode: { enum: [PRODUCTION_MODE] },
  live_data: { enum: ['false'] },
  updated_date: { pattern: '[0-9]{4}-[0-9]{2}-[0-9]{2}' },
  methodology_version: { pattern: 'v[0-9]+\\.[0-9]+' },
} as const;

/** The Table Schema of a CSV holding the given markets. */
export function tableSchema(marketIds: readonly string[]): Json {
  const constraints: Partial<Record<CsvColumn, Json>> = {
    ...SHARED_CONSTRAINTS,
    market_id: { enum: [...marketIds] },
    metric_id: { pattern: '[a-z][A-Za-z0-9]*' },
  };
  return {
    fields: CSV_COLUMNS.map((c) => ({
      name: c.name,
      description: c.description,
      type: c.type,
      constraints: { required: true, ...constraints[c.name] },
    })),
    primaryKey: ['market_id', 'metric_id'],
  };
}

/** The Table Schema of a series CSV: its columns with the types the series descriptor gives them (date, number, boolean, string). */
export function seriesTableSchema(marketIds: readonly string[]): Json {
  const typeOf = (type: (typeof SERIES_CSV_COLUMNS)[number]['type']): Json =>
    type === 'date' ? { type: 'date', format: 'default' } : type === 'boolean' ? { type: 'boolean', trueValues: ['true'], falseValues: ['false'] } : { type };
  const constraints: Partial<Record<(typeof SERIES_CSV_COLUMNS)[number]['name'], Json>> = {
    ...SHARED_CONSTRAINTS,
    market_id: { enum: [...marketIds] },
  };
  return {
    fields: SERIES_CSV_COLUMNS.map((c) => ({
      name: c.name,
      description: c.description,
      ...typeOf(c.type),
      constraints: { required: c.required, ...constraints[c.name] },
    })),
    // An empty cell is a missing value (only margin_of_error, dollar_year and published_as may be one).
    missingValues: [''],
    primaryKey: [...SERIES_CSV_KEY],
  };
}

const sha256 = (body: Buffer): string => `sha256:${createHash('sha256').update(body).digest('hex')}`;

function resource(
  input: DataPackageInput,
  path: string,
  name: string,
  title: string,
  description: string,
  marketIds: readonly string[],
  schemaOf: (marketIds: readonly string[]) => Json = tableSchema,
): Json {
  const body = bodyOf(input.served, path);
  return {
    name,
    title,
    description,
    path: input.baseUrl + path,
    profile: 'tabular-data-resource',
    format: 'csv',
    mediatype: 'text/csv',
    encoding: 'utf-8',
    bytes: body.length,
    hash: sha256(body),
    dialect: CSV_DIALECT,
    schema: schemaOf(marketIds),
  };
}

/**
 * What a resource's description says of its illustrative values: the CSV has no column for the JSON's `illustrative`
 * flag, so the description names the metrics whose values are not the agency's published figures.
 */
function illustrativeSentence(profiles: readonly MarketProfile[]): string {
  const ids = [...new Set(profiles.flatMap((p) => Object.values(p.profile.metrics).flatMap((m) => (m?.illustrative === true ? [m.id] : []))))].sort();
  return ids.length === 0
    ? ''
    : ` The rows of metric_id ${ids.join(', ')} hold illustrative values, not the agency's published figures (the JSON profiles mark them "illustrative": true).`;
}

/**
 * The table of each CSV descriptor: its Table Schema, and whether a resource's description names its illustrative
 * values (the metrics CSV has no column for them; the series CSV has `illustrative`).
 */
const TABLES: Readonly<Record<string, { schemaOf: (marketIds: readonly string[]) => Json; namesIllustrative: boolean }>> = {
  csvDescriptor: { schemaOf: tableSchema, namesIllustrative: true },
  seriesCsvDescriptor: { schemaOf: seriesTableSchema, namesIllustrative: false },
};

/** A resource for every CSV the records give a Data Package entry (contract/endpoints.ts dataPackagePaths), in its order. */
function resources(input: DataPackageInput, sorted: readonly MarketProfile[]): Json[] {
  const byId = new Map(sorted.map((p) => [p.market.id, p]));
  return dataPackagePaths(sorted.map((p) => p.market.id)).map(({ record, path, marketId }) => {
    const table = TABLES[record.describedBy ?? ''] ?? fail(`no table schema for ${String(record.describedBy)}`);
    const market = marketId === undefined ? undefined : byId.get(marketId);
    const profiles = market === undefined ? sorted : [market];
    const words = (text: string): string =>
      market === undefined
        ? text
        : text.replaceAll('{market}', displayName(market.market)).replaceAll('{name}', market.market.name).replaceAll('{state}', market.market.state);
    const entry = record.dataPackage ?? fail(`no Data Package entry of ${path}`);
    return resource(
      input,
      path,
      (attachmentAt(record, marketId ?? '', '') ?? '').replace(/\.csv$/, ''),
      words(entry.title),
      `${words(entry.description)}${table.namesIllustrative ? illustrativeSentence(profiles) : ''}`,
      profiles.map((p) => p.market.id),
      table.schemaOf,
    );
  });
}

const fail = (message: string): never => {
  throw new InvariantError(message);
};

/** The Data Package descriptor (a JSON-ready object). */
export function dataPackage(input: DataPackageInput): Json {
  const { baseUrl, snapshot } = input;
  const sorted = snapshot.markets.map((m) => m.profile).sort(byId((p) => p.market.id));
  const loaded = new Map(snapshot.sources.map((s) => [s.source.sourceId, s]));
  const sources = new Map<string, SourceData>();
  // Each cited source as a profile cites it, with the terms it was loaded with.
  for (const p of sorted)
    for (const s of p.sources) {
      const load = loaded.get(s.sourceId);
      if (load === undefined) throw new InvariantError(`profile ${p.market.id} cites ${s.sourceId}, which the snapshot did not load`);
      if (!sources.has(s.sourceId)) sources.set(s.sourceId, { ...load, source: s });
    }
  const cited = [...sources.values()].sort(byId((s) => s.source.sourceId));
  return {
    profile: 'tabular-data-package',
    name: 'housing-market-profiles',
    id: baseUrl + PATHS.dataPackage,
    title: 'Housing market profiles',
    description: [
      "Source-attributed housing-market metrics of US markets, one row per metric, as served by the market profiles service. The JSON profiles carry the same values with their scores, freshness and coverage, each Census figure's 90 % margin of error, and its state's figure beside it (comparisons), which the CSV columns cannot hold.",
      ...PROFILE_CAVEATS,
    ].join(' '),
    homepage: baseUrl + PATHS.dataCatalog,
    created: `${snapshot.snapshotDate}T00:00:00Z`,
    keywords: ['housing', 'rent', 'house prices', 'building permits', 'affordability'],
    licenses: cited.map(({ source, licence }) => ({ name: licence.id, path: source.sourceUrl, title: licence.terms })),
    sources: cited.map(({ source }) => ({ title: `${source.agency}, ${source.datasetName}`, path: source.sourceUrl })),
    resources: resources(input, sorted),
  };
}
