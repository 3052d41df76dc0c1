// `market-profiles list` and `market-profiles get <market-id> [--series] [--csv]`: the client's reading commands (market-profiles-client/cli), run with the service's options; the data on stdout, everything else on stderr.
import type { MarketProfilesClient } from 'market-profiles-client';
import { getCommand as clientGet, listCommand as clientList, type Output } from 'market-profiles-client/cli';
import type { ReadConfig } from './config.ts';

export type { Output };

const STDIO: Output = { out: (text) => void process.stdout.write(text), err: (text) => void process.stderr.write(text) };
const PROGRAM = 'market-profiles';

export const listCommand = (args: readonly string[], config: ReadConfig, io: Output = STDIO, client?: MarketProfilesClient): Promise<number> =>
  clientList(args, config, { program: PROGRAM, io, ...(client === undefined ? {} : { client }) });

export const getCommand = (args: readonly string[], config: ReadConfig, io: Output = STDIO, client?: MarketProfilesClient): Promise<number> =>
  clientGet(args, config, { program: PROGRAM, io, ...(client === undefined ? {} : { client }) });
