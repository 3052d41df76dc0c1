// The license and attribution terms of each upstream dataset, as their fixture READMEs record them.

/** Keyed by sourceId; a source without an entry points readers to its landing page instead. */
export const SOURCE_TERMS: Readonly<Record<string, string>> = {
  'census-acs-5yr':
    'Census Bureau data are in the public domain (works of the U.S. Government are not copyrighted) and may be reused freely; cite them as "U.S. Census Bureau, American Community Survey 5-Year Estimates". This product uses the Census Bureau Data API but is not endorsed or certified by the Census Bureau.',
  'census-bps': 'Census Bureau data are in the public domain and may be reused freely; cite them as "U.S. Census Bureau, Building Permits Survey".',
  'fhfa-hpi':
    'FHFA data are public information and free to use with attribution to the Federal Housing Finance Agency, for example "Source: FHFA House Price Index".',
};

export const termsOf = (sourceId: string): string =>
  SOURCE_TERMS[sourceId] ?? 'This dataset keeps its own license and terms; see its landing page before reusing it.';
