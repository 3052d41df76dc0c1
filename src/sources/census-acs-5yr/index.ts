// The Census ACS 5-year estimates as a source: the Data API's answers for every place, its eight metrics, attribution, terms and API key.
import type { MarketDefinition } from '../../contract/markets.ts';
import { loadedSource, readRetrieval } from '../parse.ts';
import { defineSource, type ReadFixture, type SourceLoad } from '../source.ts';
import { readMarkets, type AcsMetric } from './adapter.ts';
import { DETAILED, DIR, PROFILE, REMOTE, SOURCE_ID, VINTAGE } from './format.ts';
import { acsSynthetic } from './synthetic.ts';

export const censusAcs5yr = defineSource({
  sourceId: SOURCE_ID,
  metrics: [
    {
      id: 'medianGrossRent',
      noun: 'median gross rent',
      label: 'Median gross rent',
      shortLabel: 'Median rent',
      unit: 'USD/mo',
      decimals: 0,
      required: true,
      definition: 'Median monthly contract rent plus utilities paid by renter households (ACS table B25064).',
      margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it (illustrative values have none).",
    },
    {
      id: 'medianHouseholdIncome',
      noun: 'median household income',
      label: 'Median household income',
      shortLabel: 'Median income',
      unit: 'USD/yr',
      decimals: 0,
      required: true,
      definition: 'Median household income in the past 12 months, in inflation-adjusted dollars of the last survey year (ACS table B19013).',
      margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it (illustrative values have none).",
    },
    {
      id: 'medianRenterIncome',
      noun: 'median renter household income',
      label: 'Median renter household income',
      shortLabel: 'Renter income',
      unit: 'USD/yr',
      decimals: 0,
      required: true,
      definition:
        'Median income in the past 12 months of renter households, in inflation-adjusted dollars of the last survey year (ACS table B25119, renter-occupied housing units).',
      margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it (illustrative values have none).",
    },
    {
      id: 'rentBurden',
      noun: 'rent burden',
      label: 'Rent-burdened renter households, 30% or more of income',
      shortLabel: 'Rent burden',
      unit: '%',
      decimals: 1,
      required: true,
      definition:
        'Share of renter households for which gross rent is 30% or more of household income, among those for which it is computed (ACS table B25070: rows 7 to 10 over row 1 less row 11).',
      margin:
        "Approximated from the published margins of the rows it reads, with the Census Bureau's formula for derived proportions (illustrative values have none).",
    },
    {
      id: 'medianHomeValue',
      noun: 'median home value',
      label: 'Median home value, owner-occupied',
      shortLabel: 'Home value',
      unit: 'USD',
      decimals: 0,
      required: true,
      definition: 'Median value of owner-occupied housing units, as the owners estimate what the home would sell for (ACS table B25077).',
      margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it (illustrative values have none).",
    },
    {
      id: 'ownerCostBurden',
      noun: 'owner cost burden',
      label: 'Cost-burdened homeowners with a mortgage, 30% or more of income',
      shortLabel: 'Owner burden',
      unit: '%',
      decimals: 1,
      required: true,
      definition:
        'Share of owner households with a mortgage whose selected monthly owner costs (mortgage, taxes, insurance, utilities, fees) are 30% or more of household income, among those for which it is computed (ACS table B25091: rows 8 to 11 over row 2 less row 12).',
      margin:
        "Approximated from the published margins of the rows it reads, with the Census Bureau's formula for derived proportions (illustrative values have none).",
    },
    {
      id: 'rentalVacancyRate',
      noun: 'rental vacancy rate',
      label: 'Rental vacancy rate',
      shortLabel: 'Rental vacancy',
      unit: '%',
      decimals: 1,
      required: true,
      definition: 'Vacant units for rent as a share of the rental inventory (ACS data profile DP04, item 5).',
      margin: "The Census Bureau's 90 % margin of error of the data-profile rate, served beside it (illustrative values have none).",
    },
    {
      id: 'housingUnits',
      noun: 'housing units',
      label: 'Housing units, total',
      shortLabel: 'Housing units',
      unit: 'units',
      decimals: 0,
      required: true,
      definition: 'All housing units, occupied and vacant (ACS table B25001).',
      margin: "The Census Bureau's 90 % margin of error, published with the estimate and served beside it (illustrative values have none).",
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
      'Census Bureau data are in the public domain (works of the U.S. Government are not copyrighted) and may be reused freely; cite them as "U.S. Census Bureau, American Community Survey 5-Year Estimates". This product uses the Census Bureau Data API but is not endorsed or certified by the Census Bureau.',
  },
  files: [DETAILED, PROFILE, `${DIR}/retrieval.json`],
  remote: REMOTE,
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
    const values = readMarkets(read, markets, retrieval.vintage);
    const datasetName = `ACS 5-year estimates ${retrieval.vintage}: tables B25064, B19013, B25119, B25077, B25001, B25070, B25091 and profile DP04`;
    return loadedSource(censusAcs5yr, datasetName, retrieval, { ...values, series: [], notes: [] });
  },
  synthetic: acsSynthetic,
});
