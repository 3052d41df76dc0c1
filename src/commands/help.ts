// The usage text (every command's, and each command's alone) and the README's options table, written from the options and commands tables of config.ts, so neither can say something the code does not read.
import { InvariantError } from '../contract/errors.ts';
import {
  COMMANDS,
  COMMAND_NAMES,
  CREDENTIAL_ABSENT,
  CREDENTIAL_KIND,
  NAMES,
  OPTIONS,
  type Command,
  type CommandSpec,
  type Name,
  type OptionSpec,
} from './config.ts';
import { CREDENTIALS } from './fetch.ts';
import { listWords } from '../contract/words.ts';
import { switchForms } from './option-kinds.ts';

const spec = (name: Name): OptionSpec<unknown> => OPTIONS[name];
const takes = (command: Command, name: Name): boolean => (COMMANDS[command].options as readonly Name[]).includes(name);

const flagText = (name: Name): string => (spec(name).envOnly ? '' : `--${name}${spec(name).kind.switch ? '' : ' VALUE'}`);
const envText = (name: Name): string => spec(name).env ?? '';

/** The type as shown; a switch's forms are said once, below the table and the options (switchForms). */
const typeText = (name: Name): string => spec(name).kind.type;

/** Whether some of these options are switches, so that the text says the forms a switch takes. */
const anySwitch = (names: readonly Name[]): boolean => names.some((name) => spec(name).kind.switch);

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

/** What an option does for one command: the command's own words where it has them, else the options table's. */
const helpOf = (command: Command, name: Name): string => (COMMANDS[command] as CommandSpec).optionHelp?.[name] ?? spec(name).help;

/** The options of one command, as lines of the usage text, in the options table's order, then the credentials it reads. */
export function usageLines(command: Command): string[] {
  const line = (flag: string, env: string, help: string): string => `  ${flag.padEnd(FLAG_WIDTH)}${env.padEnd(ENV_WIDTH)}${help.replaceAll('`', '')}`;
  return [
    ...NAMES.filter((name) => takes(command, name)).map((name) =>
      line(flagText(name), envText(name), `${helpOf(command, name)} (${typeText(name)}; default ${shownDefault(name)})`),
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
  return `usage: market-profiles <command> [options]\n\ncommands:\n${commands.join('\n')}\n\n${blocks.join('\n\n')}\n\n${switchForms(false)}\nmarket-profiles <command> --help prints one command's usage, options and exit codes.\n`;
}

/** `market-profiles <command> --help`: that command alone: what it does, its options as it reads them, its exit codes. */
export function commandUsage(command: Command): string {
  const spec: CommandSpec = COMMANDS[command];
  const about = spec.help ?? spec.summary.map((line, i) => (i === 0 ? line.charAt(0).toUpperCase() + line.slice(1) : line));
  const options = usageLines(command);
  return [
    `usage: market-profiles ${spec.synopsis} [options]`,
    '',
    ...about,
    '',
    ...(options.length > 0 ? ['options (flags win over environment variables):', ...options, ''] : []),
    // The example is a switch of this command, never one it does not take.
    ...(anySwitch(spec.options) ? [switchForms(false, `--${spec.options.find((name) => OPTIONS[name].kind.switch) ?? ''}`), ''] : []),
    `exit codes: ${spec.exitCodes}`,
    '',
  ].join('\n');
}

/** The README's options table and, below it, the forms a switch takes (a test keeps the README equal to it); the Commands column lists who reads each option. */
export function optionsTable(): string {
  const rows = NAMES.map((name) => {
    const { env, envOnly, help } = spec(name);
    const readers = COMMAND_NAMES.filter((command) => takes(command, name));
    // The commands that read the option in words of their own, grouped by those words, after the table's own.
    const own = new Map<string, Command[]>();
    for (const command of readers) {
      const words = (COMMANDS[command] as CommandSpec).optionHelp?.[name];
      if (words !== undefined) own.set(words, [...(own.get(words) ?? []), command]);
    }
    const meaning = [
      help,
      ...[...own].map(([words, commands]) => `For ${listWords(commands.map((c) => `\`${c}\``))}: ${words.charAt(0).toLowerCase()}${words.slice(1)}`),
    ].join(' ');
    return `| ${env === undefined ? '' : `\`${env}\``} | ${envOnly ? '' : `\`--${name}\``} | ${typeText(name)} | ${shownDefault(name)} | ${readers.map((c) => `\`${c}\``).join(', ')} | ${meaning} |`;
  });
  const credentialReaders = COMMAND_NAMES.filter(readsCredentials).map((command) => `\`${command}\``);
  for (const c of CREDENTIALS) rows.push(`| \`${c.env}\` |  | ${CREDENTIAL_KIND.type} | ${CREDENTIAL_ABSENT} | ${credentialReaders.join(', ')} | ${c.help} |`);
  return [['| Environment | Flag | Type | Default | Commands | Meaning |', '|---|---|---|---|---|---|', ...rows].join('\n'), switchForms(true)].join('\n\n');
}
