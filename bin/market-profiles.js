#!/usr/bin/env node
// Entry point of the package's command: runs the compiled CLI (lib/, written by `npm ci` through the prepare script).
import { existsSync } from 'node:fs';

const cli = new URL('../lib/commands/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('market-profiles: lib/ is missing; run `npm run compile` (npm ci runs it for you)\n');
  process.exit(1);
}
const { main } = await import(cli.href);
const code = await main(process.argv.slice(2), process.env);
if (code !== 0) process.exitCode = code;
