// Runs a command with its text output captured: strings written to stdout and stderr are kept, while the test runner's own reports (binary chunks on stdout) still reach it.
type Write = typeof process.stdout.write;

export async function captureOutput<T>(run: () => Promise<T>): Promise<{ value: T; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const [writeOut, writeErr] = [process.stdout.write.bind(process.stdout), process.stderr.write.bind(process.stderr)];
  const keep = (into: string[], pass: Write): Write =>
    ((chunk: string | Uint8Array, ...rest: never[]) => (typeof chunk === 'string' ? into.push(chunk) > 0 : pass(chunk, ...rest))) as Write;
  process.stdout.write = keep(out, writeOut);
  process.stderr.write = keep(err, writeErr);
  try {
    const value = await run();
    return { value, out: out.join(''), err: err.join('') };
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
  }
}
