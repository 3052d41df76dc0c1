// The usage text and the README's options table, written from the options and commands tables of config.ts, so neither can say something the code does not read.
import { InvariantError } from '../contract/errors.ts';
import {
  COMMANDS,
  COMMAND_NAMES,
  CREDENTIALS,
  CREDENTIAL_ABSENT,
  CREDENTIAL_KIND,
  NAMES,
  OPTIONS,
  type Command,
  type Name,
  type OptionSpec,
} from './config.ts';

const spec = (name: Name): OptionSpec<unknown> => OPTIONS[name];
const takes = (command: Command, name: Name): boolean => (COMMANDS[command].options as readonly Name[]).includes(name);

const flagText = (name: Name): string => (spec(name).envOnly ? '' : `--${name}${spec(name).kind.switch ? '' : ' VALUE'}`);
const envText = (name: Name): string => spec(name).env ?? '';

/** The type as shown: a switch set by its environment variable says how that spells on and off. */
function typeText(name: Name): string {
  const { env, kind } = spec(name);
  return env === undefined ? kind.type : (kind.envType ?? kind.type);
}

/** The default as shown: the value in code font (`3000`), off or on for a switch, or what leaving the option unset means. */
function shownDefault(name: Name): string {
  const { default: value, absent } = spec(name);
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (value !== undefined) return `\`${String(value)}\``;
  if (absent === undefined) throw new InvariantError(`the option --${name} has neither a default nor words for its absence`);
  return absent;
}

/** Column widths of the usage text, wide enough for the longest flag and environment name of any command. */
const FLAG_WIDTH = Math.max(...NAMES.map((name) => flagText(name).length)) + 2;
const ENV_WIDTH = Math.max(...NAMES.map((name) => envText(name).length), ...CREDENTIALS.map((c) => c.env.length)) + 2;

/** Who reads the sources' credentials. */
const readsCredentials = (command: Command): boolean => 'credentials' in COMMANDS[command];

/** The options of one command, as lines of the usage text, in the options table's order, then the credentials it reads. */
export function usageLines(command: Command): string[] {
  const line = (flag: string, env: string, help: string): string => `  ${flag.padEnd(FLAG_WIDTH)}${env.padEnd(ENV_WIDTH)}${help.replaceAll('`', '')}`;
  return [
    ...NAMES.filter((name) => takes(command, name)).map((name) =>
      line(flagText(name), envText(name), `${spec(name).help} (${typeText(name)}; default ${shownDefault(name)})`),
    ),
    ...(readsCredentials(command) ? CREDENTIALS.map((c) => line('', c.env, `${c.help} (${CREDENTIAL_KIND.type}; default ${CREDENTIAL_ABSENT})`)) : []),
  ];
}

/** Where a command's summary starts in the usage text, after its synopsis. */
const SUMMARY_COLUMN = 24;

/** The options blocks come in this order: verify's before fetch's, as the help has listed them since fetch was added. */
const BLOCK_ORDER: Readonly<Record<Command, number>> = { serve: 0, build: 1, archive: 2, verify: 3, fetch: 4, list: 5, get: 6 };

/** `market-profiles --help`: every command with what it does, then each command's options. */
export function usageText(): string {
  const commands = COMMAND_NAMES.flatMap((command) => {
    const [first = '', ...more] = COMMANDS[command].summary;
    return [`  ${COMMANDS[command].synopsis.padEnd(SUMMARY_COLUMN - 2)}${first}`, ...more.map((line) => `${' '.repeat(SUMMARY_COLUMN)}${line}`)];
  });
  const blocks = [...COMMAND_NAMES]
    .sort((a, b) => BLOCK_ORDER[a] - BLOCK_ORDER[b])
    // Said once, on the first block.
    .map((command, i) => `options of ${command}${i === 0 ? ' (flags win over environment variables)' : ''}:\n${usageLines(command).join('\n')}`);
  return `usage: market-profiles <command> [options]\n\ncommands:\n${commands.join('\n')}\n\n${blocks.join('\n\n')}\n`;
}

/** The README's options table (a test keeps the README equal to it); the Commands column lists who reads each option. */
export function optionsTable(): string {
  const rows = NAMES.map((name) => {
    const { env, envOnly, help } = spec(name);
    const readers = COMMAND_NAMES.filter((command) => takes(command, name)).map((command) => `\`${command}\``);
    return `| ${env === undefined ? '' : `\`${env}\``} | ${envOnly ? '' : `\`--${name}\``} | ${typeText(name)} | ${shownDefault(name)} | ${readers.join(', ')} | ${help} |`;
  });
  const credentialReaders = COMMAND_NAMES.filter(readsCredentials).map((command) => `\`${command}\``);
  for (const c of CREDENTIALS) rows.push(`| \`${c.env}\` |  | ${CREDENTIAL_KIND.type} | ${CREDENTIAL_ABSENT} | ${credentialReaders.join(', ')} | ${c.help} |`);
  return ['| Environment | Flag | Type | Default | Commands | Meaning |', '|---|---|---|---|---|---|', ...rows].join('\n');
}
