// The one assertion every adapter and parse test makes of a refused input: a FixtureError with this code and this message.
import assert from 'node:assert/strict';
import { FixtureError } from '../../src/contract/errors.ts';

/** Asserts that `fn` throws a FixtureError with this code, and this whole message (a string) or one that matches (a pattern). */
export function assertFixtureError(fn: () => unknown, code: string, message: string | RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof FixtureError, String(error));
    assert.equal(error.code, code);
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}
