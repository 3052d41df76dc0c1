// The help a person gets: each command's --help names that command's options alone, in words for that command; a typo in a command or an option is one line with the fix.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { main } from '../../src/commands/cli.ts';
import { COMMANDS, COMMAND_NAMES, NAMES, foreignOption, parseCommandLine } from '../../src/commands/config.ts';
import { commandUsage, usageText } from '../../src/commands/help.ts';
import { closest, editDistance } from '../../src/commands/suggest.ts';

/** main with stderr captured (stdout is the test runner's). */
async function stderrOf(argv: string[]): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (err.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    return { code: await main(argv, {}), err: err.join('') };
  } finally {
    process.stderr.write = write;
  }
}

/** The flags a usage text lists, in its order. */
const flagsIn = (text: string): string[] => [...text.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1] ?? '');

describe("each command's --help", () => {
  test('names that command, what it does, exactly the options it reads and its exit codes; not the other commands', () => {
    for (const command of COMMAND_NAMES) {
      const text = commandUsage(command);
      assert.match(text, new RegExp(`^usage: market-profiles ${command}\\b`), command);
      assert.deepEqual(
        flagsIn(text),
        NAMES.filter((name) => (COMMANDS[command].options as readonly string[]).includes(name)).map((name) => `--${name}`),
        command,
      );
      assert.match(text, /\nexit codes: 0 [^\n]+; 2 a usage error/, command);
      assert.doesNotMatch(text, /^commands:|^options of /m, `${command}: the global help's parts`);
      assert.ok(text.split('\n').length < 25, `${command}: ${text.split('\n').length} lines`);
    }
    assert.match(commandUsage('fetch'), /CENSUS_API_KEY/);
    assert.doesNotMatch(commandUsage('serve'), /CENSUS_API_KEY/);
  });

  test('an option is described as the command reads it: --port is a listen port for serve only', () => {
    const portLine = (command: keyof typeof COMMANDS): string =>
      commandUsage(command)
        .split('\n')
        .find((line) => line.startsWith('  --port ')) ?? '';
    assert.match(portLine('serve'), /Listen port/);
    for (const command of ['build', 'archive', 'list', 'get'] as const) assert.doesNotMatch(portLine(command), /Listen/, command);
    assert.match(portLine('list'), /read the service on this machine at this port/);
    assert.match(portLine('build'), /the port the links name .*nothing listens on it/);
    const baseUrlLine =
      commandUsage('get')
        .split('\n')
        .find((line) => line.startsWith('  --base-url ')) ?? '';
    assert.match(baseUrlLine, /The service to read/);
    assert.doesNotMatch(baseUrlLine, /Origin of every absolute URL/);
  });

  test('a command with a boolean option says once how a switch is spelled, with a switch of its own; one without says nothing of it', () => {
    const forms = (flag: string): RegExp =>
      new RegExp(
        `^A boolean option is on as a bare flag \\(${flag}\\), or set by a word after = \\(${flag}=false\\); .* true/false, 1/0, yes/no or on/off, in any case`,
        'gm',
      );
    const examples = { serve: '--log', fetch: '--dry-run', verify: '--json', list: '--csv', get: '--csv' } as const;
    for (const [command, flag] of Object.entries(examples)) assert.equal(commandUsage(command as keyof typeof examples).match(forms(flag))?.length, 1, command);
    for (const command of ['build', 'archive'] as const) assert.doesNotMatch(commandUsage(command), /A boolean option/, command);
    assert.equal(usageText().match(forms('--log'))?.length, 1);
  });

  test("every flag a command's help names, in its examples too, is one that command reads", () => {
    for (const command of COMMAND_NAMES) {
      const reads = new Set(['--help', ...(COMMANDS[command].options as readonly string[]).map((name) => `--${name}`)]);
      const named = [...commandUsage(command).matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]);
      assert.deepEqual(
        named.filter((flag) => !reads.has(flag)),
        [],
        command,
      );
    }
  });

  test('the global help still lists every command and every option, and says that each command has its own', () => {
    const text = usageText();
    for (const command of COMMAND_NAMES) assert.match(text, new RegExp(`^options of ${command}`, 'm'));
    assert.match(text, /market-profiles <command> --help prints one command's usage, options and exit codes\.\n$/);
  });
});

describe('a typo gets one line with the fix', () => {
  test('an unknown command: one line on stderr, the nearest command suggested, exit code 2', async () => {
    assert.deepEqual(await stderrOf(['lsit']), {
      code: 2,
      err: 'market-profiles: unknown command "lsit"; did you mean "list"? (market-profiles --help lists every command)\n',
    });
    assert.deepEqual(await stderrOf(['bulid', '--help']), {
      code: 2,
      err: 'market-profiles: unknown command "bulid"; did you mean "build"? (market-profiles --help lists every command)\n',
    });
    assert.deepEqual(await stderrOf(['publish']), {
      code: 2,
      err: 'market-profiles: unknown command "publish"; the commands are serve, build, archive, fetch, verify, list and get (market-profiles --help says what each does)\n',
    });
    assert.equal((await stderrOf(['help', 'lsit'])).code, 2);
  });

  test("an unknown option: one line naming the command's nearest option, exit code 2", async () => {
    assert.deepEqual(await stderrOf(['serve', '--prot', '8080']), { code: 2, err: 'market-profiles: serve: unknown option --prot; did you mean --port?\n' });
    assert.deepEqual(await stderrOf(['get', 'us-tx-austin', '--cvs']), { code: 2, err: 'market-profiles: get: unknown option --cvs; did you mean --csv?\n' });
    assert.deepEqual(await stderrOf(['verify', 'http://127.0.0.1:9', '--conccurency', '2']), {
      code: 2,
      err: 'market-profiles: verify: unknown option --conccurency; did you mean --concurrency?\n',
    });
    assert.deepEqual(await stderrOf(['build', '--nope']), {
      code: 2,
      err: 'market-profiles: build: unknown option --nope (market-profiles build --help lists the options)\n',
    });
  });

  test("verify's address without a scheme: a usage error naming the address, not BASE_URL, and the URL it likely meant", async () => {
    assert.deepEqual(await stderrOf(['verify', 'localhost:3000']), {
      code: 2,
      err: 'market-profiles: verify: the address must use http or https, got "localhost:3000"; did you mean http://localhost:3000? (market-profiles verify --help says more)\n',
    });
  });

  test('an option of another command is refused by name, with the commands that read it', async () => {
    assert.deepEqual(await stderrOf(['list', '--vintage', '2026-11-24']), {
      code: 2,
      err: 'market-profiles: list: --vintage is an option of get, not of list (market-profiles list --help lists its options)\n',
    });
    assert.deepEqual(await stderrOf(['serve', '--json']), {
      code: 2,
      err: 'market-profiles: serve: --json is an option of verify, not of serve (market-profiles serve --help lists its options)\n',
    });
    const { flags } = parseCommandLine(['fetch', '--port', '1']);
    assert.equal(
      foreignOption('fetch', flags),
      '--port is an option of serve, build, archive, list and get, not of fetch (market-profiles fetch --help lists its options)',
    );
    assert.equal(foreignOption('get', parseCommandLine(['get', 'x', '--csv', '--help']).flags), undefined);
  });

  test('the distance counts a swap of neighbours as one edit, and nothing is suggested for a word far from every name', () => {
    assert.equal(editDistance('lsit', 'list'), 1);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('kitten', 'sitting'), 3);
    assert.equal(editDistance('list', 'list'), 0);
    assert.equal(closest('LSIT', COMMAND_NAMES), 'list');
    assert.equal(closest('x', ['serve', 'get']), undefined);
    assert.equal(closest('gte', ['serve', 'get']), 'get');
    assert.equal(closest('fecth', COMMAND_NAMES), 'fetch');
    assert.equal(closest('archives', COMMAND_NAMES), 'archive');
    assert.equal(closest('deploy', COMMAND_NAMES), undefined);
  });

  test('a swap is one edit only when both letters trade places; a word of three letters may be one edit off, none more than two', () => {
    // One letter matching its neighbour in the other word is no swap: "xa" to "ay" is a deletion and an insertion.
    assert.equal(editDistance('xa', 'ay'), 2);
    assert.equal(editDistance('ay', 'xa'), 2);
    assert.equal(closest('gxx', ['get']), undefined);
    assert.equal(closest('archivexyz', COMMAND_NAMES), undefined);
    assert.equal(closest('archivexy', COMMAND_NAMES), 'archive');
  });
});
