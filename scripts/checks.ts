// `npm run checks`: the type check, ESLint and Prettier's check (npm run typecheck, lint, format:check) at once, each output printed whole as it ends; fails when any fails.
//
// Each of the three uses one core, so on a machine with two or more they take together about as long as the
// slowest alone. They touch different files: tsc -b writes only lib/ and its build info, which the other two ignore.
import { spawn } from 'node:child_process';

const CHECKS = ['typecheck', 'lint', 'format:check'] as const;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Outcome {
  script: string;
  code: number;
  output: string;
}

/** Runs one npm script with its output kept (stdout and stderr in the order they came), and its exit code. */
const run = (script: string): Promise<Outcome> =>
  new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (error) => resolve({ script, code: 1, output: `${output}${error.message}\n` }));
    child.once('close', (code, signal) => resolve({ script, code: code ?? (signal === null ? 1 : 128), output }));
  });

let failed = 0;
await Promise.all(
  CHECKS.map(async (script) => {
    const { code, output } = await run(script);
    if (code !== 0) failed += 1;
    process.stdout.write(`${code === 0 ? 'ok' : `FAILED (exit code ${code})`}: npm run ${script}\n${output}`);
  }),
);
if (failed > 0) {
  process.stderr.write(`checks: ${failed} of ${CHECKS.length} failed\n`);
  process.exitCode = 1;
}
