// npm test's report on the terminal (plain JavaScript: node loads a reporter before any loader hook, so tsx cannot compile it): a dot per hundred tests, every failure in full as it happens, and the counts at the end; the whole TAP stream goes to a file in artifacts/ beside it (package.json names it).
import { inspect } from 'node:util';

/**
 * What a failure says: its name, where it is, and the error as node prints it.
 * @param {{ name: string, file?: string, line?: number, details: { error?: { cause?: unknown } } }} data
 * @returns {string}
 */
function failure(data) {
  const where = data.file === undefined ? '' : ` (${data.file.replace(`${process.cwd()}/`, '')}${data.line === undefined ? '' : `:${data.line}`})`;
  const error = data.details.error;
  // node wraps a test's own error in an ERR_TEST_FAILURE whose cause is the one the test threw.
  const shown = error?.cause ?? error;
  const text = inspect(shown, { depth: 4 });
  return `\n✖ ${data.name}${where}\n${text.replace(/^/gm, '    ')}\n`;
}

/**
 * @param {AsyncIterable<{ type: string, data: any }>} source
 * @returns {AsyncGenerator<string>}
 */
export default async function* compact(source) {
  const counts = { pass: 0, fail: 0, skip: 0, todo: 0 };
  let ran = 0;
  const started = Date.now();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    // A suite (or a file) is reported like a test once its tests are; only the tests themselves are counted.
    if (event.data.details?.type === 'suite') {
      if (event.type === 'test:fail' && event.data.details.error?.failureType !== 'subtestsFailed') {
        counts.fail++;
        yield failure(event.data);
      }
      continue;
    }
    if (event.data.skip !== undefined && event.data.skip !== false) counts.skip++;
    else if (event.data.todo !== undefined && event.data.todo !== false) counts.todo++;
    else if (event.type === 'test:pass') counts.pass++;
    else {
      counts.fail++;
      yield failure(event.data);
    }
    if (++ran % 100 === 0) yield '.';
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  yield `\n\ntests ${counts.pass + counts.fail + counts.skip + counts.todo}: pass ${counts.pass}, fail ${counts.fail}, skipped ${counts.skip}, todo ${counts.todo} (${seconds} s; the TAP stream is in artifacts/)\n`;
}
