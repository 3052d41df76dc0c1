// `market-profiles list` and `market-profiles get <market-id> [--series] [--csv]`: the typed client on the command line; the data on stdout (JSON, or CSV), everything else on stderr.
import { MarketProfilesError, ProblemError, createClient, type MarketProfilesClient } from 'market-profiles-client';
import type { ReadConfig } from './config.ts';
import { renderJson } from '../contract/json.ts';

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

const STDIO: Output = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/** Runs a read; a failure of the service is one message on stderr and exit code 1. */
async function reading(command: string, io: Output, body: () => Promise<void>): Promise<number> {
  try {
    await body();
    return 0;
  } catch (error) {
    if (error instanceof ProblemError) {
      const known = Array.isArray(error.problem.knownMarketIds) ? ` Known market ids: ${error.problem.knownMarketIds.join(', ')}.` : '';
      io.err(`market-profiles: ${command}: ${error.code} (${error.status}): ${error.problem.detail}${known}\n`);
      return 1;
    }
    if (error instanceof MarketProfilesError) {
      io.err(`market-profiles: ${command}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

export async function listCommand(args: readonly string[], config: ReadConfig, io: Output = STDIO, client?: MarketProfilesClient): Promise<number> {
  if (args.length > 0) {
    io.err(`market-profiles: list: takes no argument, got "${args[0] ?? ''}" (market-profiles list --help says more)\n`);
    return 2;
  }
  const reader = client ?? createClient({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs });
  return reading('list', io, async () => {
    const { data } = await reader.listMarkets();
    io.out(renderJson(data));
  });
}

export async function getCommand(args: readonly string[], config: ReadConfig, io: Output = STDIO, client?: MarketProfilesClient): Promise<number> {
  const [id, extra] = args;
  if (id === undefined || id === '' || extra !== undefined) {
    const got = extra === undefined ? '' : `, got also "${extra}"`;
    io.err(`market-profiles: get: needs exactly one market id${got}, e.g. market-profiles get us-tx-austin (market-profiles get --help says more)\n`);
    return 2;
  }
  const reader = client ?? createClient({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs });
  // A CSV goes out exactly as served, its caveats on stderr; JSON goes out as the one serialiser writes it.
  const csv = ({ text, caveats }: { text: string; caveats: readonly string[] }): void => {
    io.out(text);
    for (const caveat of caveats) io.err(`market-profiles: caveat: ${caveat}\n`);
  };
  return reading('get', io, async () => {
    if (config.series && config.csv) csv(await reader.getSeriesCsv(id));
    else if (config.series) io.out(renderJson((await reader.getSeries(id)).data));
    else if (config.csv) csv(await reader.getMarketCsv(id));
    else io.out(renderJson((await reader.getProfile(id)).data));
  });
}
