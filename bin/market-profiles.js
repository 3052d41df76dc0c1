#!/usr/bin/env node
// Entry point of the package's command: loads the TypeScript sources through tsx, then runs the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
const code = await main(process.argv.slice(2), process.env);
if (code !== 0) process.exitCode = code;
