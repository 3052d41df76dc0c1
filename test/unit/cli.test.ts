// How the command line ends when a command fails: one line on stderr and an exit code that says whose fault it was, never a stack trace.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { RUNNERS, listenFailure, main, runnersFor, type Runner } from '../../src/commands/cli.ts';
import { InvariantError } from '../../src/contract/errors.ts';
import { FIXTURES_DIR } from '../support/data.ts';
import { WORLD_INPUTS, copyWorldArchive } from '../world/world.ts';

/** Runs main with stderr captured (stdout is left alone: the test runner reports on it). */
async function captured(run: () => Promise<number>): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (err.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    return { code: await run(), err: err.join('') };
  } finally {
    process.stderr.write = write;
  }
}

/** The real commands, with one replaced by a body that throws. */
const failingIn = (command: keyof typeof RUNNERS, error: unknown): typeof RUNNERS => {
  const body: Runner = () => Promise.reject(error);
  return { ...RUNNERS, [command]: body };
};

describe('a command that fails', () => {
  test('a broken invariant: one line calling it a bug, exit code 70, no stack trace', async () => {
    const { code, err } = await captured(() => main(['build'], {}, failingIn('build', new InvariantError('the route table has no /api/markets'))));
    assert.equal(code, 70);
    assert.equal(err, 'market-profiles: build: internal error (a bug; please report it): the route table has no /api/markets\n');
  });

  test('a broken invariant in any command is reported the same way, naming that command', async () => {
    const { code, err } = await captured(() => main(['verify', 'http://127.0.0.1:9'], {}, failingIn('verify', new InvariantError('no check ran'))));
    assert.equal(code, 70);
    assert.equal(err, 'market-profiles: verify: internal error (a bug; please report it): no check ran\n');
  });

  test('another error: one line naming the command and the message, exit code 1', async () => {
    const eacces = Object.assign(new Error("EACCES: permission denied, open '/srv/fixtures/fhfa-hpi/hpi_at_metro.csv.fetch-1'"), { code: 'EACCES' });
    const { code, err } = await captured(() => main(['fetch'], {}, failingIn('fetch', eacces)));
    assert.equal(code, 1);
    assert.equal(err, "market-profiles: fetch failed: EACCES: permission denied, open '/srv/fixtures/fhfa-hpi/hpi_at_metro.csv.fetch-1'\n");
  });

  test('a build that cannot write its output: the message and that the previous output was kept, exit code 1', async () => {
    const work = mkdtempSync(join(tmpdir(), 'mp-cli-'));
    // A file where the output folder's parent should be: the write fails with ENOTDIR, even for root.
    writeFileSync(join(work, 'file'), 'not a folder');
    const out = join(work, 'file', 'dist');
    const archive = join(work, 'archive');
    copyWorldArchive(archive);
    const { code, err } = await captured(() =>
      main(['build', '--fixtures', FIXTURES_DIR, '--archive', archive, '--out', out], {}, runnersFor(WORLD_INPUTS)),
    ).finally(() => rmSync(work, { recursive: true, force: true }));
    assert.equal(code, 1);
    const lines = err.split('\n');
    assert.equal(lines.length, 3, err);
    assert.match(lines[0] ?? '', /^market-profiles: build failed: ENOTDIR: not a directory, .*file\/dist/);
    assert.equal(lines[1], 'market-profiles: the previous output was left as it was.');
    assert.equal(lines[2], '');
  });

  test('a value thrown that is not an Error is still one line', async () => {
    const { code, err } = await captured(() => main(['list'], {}, failingIn('list', 'gone')));
    assert.equal(code, 1);
    assert.equal(err, 'market-profiles: list failed: gone\n');
  });
});

describe('serve on an address it cannot bind', () => {
  /** An error as node:net's listen gives it. */
  const listenError = (code: string): Error => Object.assign(new Error(`listen ${code}: address already in use 127.0.0.1:3000`), { code });

  test('a port in use: one line naming the address and how to choose another port, by flag or by variable', async () => {
    const failure = listenFailure(listenError('EADDRINUSE'), { host: '127.0.0.1', port: 3000 });
    assert.ok(failure instanceof Error, String(failure));
    assert.equal(
      failure.message,
      '127.0.0.1:3000 is in use by another program; serve on another with --port <another> (or PORT=<another>; 0 picks a free one)',
    );
    // What main prints of it: the one line, exit code 1.
    const { code, err } = await captured(() => main(['serve'], {}, failingIn('serve', failure)));
    assert.equal(code, 1);
    assert.equal(
      err,
      'market-profiles: serve failed: 127.0.0.1:3000 is in use by another program; serve on another with --port <another> (or PORT=<another>; 0 picks a free one)\n',
    );
  });

  test('an IPv6 host is bracketed; a port this user may not bind says so; any other error is left as it is', () => {
    assert.match(String(listenFailure(listenError('EADDRINUSE'), { host: '::1', port: 8080 })), /^Error: \[::1\]:8080 is in use by another program; /);
    assert.equal(
      (listenFailure(listenError('EACCES'), { host: '0.0.0.0', port: 80 }) as Error).message,
      '0.0.0.0:80 needs privileges this user lacks (ports below 1024 do); serve on another with --port <another> (or PORT=<another>; 0 picks a free one)',
    );
    const other = listenError('EADDRNOTAVAIL');
    assert.equal(listenFailure(other, { host: '10.9.9.9', port: 3000 }), other);
    assert.equal(listenFailure('gone', { host: '127.0.0.1', port: 3000 }), 'gone');
  });
});
