// The installed command (a child process): each command's --help, and a build that cannot write its output (two lines on stderr and exit code 1, not Node's stack trace).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMMAND_NAMES } from '../../src/commands/config.ts';
import { commandUsage, usageText } from '../../src/commands/help.ts';
import { TODAY_FIXTURES } from '../support/today.ts';

const BIN = new URL('../../bin/market-profiles.js', import.meta.url).pathname;

const run = (argv: string[]): Promise<{ code: number; out: string; err: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...argv], { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, out: stdout, err: stderr });
    });
  });

test("every command's --help (and help <command>) prints that command's usage alone on stdout, exit code 0; --help alone the whole", async () => {
  for (const command of COMMAND_NAMES) {
    assert.deepEqual(await run([command, '--help']), { code: 0, out: commandUsage(command), err: '' }, command);
    assert.deepEqual(await run(['help', command]), { code: 0, out: commandUsage(command), err: '' }, command);
  }
  assert.deepEqual(await run(['--help']), { code: 0, out: usageText(), err: '' });
  assert.deepEqual(await run(['help']), { code: 0, out: usageText(), err: '' });
});

test('a build whose output folder cannot be made: the error in one line, that the previous output was kept, exit code 1', async () => {
  const work = mkdtempSync(join(tmpdir(), 'mp-cli-'));
  try {
    // A file where the output folder's parent should be: ENOTDIR, even for root.
    writeFileSync(join(work, 'file'), 'not a folder');
    const { code, out, err } = await run(['build', '--fixtures', TODAY_FIXTURES, '--out', join(work, 'file', 'dist')]);
    assert.equal(code, 1, err);
    assert.equal(out, '');
    assert.match(
      err,
      /^market-profiles: build failed: ENOTDIR: not a directory, [^\n]*file\/dist[^\n]*\nmarket-profiles: the previous output was left as it was\.\n$/,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
