// The installed command (a child process, on the test world): each command's --help, --version, a misspelt --source, a build that cannot write its output, a serve on a port in use and stale compiled code (lines on stderr and exit code 1, not Node's stack trace).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { COMMAND_NAMES } from '../../src/commands/config.ts';
import { commandUsage, usageText } from '../../src/commands/help.ts';
import { SOURCES } from '../../src/sources/registry.ts';
import { TODAY_FIXTURES } from '../support/today.ts';
import { commandPath } from '../support/compiled.ts';
import { COMPILED_FROM, staleCode } from '../../src/commands/compiled.ts';
import { ARCHIVE_DIR, WORLD_FIXTURES } from '../world/world.ts';

const run = (argv: string[]): Promise<{ code: number; out: string; err: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [commandPath(), ...argv], { encoding: 'utf8' }, (error, stdout, stderr) => {
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

test('--version and -v print the package name and version on stdout, exit code 0, whatever the command', async () => {
  const { name, version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  for (const argv of [['--version'], ['-v'], ['fetch', '--version']])
    assert.deepEqual(await run(argv), { code: 0, out: `${name} ${version}\n`, err: '' }, argv.join(' '));
});

test('fetch --source with an id that is no source is a usage error, exit code 2, naming the sources and the one meant', async () => {
  assert.deepEqual(await run(['fetch', '--source', 'census_bps']), {
    code: 2,
    out: '',
    // The registry's sources, whatever they are today; census-bps among them.
    err: `market-profiles: fetch: --source must be one of ${SOURCES.map((s) => s.sourceId)
      .sort()
      .join(', ')}, got "census_bps"; did you mean census-bps?\n`,
  });
});

test('a build whose output folder cannot be made: the error in one line, that the previous output was kept, exit code 1', async () => {
  const work = mkdtempSync(join(tmpdir(), 'mp-cli-'));
  try {
    // A file where the output folder's parent should be: ENOTDIR, even for root.
    writeFileSync(join(work, 'file'), 'not a folder');
    // The command as a user runs it builds with the registry's sources, so over today's fixtures and archive (the archive's
    // rule keeps the two in step); it asserts nothing about the data.
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

test('serve on a port another program holds: one line naming it and how to choose another, before any build, exit code 1, no stack trace', async () => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as AddressInfo;
  const work = mkdtempSync(join(tmpdir(), 'mp-cli-'));
  try {
    const archive = ARCHIVE_DIR;
    // Fixtures a build would refuse (an empty folder): the port is refused first, so no build ran.
    mkdirSync(join(work, 'no-fixtures'));
    const child = spawn(process.execPath, [
      commandPath(),
      'serve',
      '--port',
      String(port),
      '--fixtures',
      join(work, 'no-fixtures'),
      '--archive',
      archive,
      '--out',
      join(work, 'dist'),
    ]);
    let [out, err] = ['', ''];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      // Should it serve after all, it is stopped, and the assertions below fail instead of the test hanging.
      if (out.includes('serving')) child.kill();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(out, '');
    assert.equal(
      err,
      `market-profiles: serve failed: 127.0.0.1:${port} is in use by another program; serve on another with --port <another> (or PORT=<another>; 0 picks a free one)\n`,
    );
    assert.equal(code, 1);
  } finally {
    await new Promise((resolve) => holder.close(resolve));
    rmSync(work, { recursive: true, force: true });
  }
});

test('an edit in src/ not compiled: build, archive and serve refuse in one line naming lib/ and npm run compile, exit code 1, and build nothing', async () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  commandPath(); // lib/ compiled from src/ as it is now, to copy
  const copy = mkdtempSync(join(tmpdir(), 'mp-stale-'));
  try {
    for (const part of ['bin', 'lib', 'src', 'package.json']) cpSync(join(root, part), join(copy, part), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    const inCopy = (argv: string[]): Promise<{ code: number; out: string; err: string }> =>
      new Promise((resolve) => {
        execFile(process.execPath, [join(copy, 'bin', 'market-profiles.js'), ...argv], { encoding: 'utf8' }, (error, stdout, stderr) => {
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, out: stdout, err: stderr });
        });
      });
    assert.equal(staleCode(copy), undefined, 'the copy as compiled');
    // A label edited and not compiled: the old label must never be built (and archived, write-once) from lib/.
    const words = join(copy, 'src', 'contract', 'words.ts');
    writeFileSync(words, `${readFileSync(words, 'utf8')}// edited, not compiled\n`);
    const stale =
      'lib/ was not compiled from the src/ beside it (src/ changed since `npm run compile` last ran), so it would run the old code: run `npm run compile` first';
    const dist = join(copy, 'dist');
    const archive = join(copy, 'archive');
    const inputs = ['--fixtures', WORLD_FIXTURES, '--archive', archive];
    for (const [argv, after] of [
      [['build', ...inputs, '--out', dist], 'market-profiles: the previous output was left as it was.\n'],
      [['archive', ...inputs], ''],
      [['serve', ...inputs, '--out', dist, '--port', '0'], ''],
    ] as const) {
      const got = await inCopy([...argv]);
      assert.deepEqual(got, { code: 1, out: '', err: `market-profiles: ${argv[0]} failed: ${stale}\n${after}` }, argv[0]);
    }
    assert.equal(existsSync(dist) || existsSync(archive), false, 'nothing built, nothing archived');
    rmSync(join(copy, 'lib', COMPILED_FROM));
    const unrecorded = await inCopy(['build', '--out', dist, '--fixtures', WORLD_FIXTURES]);
    assert.equal(unrecorded.code, 1);
    assert.match(
      unrecorded.err,
      /^market-profiles: build failed: lib\/ holds no record of the src\/ it was compiled from \(lib\/\.compiled-from\): run `npm run compile` first\n/,
    );
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
