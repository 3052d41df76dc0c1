// The series documents, defined once: a market's every observation per metric (JSON), the long-format series CSV and its descriptor.
import { Type, type Static } from '@sinclair/typebox';
import { GEOGRAPHY_LEVEL_IDS } from './geography.ts';
import { describedPaths } from './endpoints.ts';
import {
  CSV_CAVEATS,
  DollarYear,
  Qualifier,
  csvDescriptorDocument,
  csvDescriptorOf,
  Id,
  IsoDate,
  Market,
  NonEmpty,
  PRODUCTION_MODE,
  PROFILE_CAVEATS,
  Source,
  Url,
  constants,
} from './schemas.ts';

const Geography = Type.Object(
  {
    level: Type.Union(GEOGRAPHY_LEVEL_IDS.map((level) => Type.Literal(level))),
    code: Type.String({
      pattern: '^(1600000US[0-9]{7}|0500000US[0-9]{5}|0400000US[0-9]{2}|0100000US|[1-9][0-9]{4})$',
      description:
        'The area\'s code: a Census place, county or state, or the nation, by its Census GEO_ID ("1600000US0455000": summary level, US, state and place FIPS; "0400000US48"; "0100000US"), whichever agency\'s figure it is; a CBSA or metropolitan division by FHFA\'s five-digit code.',
    }),
    name: NonEmpty,
  },
  { description: 'The area the values describe.' },
);

const Observation = Type.Object({
  period: Type.String({ minLength: 1, description: 'The period as the source labels it: "2020-2024", "2024", "2025 Q4", "2024 Q4 to 2025 Q4".' }),
  periodStart: IsoDate,
  periodEnd: IsoDate,
  value: Type.Number(),
  marginOfError: Type.Optional(Type.Number({ minimum: 0, description: "The agency's 90 % margin of error, where it publishes one (as in the profile)." })),
  illustrative: Type.Optional(Type.Literal(true, { description: "Present, and true, when the value is not the agency's published figure." })),
  qualifier: Type.Optional(Qualifier),
  dollarYear: Type.Optional(DollarYear),
  snapshotDate: Type.String({
    format: 'date',
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    description: 'The snapshot the value was read from: the current one, or an archived vintage (/api/vintages) for a period the current files no longer hold.',
  }),
  geography: Type.Optional(Geography),
});

const SeriesMetric = Type.Object({
  id: Id,
  label: NonEmpty,
  unit: NonEmpty,
  sourceId: NonEmpty,
  frequency: Type.Union([Type.Literal('monthly'), Type.Literal('quarterly'), Type.Literal('annually')], {
    description: "How often the source publishes a new value: the source's updateFrequency.",
  }),
  geography: Geography,
  observations: Type.Array(Observation, {
    minItems: 1,
    description: "Oldest first, by period end; an observation has geography only where its area differs from the metric's.",
  }),
  comparisons: Type.Optional(
    Type.Array(
      Type.Object({
        geography: Geography,
        observations: Type.Array(Observation, { minItems: 1, description: 'Oldest first, by period end.' }),
      }),
      {
        minItems: 1,
        description:
          "The same metric for the geographies that hold the market's (its state, the nation), every period the agencies publish them in the snapshot's files: the figures the profile's comparisons and the pages' charts show.",
      },
    ),
  ),
});

export const MarketSeries = Type.Object({
  ...constants,
  market: Market,
  metrics: Type.Record(Type.String({ pattern: '^[a-z][A-Za-z0-9]*$' }), SeriesMetric),
  sources: Type.Array(Source, { minItems: 1 }),
  caveats: Type.Array(NonEmpty, { minItems: 1 }),
  links: Type.Object({ self: Url, csv: Url, profile: Url, html: Url, schema: Url }),
});

export type MarketSeries = Static<typeof MarketSeries>;
export type SeriesMetric = Static<typeof SeriesMetric>;
export type SeriesObservation = Static<typeof Observation>;
export type SeriesGeography = Static<typeof Geography>;

/** The columns of the series CSVs, in order; the renderer, the descriptor and the Data Package read this. `unit`: what a column's values are measured in, where they have a unit. */
export const SERIES_CSV_COLUMNS = [
  { name: 'market_id', type: 'string', required: true, description: 'Market id; equals market.id of the JSON profile.' },
  { name: 'metric_id', type: 'string', required: true, description: "Stable metric key; equals a key of the series document's metrics." },
  { name: 'period', type: 'string', required: true, description: 'The period as the source labels it: "2020-2024", "2024", "2025 Q4", "2024 Q4 to 2025 Q4".' },
  { name: 'period_start', type: 'date', required: true, description: 'First day of the period, ISO date.' },
  { name: 'period_end', type: 'date', required: true, description: 'Last day of the period, ISO date.' },
  { name: 'value', type: 'number', required: true, unit: "the row's unit", description: 'Plain decimal number: no exponent, no thousands separator.' },
  { name: 'unit', type: 'string', required: true, description: 'Unit of the value, for example USD/mo, %, index, units.' },
  {
    name: 'dollar_year',
    type: 'number',
    required: false,
    description:
      'For a money figure, the year whose dollars it is in (a 5-year estimate is in the inflation-adjusted dollars of its last year: 2019 for 2015-2019, 2024 for 2020-2024); empty otherwise.',
  },
  {
    name: 'margin_of_error',
    type: 'number',
    required: false,
    unit: "the row's unit",
    description: "The agency's 90 % margin of error in the value's unit; empty where it publishes none.",
  },
  {
    name: 'published_as',
    type: 'string',
    required: false,
    description:
      'The agency\'s own text where the value is not an exact figure: "4,000+" for an open-ended median, which value writes as the API does (4001, one beyond the edge); empty where the value is exact.',
  },
  { name: 'illustrative', type: 'boolean', required: true, description: "true when the value is not the agency's published figure, else false." },
  { name: 'source_id', type: 'string', required: true, description: 'Source id; equals a sourceId of the JSON sources.' },
  {
    name: 'geography_level',
    type: 'string',
    required: true,
    description:
      "place, county, cbsa or division: the kind of area the market's value describes; state or nation on the rows of the figures the market is compared with.",
  },
  {
    name: 'geography_code',
    type: 'string',
    required: true,
    description:
      "The area's code, text in every tool: a Census place, county or state, or the nation, by its Census GEO_ID (1600000US0455000: summary level, US, state and place FIPS; 0400000US48; 0100000US), a CBSA or metropolitan division by FHFA's five-digit code.",
  },
  {
    name: 'snapshot_date',
    type: 'date',
    required: true,
    description: 'The snapshot the value was read from (an archived vintage for a period the current files no longer hold).',
  },
  {
    name: 'updated_date',
    type: 'string',
    required: true,
    description: "The current snapshot date, an ISO date (a string, as the profile CSV's column is); identical on all rows of one export.",
  },
  { name: 'methodology_version', type: 'string', required: true, description: 'Methodology contract version, v<major>.<minor>.' },
  { name: 'production_mode', type: 'string', required: true, const: PRODUCTION_MODE, description: 'Always static-fixture.' },
  { name: 'live_data', type: 'string', required: true, const: 'false', description: 'Always false (a string, as the contract fixes it in the profile CSV).' },
] as const;

export type SeriesCsvColumn = (typeof SERIES_CSV_COLUMNS)[number]['name'];

/** What makes a series CSV row one of a kind: a market's row and its state's and the nation's share a market, a metric and a period. */
export const SERIES_CSV_KEY: readonly SeriesCsvColumn[] = ['market_id', 'metric_id', 'geography_code', 'period'];

export const SERIES_CSV_CAVEATS: readonly string[] = [
  ...CSV_CAVEATS.slice(0, 4),
  "Rows are sorted by market_id, metric_id, the market's own rows first then its state's and the nation's, then period_end and period_start; a market file holds one market's rows in the same order.",
  'margin_of_error is empty where the agency publishes none; illustrative is true or false on every row.',
  'published_as holds the agency\'s text where value is not an exact figure (an open-ended median, "4,000+", written 4001): read such a value as a bound, not as the number.',
];

const SeriesColumn = Type.Object({
  name: NonEmpty,
  type: Type.Union([Type.Literal('string'), Type.Literal('number'), Type.Literal('boolean'), Type.Literal('date')]),
  required: Type.Boolean(),
  const: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});

/** The shape of the series CSV descriptor at /api/schema/series-csv. */
export const SeriesCsvDescriptor = csvDescriptorOf(SeriesColumn);
export type SeriesCsvDescriptor = Static<typeof SeriesCsvDescriptor>;

export function seriesCsvDescriptor(): SeriesCsvDescriptor {
  return csvDescriptorDocument(
    `Columns of the series CSVs (${describedPaths('seriesCsvDescriptor').join(' and ')}): long format, one row per observation of a metric of a market, after a header line of the column names.`,
    SERIES_CSV_COLUMNS.map((c) => ({
      name: c.name,
      type: c.type,
      required: c.required,
      ...('const' in c ? { const: c.const } : {}),
      description: c.description,
    })),
    SERIES_CSV_CAVEATS,
  );
}

/** The caveats of a series document: the profile's. */
export const SERIES_CAVEATS: readonly string[] = PROFILE_CAVEATS;
