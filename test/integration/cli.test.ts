// The installed command (a child process) when a build cannot write its output: two lines on stderr and exit code 1, not Node's stack trace.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIXTURES_DIR } from '../support/data.ts';

const BIN = new URL('../../bin/market-profiles.js', import.meta.url).pathname;

test('a build whose output folder cannot be made: the error in one line, that the previous output was kept, exit code 1', async () => {
  const work = mkdtempSync(join(tmpdir(), 'mp-cli-'));
  try {
    // A file where the output folder's parent should be: ENOTDIR, even for root.
    writeFileSync(join(work, 'file'), 'not a folder');
    const { code, out, err } = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(
        process.execPath,
        [BIN, 'build', '--fixtures', FIXTURES_DIR, '--out', join(work, 'file', 'dist')],
        { encoding: 'utf8' },
        (error, stdout, stderr) => {
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, out: stdout, err: stderr });
        },
      );
    });
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
