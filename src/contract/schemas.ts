// The published contract, defined once: TypeScript types, the draft-07 schemas and the CSV descriptor.
import { Type, type Static, type TObject, type TOptional, type TProperties, type TSchema } from '@sinclair/typebox';
import type { ENDPOINTS, EndpointId, IndexLink } from './endpoints.ts';
import { ENTRY_LINKS, INDEX_LINKS } from './paths.ts';
import { GEOGRAPHY_LEVEL_IDS } from './geography.ts';
import { byId, compareIds } from './json.ts';
import { recordOf } from './records.ts';

export const SCHEMA_VERSION = '1';
export const PRODUCTION_MODE = 'static-fixture';
export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** Fixed project caveats (docs/contract.md 2.1), emitted verbatim in every profile and in the index. */
export const PROFILE_CAVEATS: readonly string[] = [
  'Production JSON is source-attributed static fixture data: every value names the upstream source it was loaded from, and a value that is not the agency\'s published figure says so with "illustrative": true.',
  'This endpoint provides no live data: values are not live, not real-time and not forecasts.',
  'This content is not investment, legal, financial or property-level advice.',
  "Upstream public datasets keep their own licenses and terms; see each source's landing page.",
];

/** Fixed caveats of the CSV descriptor (docs/contract.md 2.7). */
export const CSV_CAVEATS: readonly string[] = [
  'production_mode is always static-fixture.',
  'live_data is always false.',
  'A schemaVersion other than "1" is coordinated with the JSON profile schema: both change in step.',
  'Upstream datasets keep their own licenses and terms.',
  'A value that is not the agency\'s published figure is marked "illustrative": true in the JSON profile of its market (the CSV columns are fixed, so the CSV cannot say it); the data status page lists every such value.',
];

/** The display name of a market, `<City>, <StateCode>`: the CSV's market_name (docs/contract.md 2.6) and every page's. */
export const displayName = (market: { name: string; stateCode: string }): string => `${market.name}, ${market.stateCode}`;

// The contract's order of ids lives with the serialiser, which `serve` loads without TypeBox; re-exported here.
export { byId, compareIds };

export const LINK_KEYS = ['html', 'dataStatus', 'methodology', 'dataSources', 'dataCatalog', 'privacy', 'changelog'] as const;

export const IsoDate = Type.String({ format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
export const Url = Type.String({ format: 'uri', pattern: '^https?://' });
export const NonEmpty = Type.String({ minLength: 1 });
const Score = Type.Integer({ minimum: 0, maximum: 100 });
export const Id = Type.String({ pattern: '^[a-z][A-Za-z0-9]*$' });
export const MARKET_ID_PATTERN = '^us-[a-z]{2}-[a-z0-9]+(-[a-z0-9]+)*$';

export const Market = Type.Object({
  id: Type.String({ pattern: MARKET_ID_PATTERN }),
  name: NonEmpty,
  slug: Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
  city: Type.Optional(NonEmpty),
  state: NonEmpty,
  stateCode: Type.String({ pattern: '^[A-Z]{2}$' }),
  countryCode: Type.String({ pattern: '^[A-Z]{2}$' }),
  countyName: Type.Optional(NonEmpty),
  cbsaName: Type.Optional(NonEmpty),
});

/**
 * The same figure for a geography that holds the market's (its state, the nation), published with the market's: a reader
 * sees the market beside it, and the market page says whether the two differ at the 90 % level where both have margins.
 */
const Comparison = Type.Object({
  level: Type.Union([Type.Literal('state'), Type.Literal('nation')], {
    description: 'The kind of geography: a state (the District of Columbia counts as one, as the Census Bureau counts it), or the nation.',
  }),
  code: Type.String({
    pattern: '^([0-9]{1,2}|[A-Z]{2,3})$',
    description:
      'The geography\'s code as the agency\'s file writes it: the Census API\'s two-digit state FIPS code ("48") or its code of the nation ("1", as in for=us:1); FHFA\'s postal code of a state ("TX") or "USA".',
  }),
  name: NonEmpty,
  value: Type.Number(),
  marginOfError: Type.Optional(
    Type.Number({ minimum: 0, description: "The agency's 90 % margin of error of the comparison's value, derived as the market value's is." }),
  ),
  asOf: NonEmpty,
});

/** What an open-ended estimate is: the agency publishes an interval's edge ("4,000+"), and its API writes a number just beyond it (4001). */
export const Qualifier = Type.Object(
  {
    kind: Type.Literal('open-ended', { description: 'The estimate lies in an open-ended interval: the agency publishes only its edge.' }),
    publishedAs: NonEmpty,
    edge: Type.Number({ description: 'The edge of the interval, in the value\'s unit: 4000 for "4,000+".' }),
    bound: Type.Union([Type.Literal('lower'), Type.Literal('upper')], {
      description: 'lower: the true value is the edge or more ("4,000+"); upper: the edge or less ("100-").',
    }),
  },
  {
    description:
      'Present where the value is not an exact figure: an open-ended median, published as "4,000+", which the Census API writes as 4001 with no margin of error. `value` stays the number the API writes (the CSV columns need a number); read it with this qualifier.',
  },
);

export const DollarYear = Type.Integer({
  minimum: 1900,
  maximum: 2200,
  description:
    'The dollars a money figure is in: the Census Bureau states a 5-year estimate in the inflation-adjusted dollars of its last year (2024 for 2020-2024).',
});

/** A figure of an earlier period beside the latest, and the difference between them with its margin and verdict. */
const Change = Type.Object(
  {
    from: Type.Object({
      asOf: NonEmpty,
      value: Type.Number(),
      marginOfError: Type.Optional(Type.Number({ minimum: 0 })),
      dollarYear: Type.Optional(DollarYear),
    }),
    value: Type.Number({ description: "The latest value less the earlier one, in the unit (dollars: nominal, each figure in its own year's dollars)." }),
    marginOfError: Type.Optional(
      Type.Number({
        minimum: 0,
        description: "The 90 % margin of the difference: the root of the sum of the two squared margins (the Census Bureau's formula for two estimates).",
      }),
    ),
    percent: Type.Number({ description: 'The change as a percentage of the earlier value, one decimal.' }),
    significant: Type.Optional(
      Type.Boolean({ description: 'Whether the difference is statistically significant at the 90 % level; present where both margins are published.' }),
    ),
    dollars: Type.Optional(
      Type.Literal('nominal', {
        description: "For money figures: the two are in their own years' dollars and the change is not adjusted for inflation.",
      }),
    ),
  },
  {
    description:
      'How the value compares with the same figure for the latest earlier period that does not overlap it (the Census Bureau compares 5-year estimates only so).',
  },
);

const Metric = Type.Object({
  id: Id,
  label: NonEmpty,
  unit: NonEmpty,
  value: Type.Number(),
  asOf: NonEmpty,
  sourceId: NonEmpty,
  marginOfError: Type.Optional(
    Type.Number({
      minimum: 0,
      description:
        "The agency's 90 % margin of error of the value, in its unit (the estimate is value ± marginOfError), where the agency publishes one; for a share derived from several estimates, the Census Bureau's approximation for derived proportions. Absent on illustrative values and on open-ended ones (see qualifier).",
    }),
  ),
  illustrative: Type.Optional(
    Type.Literal(true, {
      description:
        "Present, and true, when the value is not the agency's published figure (a fixture's stand-in of the right magnitude); absent on published values.",
    }),
  ),
  qualifier: Type.Optional(Qualifier),
  dollarYear: Type.Optional(DollarYear),
  comparisons: Type.Optional(
    Type.Array(Comparison, {
      minItems: 1,
      description:
        "The same metric for each geography that holds the market's, where the agency publishes it (the state's ACS estimate, the nation's; the state's and the nation's FHFA house price change), in the same period and unit; absent where none is served.",
    }),
  ),
  change: Type.Optional(Change),
});

const Scores = Type.Object(
  {
    affordability: Type.Optional(Score),
    renterAffordability: Type.Optional(Score),
    ownerAffordability: Type.Optional(Score),
    supply: Type.Optional(Score),
    overall: Type.Optional(Score),
  },
  { additionalProperties: Score },
);

/** The score keys computed from at least one illustrative metric: those scores are illustrative too. */
const IllustrativeScores = Type.Array(Type.String({ pattern: '^[a-z][A-Za-z0-9]*$' }), {
  minItems: 1,
  uniqueItems: true,
  description: 'The keys of scores computed from at least one illustrative metric; absent when every score rests on published values.',
});

/** A score that reads an open-ended figure is one end of the range the true figure allows: which end, the other, and why. */
const ScoreBound = Type.Object({
  bound: Type.Optional(
    Type.Union([Type.Literal('upper'), Type.Literal('lower')], {
      description:
        'upper: the served score is the highest the true inputs allow; lower: the lowest; absent where it lies between (open-ended inputs pulling both ways).',
    }),
  ),
  low: Score,
  high: Score,
  metrics: Type.Array(Id, { minItems: 1, description: 'The open-ended metrics the score reads (see their qualifier).' }),
});

const ScoreBounds = Type.Record(Type.String({ pattern: '^[a-z][A-Za-z0-9]*$' }), ScoreBound, {
  description:
    'The scores that read an open-ended figure ("4,000+"), by key: each is served as its bound (an integer, as every score), and the true score lies from low to high.',
});

const Profile = Type.Object({
  updatedDate: IsoDate,
  scores: Scores,
  illustrativeScores: Type.Optional(IllustrativeScores),
  scoreBounds: Type.Optional(ScoreBounds),
  metrics: Type.Record(Type.String({ pattern: '^[a-z][A-Za-z0-9]*$' }), Metric),
  freshness: Type.Object({
    provenance: Type.Union([Type.Literal('fixture'), Type.Literal('live')]),
    freshness: Type.Union([Type.Literal('fresh'), Type.Literal('aging'), Type.Literal('stale')]),
    retrievedAt: IsoDate,
    note: NonEmpty,
  }),
  coverage: Type.Object({
    totalRequired: Type.Integer({ minimum: 0 }),
    totalProvided: Type.Integer({ minimum: 0 }),
    percent: Type.Number({ minimum: 0, maximum: 100 }),
    missing: Type.Array(Id, { uniqueItems: true }),
  }),
});

/** How a source's release date is known. */
export const RELEASE_DATE_BASES = ['published', 'reported', 'inferred'] as const;
export const ReleaseDateBasis = Type.Union(
  RELEASE_DATE_BASES.map((b) => Type.Literal(b)),
  {
    description:
      "How latestReleaseDate is known: published (the agency's own release notice says it), reported (a public record other than the agency's says it) or inferred (from the agency's release calendar; the release itself was not seen).",
  },
);
export const isReleaseDateBasis = (value: unknown): value is ReleaseDateBasis => RELEASE_DATE_BASES.some((b) => b === value);

export const Source = Type.Object({
  sourceId: Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
  sourceName: NonEmpty,
  agency: NonEmpty,
  datasetName: NonEmpty,
  sourceUrl: Url,
  confidence: Type.Union([Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')]),
  updateFrequency: Type.Union([Type.Literal('monthly'), Type.Literal('quarterly'), Type.Literal('annually')]),
  provenance: Type.Union([Type.Literal('fixture'), Type.Literal('live')]),
  latestReleaseDate: Type.Optional(IsoDate),
  latestRetrievedAt: Type.Optional(IsoDate),
  latestReleaseDateBasis: Type.Optional(ReleaseDateBasis),
  readFrom: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "Where this snapshot's figures of the source were read: the agency's downloads, or the public copies of its files the fixtures were made from.",
    }),
  ),
});

const Boundary = Type.Object({
  level: Type.Union(GEOGRAPHY_LEVEL_IDS.map((level) => Type.Literal(level))),
  name: NonEmpty,
  codes: Type.Record(Type.String(), Type.String({ pattern: '^[0-9]+$' })),
  states: Type.Array(Type.String({ pattern: '^[A-Z]{2}$' }), { minItems: 1 }),
  metrics: Type.Array(Id, { minItems: 1 }),
});

const GeographyScope = Type.Object(
  {
    note: NonEmpty,
    boundaries: Type.Array(Boundary, { minItems: 2 }),
  },
  {
    description:
      'Present when the metrics of a market come from more than one boundary (a city beside a metro or a metropolitan division): which boundary each metric describes.',
  },
);

const Links = Type.Object(recordOf(LINK_KEYS.map((key) => [key, Url])));

type Records = typeof ENDPOINTS;
/** The schema properties of the links of a scope, as types: each record's key (optional where its record says so), and the pages' keys. */
type LinkProperties<S extends string, Page extends string> = {
  [K in EndpointId as Records[K] extends { scope: S; indexLink: { key: infer Key extends string } } ? Key : never]: Records[K] extends {
    indexLink: { optional: true };
  }
    ? TOptional<typeof Url>
    : typeof Url;
} & Record<Page, typeof Url>;

/** The links object of the index or of a market's entry, from the links in their order (contract/paths.ts). */
const linksSchema = <P extends TProperties>(links: readonly IndexLink[]): TObject<P> =>
  Type.Object(recordOf(links.map((l) => [l.key, l.optional ? Type.Optional(Url) : Url]))) as unknown as TObject<P>;

export const constants = {
  schemaVersion: Type.Literal(SCHEMA_VERSION),
  generatedAt: IsoDate,
  methodologyVersion: Type.String({ pattern: '^v[0-9]+\\.[0-9]+$' }),
  productionMode: Type.Literal(PRODUCTION_MODE),
  liveData: Type.Literal(false),
};

/**
 * The parts of a profile the build reads again from an archived snapshot (its series, the check that a snapshot keeps
 * its values), in this contract's shape: checked as the archive is read, so a snapshot that lacks one stops the build
 * at its file.
 */
export const ArchivedProfile = Type.Object({
  market: Type.Object({ id: Type.String({ pattern: MARKET_ID_PATTERN }) }),
  profile: Type.Object({ metrics: Type.Record(Type.String({ pattern: '^[a-z][A-Za-z0-9]*$' }), Metric) }),
  geographyScope: Type.Optional(GeographyScope),
});

export const MarketProfile = Type.Object({
  ...constants,
  market: Market,
  profile: Profile,
  sources: Type.Array(Source, { minItems: 1 }),
  caveats: Type.Array(NonEmpty, { minItems: 1 }),
  links: Links,
  geographyScope: Type.Optional(GeographyScope),
});

const IndexEntry = Type.Object({
  id: Type.String({ pattern: MARKET_ID_PATTERN }),
  name: NonEmpty,
  state: NonEmpty,
  stateCode: Type.String({ pattern: '^[A-Z]{2}$' }),
  cbsaName: Type.Optional(NonEmpty),
  updatedDate: IsoDate,
  scores: Scores,
  illustrativeScores: Type.Optional(IllustrativeScores),
  scoreBounds: Type.Optional(ScoreBounds),
  coverage: Type.Object({ percent: Type.Number({ minimum: 0, maximum: 100 }), missing: Type.Array(Id) }),
  freshness: Type.Union([Type.Literal('fresh'), Type.Literal('aging'), Type.Literal('stale')]),
  links: linksSchema<LinkProperties<'market', 'html'>>(ENTRY_LINKS),
});

export const MarketIndex = Type.Object({
  ...constants,
  count: Type.Integer({ minimum: 0 }),
  markets: Type.Array(IndexEntry),
  links: linksSchema<LinkProperties<'service', 'html'>>(INDEX_LINKS),
  caveats: Type.Array(NonEmpty, { minItems: 1 }),
});

export type MarketProfile = Static<typeof MarketProfile>;
export type MarketIndex = Static<typeof MarketIndex>;
export type Metric = Static<typeof Metric>;
export type Comparison = Static<typeof Comparison>;
export type Qualifier = Static<typeof Qualifier>;
export type Change = Static<typeof Change>;
export type ScoreBound = Static<typeof ScoreBound>;
export type ReleaseDateBasis = Static<typeof ReleaseDateBasis>;
export type Source = Static<typeof Source>;
export type GeographyScope = Static<typeof GeographyScope>;
export type Boundary = Static<typeof Boundary>;
export type Scores = Static<typeof Scores>;
type ProfileBody = Static<typeof Profile>;
export type Freshness = ProfileBody['freshness']['freshness'];
export type Coverage = ProfileBody['coverage'];
export type UpdateFrequency = Source['updateFrequency'];
export type IndexEntry = Static<typeof IndexEntry>;

/** A TypeBox schema as plain JSON (TypeBox's symbol keys dropped): the body both the published schemas and the OpenAPI components are made of. */
export const plainSchema = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

/**
 * Where the period, margin of error and area of a value are, for a file whose columns cannot hold them: the contract
 * fixes the eleven columns of the market CSVs, so the series CSV and the JSON profile carry them.
 */
export const PERIOD_AND_AREA_ELSEWHERE =
  'The period the value measures, its margin of error and its area are in the series CSV of the same market (period, period_start, period_end, margin_of_error, geography_level, geography_code) and in the JSON profile (asOf, marginOfError, geographyScope).';

/** The eleven CSV columns of docs/contract.md 2.6, in order; the CSV renderer and the descriptor both read this. `unit`: what a column's values are measured in, where they have a unit. */
export const CSV_COLUMNS = [
  { name: 'market_id', type: 'string', description: 'Market id; equals market.id of the JSON profile.' },
  { name: 'market_name', type: 'string', description: 'Display name "<City>, <StateCode>"; always quoted since it contains a comma.' },
  { name: 'metric_id', type: 'string', description: 'Stable metric key; equals a key of profile.metrics.' },
  { name: 'metric_label', type: 'string', description: 'Human-readable label; quoted when it contains a comma or a quote.' },
  {
    name: 'value',
    type: 'number',
    unit: "the row's unit",
    description: `Plain decimal number: no exponent, no thousands separator. An open-ended median is the number the agency's API writes just beyond the interval's edge (4001 for "4,000+"): its JSON metric carries a qualifier, and the series CSV says it in published_as. ${PERIOD_AND_AREA_ELSEWHERE}`,
  },
  { name: 'unit', type: 'string', description: 'Unit of the value, for example USD/mo, %, index, units.' },
  { name: 'source_id', type: 'string', description: 'Source adapter id; equals a sourceId of the JSON sources.' },
  {
    name: 'updated_date',
    type: 'string',
    description:
      'Snapshot date, when the data were retrieved, not the period the value measures; equals profile.updatedDate and is identical on all rows of one export.',
  },
  { name: 'methodology_version', type: 'string', description: 'Methodology contract version, v<major>.<minor>.' },
  { name: 'production_mode', type: 'string', const: PRODUCTION_MODE, description: 'Always static-fixture.' },
  { name: 'live_data', type: 'string', const: 'false', description: 'Always false.' },
] as const;

export type CsvColumn = (typeof CSV_COLUMNS)[number]['name'];
export type CsvRow = Record<CsvColumn, string>;

export const DescriptorColumn = Type.Object({
  name: NonEmpty,
  type: Type.Union([Type.Literal('string'), Type.Literal('number')]),
  required: Type.Boolean(),
  const: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});

/** The shape of a CSV descriptor (docs/contract.md 2.7) whose columns have the given shape: the profiles' CSV and the series CSV. */
export const csvDescriptorOf = <C extends TSchema>(column: C) =>
  Type.Object({
    schemaVersion: Type.Literal(SCHEMA_VERSION),
    format: Type.Literal('text/csv'),
    description: NonEmpty,
    encoding: Type.Literal('utf-8'),
    lineTerminator: Type.Literal('CRLF'),
    quoting: Type.Literal('RFC 4180'),
    columns: Type.Array(column, { minItems: 1 }),
    caveats: Type.Array(NonEmpty, { minItems: 1 }),
  });

/**
 * A CSV descriptor document: what every CSV of the service shares (UTF-8, CRLF, RFC 4180 quoting), in the key order the
 * served bytes have, then the document's own description, columns and caveats.
 */
export function csvDescriptorDocument<C>(description: string, columns: C[], caveats: readonly string[]) {
  return {
    schemaVersion: SCHEMA_VERSION as typeof SCHEMA_VERSION,
    format: 'text/csv' as const,
    description,
    encoding: 'utf-8' as const,
    lineTerminator: 'CRLF' as const,
    quoting: 'RFC 4180' as const,
    columns,
    caveats: [...caveats],
  };
}

/** The shape of the CSV column descriptor (docs/contract.md 2.7); the OpenAPI document describes /api/schema/market-csv with it. */
export const CsvDescriptor = csvDescriptorOf(DescriptorColumn);
export type CsvDescriptor = Static<typeof CsvDescriptor>;

/** The CSV column descriptor served at /api/schema/market-csv (docs/contract.md 2.7). */
export function csvDescriptor(): CsvDescriptor {
  return csvDescriptorDocument(
    `Columns of the per-market CSV (/api/markets/<market-id>/csv) and of the bulk CSV (/api/markets/csv): one row per metric of a market, after a header line of the column names. These eleven columns are fixed by the contract: ${PERIOD_AND_AREA_ELSEWHERE.charAt(0).toLowerCase()}${PERIOD_AND_AREA_ELSEWHERE.slice(1)} /api/markets/<market-id>/series/csv and /api/markets/series/csv serve the series CSVs.`,
    CSV_COLUMNS.map((column) => ({
      name: column.name,
      type: column.type,
      required: true,
      ...('const' in column ? { const: column.const } : {}),
      description: column.description,
    })),
    CSV_CAVEATS,
  );
}
