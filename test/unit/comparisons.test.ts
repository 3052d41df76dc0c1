// A market's figure against its state's: the Census Bureau's test of a difference at the 90 % level, on hand-worked pairs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Z_90, changeBetween, testDifference } from '../../src/methodology/comparisons.ts';

test('a difference beyond √(MOE₁² + MOE₂²) is significant at 90 %, with its sign; one within it is not', () => {
  // Austin's rent 1,729 ± 14 against Texas's 1,403 ± 4: Z = 326 / (√(14² + 4²) / 1.645) = 36.7.
  const austin = testDifference({ value: 1729, marginOfError: 14 }, { value: 1403, marginOfError: 4 });
  assert.equal(austin.verdict, 'higher');
  assert.ok('z' in austin && Math.abs(austin.z - (326 * Z_90) / Math.hypot(14, 4)) < 1e-9, 'Z is the difference over the standard error of the difference');
  assert.equal(testDifference({ value: 43.4, marginOfError: 0.7 }, { value: 62.6, marginOfError: 0.3 }).verdict, 'lower');
  // Seattle's vacancy rate 7.7 ± 0.4 against Washington State's 7.3 ± 0.2: 0.4 apart, within √(0.4² + 0.2²) = 0.447.
  assert.equal(testDifference({ value: 7.7, marginOfError: 0.4 }, { value: 7.3, marginOfError: 0.2 }).verdict, 'not different');
});

test('at the edge: a difference exactly √(MOE₁² + MOE₂²) is not significant, one a little more is', () => {
  // 3 and 4 make 5: a difference of 5 is |Z| = 1.645, not more.
  assert.equal(testDifference({ value: 105, marginOfError: 3 }, { value: 100, marginOfError: 4 }).verdict, 'not different');
  assert.equal(testDifference({ value: 105.01, marginOfError: 3 }, { value: 100, marginOfError: 4 }).verdict, 'higher');
  assert.equal(testDifference({ value: 94.99, marginOfError: 3 }, { value: 100, marginOfError: 4 }).verdict, 'lower');
});

test('the same figure is no difference; without a margin on either side there is no test', () => {
  assert.deepEqual(testDifference({ value: 1954, marginOfError: 26 }, { value: 1954, marginOfError: 26 }), { verdict: 'not different', z: 0 });
  assert.deepEqual(testDifference({ value: 4001 }, { value: 2946, marginOfError: 5 }), { verdict: 'untested' });
  assert.deepEqual(testDifference({ value: 1, marginOfError: 1 }, { value: 2 }), { verdict: 'untested' });
  // Two exact counts (margins of 0) that differ differ for certain; equal ones do not.
  assert.equal(testDifference({ value: 2, marginOfError: 0 }, { value: 1, marginOfError: 0 }).verdict, 'higher');
  assert.equal(testDifference({ value: 1, marginOfError: 0 }, { value: 1, marginOfError: 0 }).verdict, 'not different');
});

test("a change over time: the difference, its margin by the Census Bureau's formula for two estimates, its percent and its verdict", () => {
  // Austin's median home value, 555,300 ± 8,017 in 2020-2024 against 337,400 ± 3,146 in 2015-2019:
  // 217,900 ± √(8,017² + 3,146²) = ± 8,612, up 64.6 %, well beyond its margin.
  assert.deepEqual(changeBetween({ value: 555300, marginOfError: 8017 }, { value: 337400, marginOfError: 3146 }, 0), {
    value: 217900,
    marginOfError: 8612,
    percent: 64.6,
    significant: true,
  });
  // 3 ± 3 and 4: a change of 5 is within √(3² + 4²) = 5, so not significant; without a margin there is no verdict at all.
  assert.equal(changeBetween({ value: 105, marginOfError: 3 }, { value: 100, marginOfError: 4 }, 0).significant, false);
  assert.deepEqual(changeBetween({ value: 105 }, { value: 100, marginOfError: 4 }, 0), { value: 5, percent: 5 });
});
