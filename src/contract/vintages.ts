// The vintage index, defined once: every published snapshot with its sources' vintages and files, and the next release each source is due.
import { Type, type Static } from '@sinclair/typebox';
import { IsoDate, NonEmpty, PRODUCTION_MODE, ReleaseDateBasis, SCHEMA_VERSION, Url } from './schemas.ts';

/** A file by name, with its size and SHA-256. */
const FileHash = Type.Object({ file: NonEmpty, bytes: Type.Integer({ minimum: 0 }), sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) });

const VintageSource = Type.Object({
  sourceId: Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
  vintage: NonEmpty,
  updateFrequency: Type.Union([Type.Literal('monthly'), Type.Literal('quarterly'), Type.Literal('annually')]),
  latestReleaseDate: Type.Optional(IsoDate),
  latestReleaseDateBasis: Type.Optional(ReleaseDateBasis),
  latestRetrievedAt: Type.Optional(IsoDate),
  nextExpectedRelease: Type.Optional(
    Type.String({
      format: 'date',
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
      description:
        "When the source's next release is due: its published schedule where the module records one, else the release date plus its update interval.",
    }),
  ),
  overdue: Type.Optional(Type.Boolean({ description: 'Whether the next release was due before the snapshot date: judged as of that date, not today.' })),
  files: Type.Array(FileHash, {
    description: 'The source files the snapshot was built from, with their sizes and SHA-256.',
  }),
});

/** A source as an archived snapshot records it: what the vintage index says less what it computes. */
const ArchivedSource = Type.Omit(VintageSource, ['nextExpectedRelease', 'overdue']);

/** The record of one archived snapshot (archive/<date>/snapshot.json), beside its documents: checked as the archive is read. */
export const ArchiveRecord = Type.Object({
  snapshotDate: IsoDate,
  methodologyVersion: Type.String({ pattern: '^v[0-9]+\\.[0-9]+$' }),
  sources: Type.Array(ArchivedSource, { minItems: 1 }),
  /** Every document of the snapshot, by archive name, with its size and SHA-256. */
  documents: Type.Array(FileHash),
});

const Vintage = Type.Object({
  snapshotDate: IsoDate,
  methodologyVersion: Type.String({ pattern: '^v[0-9]+\\.[0-9]+$' }),
  current: Type.Boolean({ description: 'true for the snapshot the other endpoints serve.' }),
  sources: Type.Array(VintageSource, { minItems: 1 }),
  illustrative: Type.Optional(
    Type.Record(Type.String(), Type.Array(NonEmpty, { minItems: 1 }), {
      description:
        "The values of the snapshot that are not the agency's published figures, by market id: the metric ids its profiles mark illustrative. Its CSVs' columns are fixed and cannot flag them: these are the rows (market_id, metric_id) to read so. Absent where every value is published.",
    }),
  ),
  laterNotes: Type.Optional(
    Type.Array(NonEmpty, {
      minItems: 1,
      description:
        "What a later snapshot says of this one's figures that this one's bytes, which never change, do not: a value published as an interval's edge, a release date only inferred.",
    }),
  ),
  links: Type.Object({
    index: Url,
    bulkCsv: Url,
    markets: Type.Record(Type.String(), Type.Object({ json: Url, csv: Url }), {
      description: 'Each market of the snapshot: its profile and CSV as published then.',
    }),
  }),
});

export const VintageIndex = Type.Object({
  schemaVersion: Type.Literal(SCHEMA_VERSION),
  generatedAt: IsoDate,
  productionMode: Type.Literal(PRODUCTION_MODE),
  liveData: Type.Literal(false),
  count: Type.Integer({ minimum: 1 }),
  vintages: Type.Array(Vintage, { minItems: 1, description: 'Newest first; the current snapshot is the first entry.' }),
  caveats: Type.Array(NonEmpty, { minItems: 1 }),
  links: Type.Object({ self: Url, schema: Url }),
});

export type ArchivedSource = Static<typeof ArchivedSource>;
export type ArchiveRecord = Static<typeof ArchiveRecord>;

export type VintageIndex = Static<typeof VintageIndex>;
export type Vintage = Static<typeof Vintage>;
export type VintageSource = Static<typeof VintageSource>;

export const VINTAGE_CAVEATS: readonly string[] = [
  'A vintage is a snapshot as it was published: once archived, its documents never change, and are served with Cache-Control immutable; the current snapshot, until it is archived, is served at its vintage addresses with the ordinary Cache-Control, since it may still change.',
  "A vintage's documents link to this deployment's pages, which show the current snapshot.",
  'nextExpectedRelease and overdue are judged as of the snapshot date, not the day you read them.',
];
