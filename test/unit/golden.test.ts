// Today's data, as golden files for Austin (complete) and New York (permits summed from its five boroughs, geographyScope with a metropolitan division): any byte change is a visible diff.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test, type TestContext } from 'node:test';
import { PATHS } from '../../src/contract/paths.ts';
import { body } from '../support/data.ts';
import { buildToday } from '../support/today.ts';

// Regenerate with: UPDATE_GOLDEN=1 node --import tsx --test test/unit/golden.test.ts (then review the diff).
const table = buildToday();
const golden = (t: TestContext, name: string, actual: string): void => {
  const file = new URL(`../golden/${name}`, import.meta.url);
  if (process.env['UPDATE_GOLDEN'] === '1') {
    // Rewriting a golden file compares nothing: the run says so instead of passing.
    writeFileSync(file, actual);
    t.skip(`${name} rewritten; review the diff`);
    return;
  }
  assert.equal(actual, readFileSync(file, 'utf8'), `${name} differs from its golden file`);
};

for (const id of ['us-tx-austin', 'us-ny-new-york']) {
  test(`${id}: profile JSON matches its golden file`, (t) => golden(t, `${id}.json`, body(table, PATHS.profile(id))));
  test(`${id}: CSV matches its golden file`, (t) => golden(t, `${id}.csv`, body(table, PATHS.marketCsv(id))));
}
