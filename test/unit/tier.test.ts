// The tiers' entry files: the ones npm test, npm run test:unit and npm run test:integration name import every test file of their tier once.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { shareOf, tierFiles, type Tier } from '../support/tier.ts';

const ROOT = new URL('../../', import.meta.url);
const scripts = (JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { scripts: Record<string, string> }).scripts;

interface Entry {
  file: string;
  part: number;
  parts: number;
}

/** The tier's entry files a script names, and the share each imports. */
const entriesOf = (script: string, tier: Tier): Entry[] =>
  ((scripts[script] ?? '').match(new RegExp(`test/${tier}/[^\\s]+\\.ts`, 'g')) ?? []).map((file) => entry(file, tier));

/** An entry file and the share it imports: its one `importShare('<tier>', part, parts)` call. */
function entry(file: string, tier: Tier): Entry {
  const calls = [...readFileSync(new URL(file, ROOT), 'utf8').matchAll(/importShare\('(\w+)', (\d+), (\d+)\)/g)];
  assert.equal(calls.length, 1, `${file}: one importShare call`);
  const [, named, part, parts] = calls[0] ?? [];
  assert.equal(named, tier, `${file} imports a share of the ${tier} tier`);
  return { file, part: Number(part), parts: Number(parts) };
}

/** Every file of the tier once, and in what the script's entries import. */
function assertWhole(script: string, tier: Tier, files: readonly string[]): Entry[] {
  const entries = entriesOf(script, tier);
  assert.deepEqual(entries.flatMap((e) => shareOf(files, e.part, e.parts)).sort(), [...files], `${script}: every ${tier} file once`);
  return entries;
}

test('npm run test:unit imports every unit test file once in its two halves; npm test all of them in all.ts', () => {
  const files = tierFiles('unit');
  assert.ok(files.includes('tier.test.ts'), 'the tier lists its own test');
  const halves = assertWhole('test:unit', 'unit', files);
  assert.deepEqual(
    halves.map((e) => e.file),
    ['test/unit/half-1.ts', 'test/unit/half-2.ts'],
    'test:unit: the two halves',
  );
  const whole = assertWhole('test:all', 'unit', files);
  assert.deepEqual(
    whole.map((e) => e.file),
    ['test/unit/all.ts'],
    'test:all: the tier in one process',
  );
});

test('npm test and npm run test:integration import every integration test file once, in two halves', () => {
  const files = tierFiles('integration');
  assert.ok(files.includes('build.test.ts'), 'the tier lists build.test.ts');
  for (const script of ['test:all', 'test:integration']) {
    const halves = assertWhole(script, 'integration', files);
    assert.deepEqual(
      halves.map((e) => e.file),
      ['test/integration/half-1.ts', 'test/integration/half-2.ts'],
      `${script}: the two halves`,
    );
    assert.doesNotMatch(scripts[script] ?? '', /\*\.test\.ts/, `${script} names no file of a tier beside its entries`);
  }
});

test('a share is every parts-th file from its own; the shares of one split are disjoint and cover the list', () => {
  const files = ['a', 'b', 'c', 'd', 'e'];
  assert.deepEqual(shareOf(files, 0, 2), ['a', 'c', 'e']);
  assert.deepEqual(shareOf(files, 1, 2), ['b', 'd']);
  assert.deepEqual(shareOf(files, 0, 1), files);
  assert.deepEqual(shareOf(files, 2, 3), ['c']);
});
