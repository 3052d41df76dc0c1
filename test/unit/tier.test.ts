// The unit tier's entry files: the ones npm test and npm run test:unit name import every unit test file once.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { shareOf, tierFiles } from './tier.ts';

const ROOT = new URL('../../', import.meta.url);
const scripts = (JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The unit tier's entry files a script names, and the share each imports. */
const entriesOf = (script: string): { file: string; part: number; parts: number }[] =>
  ((scripts[script] ?? '').match(/test\/unit\/[^\s]+\.ts/g) ?? []).map(entry);

/** An entry file and the share it imports: its one `importShare(part, parts)` call. */
function entry(file: string): { file: string; part: number; parts: number } {
  const calls = [...readFileSync(new URL(file, ROOT), 'utf8').matchAll(/importShare\((\d+), (\d+)\)/g)];
  assert.equal(calls.length, 1, `${file}: one importShare call`);
  const [, part, parts] = calls[0] ?? [];
  return { file, part: Number(part), parts: Number(parts) };
}

test('npm run test:unit imports every unit test file once in its two halves; npm test all of them in all.ts', () => {
  const files = tierFiles();
  assert.ok(files.includes('tier.test.ts'), 'the tier lists its own test');
  const halves = entriesOf('test:unit');
  assert.deepEqual(
    halves.map((e) => e.file),
    ['test/unit/half-1.ts', 'test/unit/half-2.ts'],
    'test:unit: the two halves',
  );
  assert.deepEqual(halves.flatMap((e) => shareOf(files, e.part, e.parts)).sort(), files, 'test:unit: every file once');
  const whole = entriesOf('test:all');
  assert.deepEqual(
    whole.map((e) => e.file),
    ['test/unit/all.ts'],
    'test:all: the tier in one process',
  );
  assert.deepEqual(
    whole.flatMap((e) => shareOf(files, e.part, e.parts)),
    files,
    'test:all: every file once',
  );
});

test('a share is every parts-th file from its own; the shares of one split are disjoint and cover the list', () => {
  const files = ['a', 'b', 'c', 'd', 'e'];
  assert.deepEqual(shareOf(files, 0, 2), ['a', 'c', 'e']);
  assert.deepEqual(shareOf(files, 1, 2), ['b', 'd']);
  assert.deepEqual(shareOf(files, 0, 1), files);
  assert.deepEqual(shareOf(files, 2, 3), ['c']);
});
