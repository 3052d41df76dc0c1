// `market-profiles list` and `market-profiles get <market-id> [--series] [--csv]`: the typed client on the command line; the data on stdout (JSON, or CSV), everything else on stderr.
import { MarketProfilesError, ProblemError, createClient, type MarketProfilesClient } from '../client/client.ts';
import type { ReadConfig } from './config.ts';
import { usageLines } from './help.ts';
import { renderJson } from '../contract/json.ts';

const EXIT_CODES = `exit codes: 0 the data was printed; 1 the service answered an error (its problem code is printed, e.g. market_not_found),
could not be reached, or answered a schemaVersion other than "1"; 2 a usage error (unknown option, missing market id)`;

export const LIST_USAGE = `usage: market-profiles list [--base-url URL]

Prints the index of every market (/api/markets) as JSON on stdout: ids, names, scores, coverage, freshness,
links, and the caveats. For example: market-profiles list | jq -r '.markets[].id'

options:
${usageLines('list').join('\n')}

${EXIT_CODES}
`;

export const GET_USAGE = `usage: market-profiles get <market-id> [--series] [--csv] [--base-url URL]

Prints one market's profile (/api/markets/<market-id>) as JSON on stdout, caveats included; with --csv, its CSV
(/api/markets/<market-id>/csv) exactly as served, and the caveats of the CSV on stderr. With --series, its series
(/api/markets/<market-id>/series: every observation per metric), and with --series --csv the long-format series CSV.
For example: market-profiles get us-tx-austin --csv > austin.csv; market-profiles get us-tx-austin --series --csv > austin-series.csv

options:
${usageLines('get').join('\n')}

${EXIT_CODES}
`;

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
    io.err(`market-profiles: list takes no argument, got "${args[0] ?? ''}"\n\n${LIST_USAGE}`);
    return 2;
  }
  const reader = client ?? createClient({ baseUrl: config.baseUrl });
  return reading('list', io, async () => {
    const { data } = await reader.listMarkets();
    io.out(renderJson(data));
  });
}

export async function getCommand(args: readonly string[], config: ReadConfig, io: Output = STDIO, client?: MarketProfilesClient): Promise<number> {
  const [id, extra] = args;
  if (id === undefined || id === '' || extra !== undefined) {
    io.err(`market-profiles: get needs exactly one market id${extra === undefined ? '' : `, got also "${extra}"`}\n\n${GET_USAGE}`);
    return 2;
  }
  const reader = client ?? createClient({ baseUrl: config.baseUrl });
  return reading('get', io, async () => {
    if (config.series) {
      if (config.csv) {
        const { text, caveats } = await reader.getSeriesCsv(id);
        io.out(text);
        for (const caveat of caveats) io.err(`market-profiles: caveat: ${caveat}\n`);
        return;
      }
      const { data } = await reader.getSeries(id);
      io.out(renderJson(data));
      return;
    }
    if (config.csv) {
      const { text, caveats } = await reader.getMarketCsv(id);
      io.out(text);
      for (const caveat of caveats) io.err(`market-profiles: caveat: ${caveat}\n`);
      return;
    }
    const { data } = await reader.getProfile(id);
    io.out(renderJson(data));
  });
}
