// The methodology's version, and what each version changed and why: every profile names the version, the changelog page lists the changes.

export const METHODOLOGY_VERSION = 'v3.1';

/** What each methodology version changed and why, newest first: the changelog page lists it. */
export const METHODOLOGY_CHANGES: readonly { version: string; changes: readonly string[] }[] = [
  {
    version: 'v3.1',
    changes: [
      'A score that reads an open-ended figure is served as its bound. San Francisco\'s median owner costs are published as "4,000+" (the Census API writes 4001 with no margin of error): the scores now read the interval\'s edge, 4,000, and say in scoreBounds that the owner affordability of 11 is the most the true costs allow (0 to 11), and so for affordability (30 to 35) and overall (26 to 29). No served score changed; the metric carries a qualifier with the published text.',
      "Each figure stands beside the nation's where a published copy exists: the house price change beside its state's and the United States' over the same quarters (FHFA's all-transactions indexes of the same release), and the median household income beside the nation's 2020-2024 estimate (80,734 ± 166). No national figure is served for the other metrics: none was found published for these tables and period.",
      "The median home value is compared with its 2015-2019 estimate, the last 5-year period that shares no year with 2020-2024, as the Census Bureau recommends: the change, its margin (the root of the sum of the squared margins) and whether it is significant at 90 %. Each figure is in its own period's dollars (2019 and 2024), so the change is nominal.",
      "Housing units keep their state's figure beside them but get no significance verdict: a city always has fewer homes than its state, so the test says nothing.",
    ],
  },
  {
    version: 'v3.0',
    changes: [
      'Every score now reads only figures an agency published, or ratios and shares of them. Under v2.0 every score read at least one of four values no agency published for these places (median renter household income, rent burden, owner cost burden, rental vacancy rate: no public copy of tables B25119, B25070, B25091 or DP04 for them was found), so all 80 scores of the 2026-11-24 snapshot were illustrative. Those four metrics are gone from the profile.',
      'Three published figures join from the ACS 5-year estimates, with their margins of error: median monthly owner costs of homes with a mortgage (B25088), the homeownership rate (owner-occupied over occupied units, B25003 and B25002) and the vacancy rate (vacant over all housing units, B25002 and B25001, every kind of vacancy counted). The required set is now 10 metrics, so coverage is counted out of 10.',
      "Renter affordability reads the rent-to-income ratio alone, against all households' median income (B19013), scored on HUD's reading of the 30 % line as shares of the median income: 15 % scores 100, 30 % scores 0. Renters earn less than the median household, so the ratio understates what renters pay, most in high-income cities; the thresholds sit lower than v2.0's (20 % and 40 % of renters' income) for that reason.",
      "Owner affordability reads the median multiple (weight 0.7, thresholds unchanged) and the owner-costs-to-income ratio (0.3): twelve months of median owner costs with a mortgage over median household income, 30 % scoring 50. Price weighs more than costs because owners' costs are those of loans made at past prices and rates, while the price is what a buyer pays now.",
      'Supply reads permits per 1,000 housing units (0.7, unchanged) and the vacancy rate (0.3), which replaces the rental vacancy rate: about 10 % of homes stand vacant nationally (decennial census), so 10 % scores 50, 5 % scores 0 and 15 % scores 100.',
      "Each ACS figure is served beside its state's published figure (comparisons in the metric object); the market page says whether the two differ at the 90 % level.",
    ],
  },
  {
    version: 'v2.0',
    changes: [
      'Affordability now weighs what owners pay as well as renters: it is the mean of two published parts, renterAffordability and ownerAffordability (new score keys, integers 0-100, omitted when their inputs are missing). Under v1.0 and v1.1 it read rents only, so high-income, high-price cities such as San Francisco and Seattle scored among the most affordable.',
      'Three new required metrics from the ACS 5-year estimates: median home value (B25077), median renter household income (B25119) and the share of homeowners with a mortgage paying 30 % or more of income on owner costs (B25091). The required set grows from 8 to 11 metrics, so coverage is counted out of 11.',
      "The renter part reads rent against renter households' median income (B25119), not all households' (B19013): renters earn less than owners, most of all in high-income cities, so the v1 ratio understated what renters pay.",
      'The owner part reads the median multiple (median home value over median household income, 3.0 affordable, 5.0 the line, 7.0 and above scoring 0) and the owner cost burden (30 % line).',
      'Price momentum (the house price index and its year-over-year change) stays out of every score: the index is a trend relative to 1995, not a price level, and one year of a metro index says where prices went, not what households pay. It is shown beside the scores as context.',
      'Every threshold is a fixed number that says what it rests on (the methodology page lists each); none is a rank among the markets.',
    ],
  },
  {
    version: 'v1.1',
    changes: [
      "New York City's permits are the sum of its five borough rows in the Building Permits Survey's place files. The survey publishes the city only borough by borough (each row with the city's place code and the borough's county), so under v1.0 New York had no permits value, no supply score and no overall score.",
      'Building permits are read from the four regional annual place files as the Census Bureau publishes them, matched on state and FIPS place codes, including cities in states that report through minor civil divisions (Boston, Chicago).',
    ],
  },
  {
    version: 'v1.0',
    changes: [
      'First methodology: eight required metrics from the ACS 5-year estimates, the FHFA House Price Index and the Building Permits Survey; affordability, supply and overall scores from fixed thresholds; freshness and coverage rules.',
    ],
  },
];
