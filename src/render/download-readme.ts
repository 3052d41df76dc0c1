// The README.md of the one-file download: what the data are, each file and each CSV column (type, unit, meaning), where a value's period, margin and area are, how margins of error work, the methodology, the sources, the licence and the citation, written from the records and the snapshot.
import { ENDPOINT_LIST, pathAt, type AnyEndpoint } from '../contract/endpoints.ts';
import { GEOGRAPHY_LEVELS } from '../contract/geography.ts';
import { PATHS } from '../contract/paths.ts';
import { listWords } from '../contract/words.ts';
import { CSV_CAVEATS, CSV_COLUMNS, PERIOD_AND_AREA_ELSEWHERE, PROFILE_CAVEATS } from '../contract/schemas.ts';
import { SERIES_CSV_COLUMNS } from '../contract/series.ts';
import { Z_90 } from '../methodology/comparisons.ts';
import type { Snapshot } from '../methodology/snapshot.ts';
import { METHODOLOGY_VERSION } from '../methodology/version.ts';
import { CITATION, citationText } from './citation.ts';

/** What the README is written from: where the service is, what it holds, and the name each document has in the zip. */
export interface ReadmeInput {
  baseUrl: string;
  snapshot: Snapshot;
  /** A served path's name in the zip (relative to the zip's folder). */
  nameOf: (path: string, kind: 'json' | 'csv') => string;
  /** The Data Package's name in the zip. */
  dataPackage: string;
}

/** A markdown table cell: its text on one line, a bar escaped. */
const cell = (text: string): string => text.replace(/\s+/g, ' ').replaceAll('|', '\\|');
const table = (head: readonly string[], rows: readonly (readonly string[])[]): string[] => [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
];

/** A column as both CSV kinds define theirs. */
interface Column {
  name: string;
  type: string;
  unit?: string;
  description: string;
}

/** Each CSV kind's columns: name, type, unit and meaning. */
const columnTable = (columns: readonly Column[]): string[] =>
  table(
    ['Column', 'Type', 'Unit', 'Meaning'],
    columns.map((c) => [`\`${c.name}\``, c.type === 'date' ? 'date (YYYY-MM-DD)' : c.type, c.unit ?? '', c.description]),
  );

/** The documents of each kind the zip holds (every JSON and CSV record), by name pattern, with what each is and its address. */
function fileTable(input: ReadmeInput): string[] {
  const records = ENDPOINT_LIST.flatMap(([, r]): AnyEndpoint[] => ((r.kind === 'json' || r.kind === 'csv') && r.path !== PATHS.health ? [r] : []));
  return table(
    ['File', 'What', 'Address'],
    records.map((r) => {
      const path = pathAt(r, '<market-id>', '<date>');
      return [`\`${input.nameOf(path, r.kind as 'json' | 'csv')}\``, r.listed?.description ?? r.openApi?.summary ?? '', `${input.baseUrl}${path}`];
    }),
  );
}

/** Every metric: its id, label and unit, the period and the area its current values describe, its source and its margin of error. */
function metricTable({ snapshot }: ReadmeInput): string[] {
  const profiles = snapshot.markets.map((m) => m.profile);
  const distinct = (values: readonly string[]): string => [...new Set(values)].sort().join(', ');
  return table(
    ['`metric_id`', 'Label', 'Unit', 'Period of the values', 'Area', 'Source', 'Margin of error'],
    snapshot.metrics.map((m) => [
      `\`${m.id}\``,
      m.label,
      m.unit,
      distinct(profiles.flatMap((p) => p.profile.metrics[m.id]?.asOf ?? [])),
      distinct(snapshot.markets.flatMap((d) => d.boundaries.get(m.id)?.level ?? []).map((level) => GEOGRAPHY_LEVELS[level].kind)),
      `\`${m.sourceId}\``,
      m.margin,
    ]),
  );
}

/** The README.md of the download. */
export function downloadReadme(input: ReadmeInput): string {
  const { baseUrl, snapshot } = input;
  const date = snapshot.snapshotDate;
  const cited = snapshot.sources.map((s) => s.source);
  const bulk = input.nameOf(PATHS.bulkCsv, 'csv');
  const series = input.nameOf(PATHS.bulkSeriesCsv, 'csv');
  const marketSeries = input.nameOf(PATHS.seriesCsv('<market-id>'), 'csv');
  return [
    `# Housing market profiles, snapshot of ${date}`,
    '',
    `Source-attributed housing-market figures of ${snapshot.markets.length} US markets: ${listWords(snapshot.metrics.map((m) => m.noun))}, ` +
      `each an agency's published figure or a share or ratio computed from published figures, and the scores computed from them ` +
      `under methodology ${METHODOLOGY_VERSION}. They are the documents ${baseUrl} serves for the snapshot of ${date}, the data retrieved ` +
      `from the agencies on that date or before: every file here is the bytes served at the address its name mirrors ` +
      `(${input.dataPackage} excepted: its resources point at the files here). The data are a static snapshot, not live.`,
    '',
    'Caveats (show them with the data):',
    '',
    ...PROFILE_CAVEATS.map((c) => `- ${c}`),
    ...CSV_CAVEATS.map((c) => `- CSV: ${c}`),
    '',
    '## The period and the area of each value',
    '',
    `\`${bulk}\` and the market CSVs have the ${CSV_COLUMNS.length} columns the service's contract fixes: a value, its unit and source, not its period. ` +
      `\`updated_date\` is the snapshot's date, not the period the value measures. ${PERIOD_AND_AREA_ELSEWHERE} ` +
      `The series CSVs are \`${series}\` (every market) and \`${marketSeries}\` (one market); their rows hold every period published, ` +
      'the current value being the latest. The values of one market describe different periods and areas: the table of metrics below says which.',
    '',
    '## Files',
    '',
    ...fileTable(input),
    '',
    'A market is `<market-id>` (`us-<state code>-<city slug>`); `<date>` is a published snapshot (`vintages.json` lists them), ' +
      'whose documents never change once archived.',
    '',
    '## Metrics',
    '',
    ...metricTable(input),
    '',
    '## Columns of the market CSVs',
    '',
    ...columnTable(CSV_COLUMNS),
    '',
    '## Columns of the series CSVs',
    '',
    ...columnTable(SERIES_CSV_COLUMNS),
    '',
    '## Margins of error',
    '',
    "The American Community Survey's figures are estimates from a sample. Each comes with the Census Bureau's 90 % margin of " +
      "error, in the value's unit (`margin_of_error` in the series CSVs, `marginOfError` in the JSON): the estimate is value ± margin, " +
      "with 90 % confidence. A share computed from several estimates carries the Bureau's approximation for a derived proportion. " +
      `Two estimates differ significantly at the 90 % level when the difference is larger than the square root of the sum of their ` +
      `squared margins (Z = difference ÷ √(SE₁² + SE₂²) beyond ${Z_90}, each SE a margin ÷ ${Z_90}); the JSON puts each figure ` +
      "beside its state's (`comparisons`). A count or an index published without one (permits, FHFA's index) has an empty " +
      '`margin_of_error`: the table of metrics says why for each.',
    '',
    '## Methodology and sources',
    '',
    `- Methodology ${METHODOLOGY_VERSION}, the metrics' definitions, the scores' formulas and thresholds: ${baseUrl}${PATHS.methodology}`,
    `- Every source, the area each market's values describe and the terms: ${baseUrl}${PATHS.dataSources}`,
    `- Every endpoint, the CSV columns and the error codes: ${baseUrl}${PATHS.dataCatalog}`,
    ...snapshot.sources.map(
      ({ source, vintage }) =>
        `- ${source.agency}, ${source.datasetName} (vintage ${vintage}, retrieved ${source.latestRetrievedAt ?? date}): ${source.sourceUrl}`,
    ),
    '',
    `\`${input.dataPackage}\` is a Frictionless Data Package of every CSV here (the archived snapshots' too): Table Schema, ` +
      'dialect, sizes and hashes of the files beside it, so Frictionless tools validate this folder offline.',
    '',
    '## Licence',
    '',
    ...snapshot.sources.map(({ source, licence }) => `- ${source.agency}, ${source.sourceName}: ${licence.terms}`),
    `- The rest (the scores, the arrangement, these descriptions): the service's licence, ${CITATION.licence}.`,
    '',
    '## Suggested citation',
    '',
    citationText({ snapshotDate: date, address: `${baseUrl}${PATHS.vintageIndex(date)}`, sources: cited }),
    '',
  ].join('\n');
}
