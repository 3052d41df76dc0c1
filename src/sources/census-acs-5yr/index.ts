// The Census ACS 5-year estimates as a source: the Data API's answers for every place and every state, its seven metrics, attribution, terms and API key.
import type { MarketDefinition } from '../../contract/markets.ts';
import { loadedSource, readRetrieval } from '../parse.ts';
import { defineSource, type ReadFixture, type SourceLoad } from '../source.ts';
import { readPlaceAnswers, type AcsMetric } from './adapter.ts';
import { DIR, EARLIER_VINTAGE, REMOTE, SOURCE_ID, VINTAGE } from './format.ts';

export const censusAcs5yr = defineSource({
  sourceId: SOURCE_ID,
  // The first 5-year estimates the Census Bureau released.
  firstPeriod: '2005-2009',
  metrics: [
    {
      id: 'medianGrossRent',
      noun: 'median gross rent',
      label: 'Median gross rent',
      shortLabel: 'Median rent',
      unit: 'USD/mo',
      decimals: 0,
      range: [99, 10_000],
      dollars: 'period-end',
      required: true,
      definition: 'Median monthly contract rent plus utilities paid by renter households (ACS table B25064).',
      margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it.",
    },
    {
      id: 'medianHouseholdIncome',
      noun: 'median household income',
      label: 'Median household income',
      shortLabel: 'Median income',
      unit: 'USD/yr',
      decimals: 0,
      range: [2_499, 250_001],
      dollars: 'period-end',
      required: true,
      definition:
        'Median household income in the past 12 months, renters and owners alike, in inflation-adjusted dollars of the last survey year (ACS table B19013).',
      margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it.",
    },
    {
      id: 'medianHomeValue',
      noun: 'median home value',
      label: 'Median home value, owner-occupied',
      shortLabel: 'Home value',
      unit: 'USD',
      decimals: 0,
      range: [9_999, 2_000_001],
      dollars: 'period-end',
      required: true,
      definition: 'Median value of owner-occupied housing units, as the owners estimate what the home would sell for (ACS table B25077).',
      margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it.",
    },
    {
      id: 'medianOwnerCostsWithMortgage',
      noun: 'median owner costs with a mortgage',
      label: 'Median monthly owner costs, homes with a mortgage',
      shortLabel: 'Owner costs',
      unit: 'USD/mo',
      decimals: 0,
      range: [99, 10_000],
      dollars: 'period-end',
      required: true,
      definition:
        'Median selected monthly owner costs (mortgage payments, real estate taxes, insurance, utilities, fuels and fees) of owner-occupied units with a mortgage (ACS table B25088, row 2).',
      margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it.",
    },
    {
      id: 'homeownershipRate',
      noun: 'homeownership rate',
      label: 'Homeownership rate, owner-occupied share of occupied homes',
      shortLabel: 'Homeownership',
      unit: '%',
      decimals: 1,
      range: [0, 100],
      required: true,
      definition:
        "Owner-occupied housing units as a share of occupied housing units: ACS table B25003 row 2 over table B25002 row 2 (the occupied units, which are B25003's total), one decimal.",
      margin:
        "Approximated from the published margins of B25003_002 and B25002_002 with the Census Bureau's formula for a derived proportion (ACS General Handbook, chapter 8), in percentage points.",
    },
    {
      id: 'vacancyRate',
      noun: 'vacancy rate',
      label: 'Vacant homes, share of all housing units',
      shortLabel: 'Vacant homes',
      unit: '%',
      decimals: 1,
      range: [0, 100],
      required: true,
      definition:
        "Vacant housing units of every kind (for rent, for sale, seasonal and other vacant) as a share of all housing units: ACS table B25002 row 3 over table B25001 (which equals B25002's total), one decimal. Not the rental vacancy rate, which needs table B25004.",
      margin:
        "Approximated from the published margins of B25002_003 and B25001_001 with the Census Bureau's formula for a derived proportion (ACS General Handbook, chapter 8), in percentage points.",
    },
    {
      id: 'housingUnits',
      noun: 'housing units',
      label: 'Housing units, total',
      shortLabel: 'Housing units',
      unit: 'units',
      decimals: 0,
      range: [0, 200_000_000],
      tested: false,
      required: true,
      definition: 'All housing units, occupied and vacant (ACS table B25001).',
      margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it.",
    },
  ],
  attribution: {
    sourceName: 'American Community Survey 5-year estimates',
    agency: 'U.S. Census Bureau',
    sourceUrl: 'https://www.census.gov/programs-surveys/acs',
    confidence: 'high',
    updateFrequency: 'annually',
    provenance: 'fixture',
  },
  licence: {
    id: 'other-pd',
    terms:
      'Census Bureau data are in the public domain (works of the U.S. Government are not copyrighted) and may be reused freely; cite them as "U.S. Census Bureau, American Community Survey 5-Year Estimates". This product is not endorsed or certified by the Census Bureau.',
  },
  downloadNotice: 'This product uses the Census Bureau Data API but is not endorsed or certified by the Census Bureau.',
  files: [...REMOTE.map((r) => r.file), `${DIR}/retrieval.json`],
  remote: REMOTE,
  origins: ['https://api.census.gov'],
  credential: {
    env: 'CENSUS_API_KEY',
    query: 'key',
    help: 'Census Data API key, sent with the ACS requests; never written to a file or a message.',
    signup: 'a key is free at https://api.census.gov/data/key_signup.html',
  },
  /** The API's answer carries no vintage of its own: it is the one the queries ask for. */
  vintageOf: () => VINTAGE,
  load(read: ReadFixture, markets: readonly MarketDefinition[]): SourceLoad<AcsMetric> {
    const retrieval = readRetrieval(read, DIR);
    const values = readPlaceAnswers(read, markets, retrieval.vintage);
    const datasetName = `ACS 5-year estimates ${retrieval.vintage}, places and states: tables B25064, B19013, B25077, B25088, B25001, B25002 and B25003; the nation's B19013; ${EARLIER_VINTAGE} B25077 of the places and states`;
    return loadedSource(censusAcs5yr, datasetName, retrieval, values);
  },
});
