// The suggested citation of the data, made once: the data-sources page and the download's README cite a snapshot with it, and CITATION.cff (generated from it, a test keeps the two equal) states it for the repository.
import { ENDPOINTS } from '../contract/endpoints.ts';

/** What a citation names of a source: the agency and the dataset, as a profile's sources say them. */
export interface CitedSource {
  agency: string;
  sourceName: string;
  sourceUrl: string;
}

/** The title, author and keywords of the data set, as every citation and the Data Package give them. */
export const CITATION = {
  title: 'Housing market profiles',
  author: 'Market profiles contributors',
  kind: 'Data set',
  keywords: ['housing', 'rent', 'house prices', 'building permits', 'affordability'],
  /** The licence of the service's code and descriptions (package.json's), and of what it adds to the data (scores, arrangement). */
  licence: 'MIT',
} as const;

export interface CitationInput {
  /** The snapshot cited; without one, the citation has `<year>` and `<date>` where the snapshot's would be. */
  snapshotDate?: string;
  /** The snapshot's address that never changes (its index under /api/vintages); without one, the path under `<base-url>`. */
  address?: string;
  sources: readonly CitedSource[];
}

/**
 * The suggested citation, in the author–date form a reader's reference manager takes: who, when, what (the snapshot),
 * where (an address that never changes) and what it was compiled from, each agency's dataset as its terms ask.
 */
export function citationText({ snapshotDate, address, sources }: CitationInput): string {
  const year = snapshotDate === undefined ? '<year>' : snapshotDate.slice(0, 4);
  const date = snapshotDate ?? '<date>';
  const where = address ?? `<base-url>${ENDPOINTS.vintageIndex.path(date)}`;
  const from = sources.map((s) => `${s.agency}, ${s.sourceName}`).join('; ');
  return `${CITATION.author} (${year}). ${CITATION.title}, snapshot of ${date} [${CITATION.kind}]. ${where}. Compiled from ${from}.`;
}

/** A YAML scalar: a JSON string is a YAML double-quoted scalar with the same value. */
const yaml = (text: string): string => JSON.stringify(text);

/**
 * CITATION.cff (Citation File Format 1.2.0) of the repository: the data set's title, author and licence, the citation
 * of a snapshot (citationText with placeholders), and each source as a reference.
 */
export function citationCff(sources: readonly CitedSource[]): string {
  return [
    '# Generated from src/render/citation.ts (citationCff); test/unit/citation.test.ts keeps this file equal to it.',
    'cff-version: 1.2.0',
    `message: ${yaml(`If you use these data, cite the snapshot you used, as a deployment's data sources page and its download's README give it: ${citationText({ sources })}`)}`,
    'type: dataset',
    `title: ${yaml(CITATION.title)}`,
    'authors:',
    `  - name: ${yaml(CITATION.author)}`,
    `abstract: ${yaml("Source-attributed housing-market profiles of US markets (rents, incomes, house prices, permits, and affordability and supply scores computed from them), as JSON and CSV, each value an agency's published figure or computed from published figures, with its period, margin of error and area; every published snapshot stays addressable under /api/vintages. Each source's figures keep its agency's terms (references).")}`,
    `license: ${CITATION.licence}`,
    'keywords:',
    ...CITATION.keywords.map((k) => `  - ${yaml(k)}`),
    'references:',
    ...sources.flatMap((s) => [
      '  - type: dataset',
      `    title: ${yaml(s.sourceName)}`,
      '    authors:',
      `      - name: ${yaml(s.agency)}`,
      `    url: ${yaml(s.sourceUrl)}`,
    ]),
    '',
  ].join('\n');
}
