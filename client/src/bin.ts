#!/usr/bin/env node
// The client's bin, market-profiles-client: `list` and `get` against any deployment (see cli.ts).
import { main } from './cli.ts';

// The client compiles without node's type declarations (it runs in browsers too); this is what the bin uses of node.
declare const process: {
  argv: string[];
  env: Record<string, string | undefined>;
  exitCode?: number;
  stdout: { write(text: string): boolean };
  stderr: { write(text: string): boolean };
};

process.exitCode = await main(process.argv.slice(2), process.env, {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
});
