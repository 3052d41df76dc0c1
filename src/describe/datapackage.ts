// The Frictionless Data Package served at /api/datapackage: every CSV served (the current snapshot's, its series', and every vintage's) as a tabular resource, with the Table Schema, dialect, sizes and hashes of the bytes served.
import { createHash } from 'node:crypto';
import { CSV_COLUMNS, PRODUCTION_MODE, PROFILE_CAVEATS, byId, compareIds, displayName, type CsvColumn, type MarketProfile } from '../contract/schemas.ts';
import { PATHS, VINTAGE_DOCUMENTS, vintageFileOf, vintagePathOf, type VintageFile } from '../contract/paths.ts';
import { ENDPOINTS, attachmentAt, dataPackagePaths, describerOf } from '../contract/endpoints.ts';
import { isCsvDescriber, type CsvDescriberId } from '../contract/documents.ts';
import { SERIES_CSV_COLUMNS, SERIES_CSV_KEY } from '../contract/series.ts';
import type { Snapshot, SourceData } from '../methodology/snapshot.ts';
import { bodyOf, type Served } from './served.ts';
import { CITATION } from '../render/citation.ts';
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
 * flag, so the description names the rows (metric ids, and the markets where not every market's) whose values the JSON
 * profiles of the same snapshot mark as not the agency's published figures.
 */
export function illustrativeSentence(profiles: readonly MarketProfile[]): string {
  // Markets grouped by the metrics marked illustrative in them.
  const groups = new Map<string, string[]>();
  for (const p of profiles) {
    const ids = Object.values(p.profile.metrics)
      .flatMap((m) => (m?.illustrative === true ? [m.id] : []))
      .sort();
    if (ids.length > 0) groups.set(ids.join(', '), [...(groups.get(ids.join(', ')) ?? []), p.market.id]);
  }
  if (groups.size === 0) return '';
  const every = groups.size === 1 && [...groups.values()][0]?.length === profiles.length;
  const rows = [...groups].map(([ids, markets]) => `metric_id ${ids}${every || profiles.length === 1 ? '' : ` for market_id ${markets.sort().join(', ')}`}`);
  return ` The rows of ${rows.join('; and of ')} hold illustrative values, not the agency's published figures (the JSON profiles of the same snapshot mark them "illustrative": true).`;
}

/**
 * The table of each CSV descriptor: its Table Schema, and whether a resource's description names its illustrative
 * values (the metrics CSV has no column for them; the series CSV has `illustrative`).
 */
const TABLES: Readonly<Record<CsvDescriberId, { schemaOf: (marketIds: readonly string[]) => Json; namesIllustrative: boolean }>> = {
  csvDescriptor: { schemaOf: tableSchema, namesIllustrative: true },
  seriesCsvDescriptor: { schemaOf: seriesTableSchema, namesIllustrative: false },
};

/** A resource for every CSV the records give a Data Package entry (contract/endpoints.ts dataPackagePaths), in its order. */
function resources(input: DataPackageInput, sorted: readonly MarketProfile[]): Json[] {
  const byId = new Map(sorted.map((p) => [p.market.id, p]));
  return dataPackagePaths(sorted.map((p) => p.market.id)).map(({ record, path, marketId }) => {
    const describer = describerOf(record);
    const table = describer !== undefined && isCsvDescriber(describer) ? TABLES[describer] : fail(`${path} is no CSV with a descriptor`);
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

/** A snapshot served at vintage addresses: its date, its profiles by market id, and the archive names of its CSVs. */
interface ServedVintage {
  date: string;
  profiles: ReadonlyMap<string, MarketProfile>;
  csvs: readonly string[];
}

/**
 * Every snapshot served at vintage addresses, in the vintage index's order (the current one, then the archived ones
 * newest first), as the route table serves them: each archived one that holds documents, and the current one until it
 * is archived (its documents are the current ones).
 */
function servedVintages(snapshot: Snapshot): ServedVintage[] {
  const isCsv = (name: string): boolean => {
    const kind = vintageFileOf(name)?.kind;
    return kind === 'csv' || kind === 'bulkCsv';
  };
  const archived = snapshot.archive
    .filter((p) => p.documents.size > 0)
    .map((p) => ({ date: p.snapshotDate, profiles: p.profiles, csvs: [...p.documents.keys()].filter(isCsv) }));
  const profiles = snapshot.markets.map((m) => m.profile);
  const current = archived.find((v) => v.date === snapshot.snapshotDate) ?? {
    date: snapshot.snapshotDate,
    profiles: new Map(profiles.map((p) => [p.market.id, p])),
    csvs: [VINTAGE_DOCUMENTS.bulkCsv, ...profiles.map((p) => VINTAGE_DOCUMENTS.csv(p.market.id))],
  };
  // snapshot.archive is newest first already.
  return [current, ...archived.filter((v) => v !== current)];
}

/**
 * A resource for every CSV of every snapshot served at vintage addresses (the archived ones' as published), in the
 * vintage index's order, each snapshot's file of every market before its markets'; each says which of its rows the
 * same snapshot's JSON profiles mark illustrative.
 */
function vintageResources(input: DataPackageInput): Json[] {
  return servedVintages(input.snapshot).flatMap(({ date, profiles, csvs }) => {
    const ids = [...profiles.keys()].sort(compareIds);
    const files = csvs.flatMap((name) => {
      const file = vintageFileOf(name);
      const path = vintagePathOf(date, name);
      if (file === undefined || path === undefined || (file.kind !== 'csv' && file.kind !== 'bulkCsv')) return [];
      return [{ file, path }];
    });
    // The bulk CSV first, then the markets' by id.
    const order = (f: VintageFile): string => (f.kind === 'bulkCsv' ? '' : 'id' in f ? f.id : '');
    return files
      .sort((a, b) => compareIds(order(a.file), order(b.file)))
      .map(({ file, path }) => {
        const marketId = 'id' in file ? file.id : undefined;
        const record = marketId === undefined ? ENDPOINTS.vintageBulkCsv : ENDPOINTS.vintageCsv;
        const market = marketId === undefined ? undefined : profiles.get(marketId);
        const covered = market === undefined ? ids.flatMap((id) => profiles.get(id) ?? []) : [market];
        const words = (text: string): string => {
          const dated = text.replaceAll('{date}', date);
          return market === undefined
            ? dated
            : dated.replaceAll('{market}', displayName(market.market)).replaceAll('{name}', market.market.name).replaceAll('{state}', market.market.state);
        };
        return resource(
          input,
          path,
          (attachmentAt(record, marketId ?? '', date) ?? '').replace(/\.csv$/, ''),
          words(record.dataPackage.title),
          `${words(record.dataPackage.description)}${illustrativeSentence(covered)}`,
          covered.map((p) => p.market.id),
        );
      });
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
    title: CITATION.title,
    description: [
      "Source-attributed housing-market metrics of US markets, one row per metric, as served by the market profiles service. The JSON profiles carry the same values with their scores, freshness and coverage, each Census figure's 90 % margin of error, and its state's figure beside it (comparisons), which the CSV columns cannot hold.",
      ...PROFILE_CAVEATS,
    ].join(' '),
    homepage: baseUrl + PATHS.dataCatalog,
    created: `${snapshot.snapshotDate}T00:00:00Z`,
    keywords: [...CITATION.keywords],
    licenses: cited.map(({ source, licence }) => ({ name: licence.id, path: source.sourceUrl, title: licence.terms })),
    sources: cited.map(({ source }) => ({ title: `${source.agency}, ${source.datasetName}`, path: source.sourceUrl })),
    resources: [...resources(input, sorted), ...vintageResources(input)],
  };
}
