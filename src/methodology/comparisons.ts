// Whether a market's estimate differs from its state's at the 90 % level: the Census Bureau's test on the two published margins of error.

/** An estimate with its 90 % margin of error, where one is published. */
export interface Estimate {
  value: number;
  marginOfError?: number;
}

/** The critical value of a two-sided test at the 90 % level, which is also the factor that turns a 90 % margin into a standard error. */
export const Z_90 = 1.645;

/**
 * The verdict of the ACS test of a difference (ACS General Handbook, chapter 8): Z = (a − b) / √(SEa² + SEb²), with
 * SE = MOE / 1.645; the difference is significant at 90 % when |Z| > 1.645. `untested` where a margin is missing.
 * Like the Census Bureau's own comparisons, it ignores that a city's sample is part of its state's.
 */
export type Difference = { verdict: 'higher' | 'lower' | 'not different'; z: number } | { verdict: 'untested' };

export function testDifference(a: Estimate, b: Estimate): Difference {
  if (a.marginOfError === undefined || b.marginOfError === undefined) return { verdict: 'untested' };
  const diff = a.value - b.value;
  // |Z| > 1.645 is |a − b| > √(MOEa² + MOEb²): compared so, a difference right at the edge is not lost to rounding.
  const bound = Math.hypot(a.marginOfError, b.marginOfError);
  const z = bound === 0 ? (diff === 0 ? 0 : Math.sign(diff) * Infinity) : (diff * Z_90) / bound;
  if (Math.abs(diff) <= bound) return { verdict: 'not different', z };
  return { verdict: diff > 0 ? 'higher' : 'lower', z };
}

/** Rounds to a number of decimals, half away from zero. */
const round = (x: number, decimals: number): number => {
  const f = 10 ** decimals;
  return (Math.sign(x) * Math.round(Number((Math.abs(x) * f).toPrecision(15)))) / f || 0;
};

/**
 * The change from an earlier estimate to a later one of the same area: the difference in the unit, its 90 % margin
 * (the root of the sum of the squared margins: the Census Bureau's formula for the difference of two estimates), the
 * change in percent of the earlier one (one decimal), and whether it is significant at 90 % (the test above), where
 * both margins are published.
 */
export function changeBetween(
  later: Estimate,
  earlier: Estimate,
  decimals: number,
): { value: number; marginOfError?: number; percent: number; significant?: boolean } {
  const verdict = testDifference(later, earlier);
  const margin = later.marginOfError === undefined || earlier.marginOfError === undefined ? undefined : Math.hypot(later.marginOfError, earlier.marginOfError);
  return {
    value: round(later.value - earlier.value, decimals),
    ...(margin === undefined ? {} : { marginOfError: round(margin, decimals) }),
    percent: round(((later.value - earlier.value) / earlier.value) * 100, 1),
    ...(verdict.verdict === 'untested' ? {} : { significant: verdict.verdict !== 'not different' }),
  };
}
