#!/usr/bin/env node
// The client's bin, market-profiles-client: `list`, `get`, `vintages` and `download` against any deployment (see cli.ts).
import { main } from './cli.ts';

// The client compiles without node's type declarations (it runs in browsers too); this is what the bin uses of node.
declare const process: {
  argv: string[];
  env: Record<string, string | undefined>;
  exitCode?: number;
  stdout: { write(text: string): boolean };
  stderr: { write(text: string): boolean };
};
interface NodeFs {
  writeFileSync(path: string, data: Uint8Array, options: { flag: 'w' | 'wx' }): void;
}
// A specifier the compiler does not resolve: node:fs is loaded only here, where the bin runs on node.
const FS: string = 'node:fs';
const fs = (await import(FS)) as NodeFs;

process.exitCode = await main(process.argv.slice(2), process.env, {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  writeFile: (path, bytes, replace) => void fs.writeFileSync(path, bytes, { flag: replace ? 'w' : 'wx' }),
});
