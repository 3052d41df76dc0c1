// The assertions tests make of a refused input: the error's class and its whole message (or a pattern), and a FixtureError's code.
import assert from 'node:assert/strict';
import { ConfigError, FixtureError } from '../../src/contract/errors.ts';

/** The whole message (a string) or one that matches (a pattern). */
function assertMessage(error: Error, message: string | RegExp): void {
  if (typeof message === 'string') assert.equal(error.message, message);
  else assert.match(error.message, message);
}

/** Asserts that `fn` throws a FixtureError with this code, and this whole message (a string) or one that matches (a pattern). */
export function assertFixtureError(fn: () => unknown, code: string, message: string | RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof FixtureError, String(error));
    assert.equal(error.code, code);
    assertMessage(error, message);
    return true;
  });
}

/** Asserts that `fn` throws a ConfigError (a bad option: the CLI prints it and exits 2) with this whole message (a string) or one that matches (a pattern). */
export function assertConfigError(fn: () => unknown, message: string | RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof ConfigError, String(error));
    assertMessage(error, message);
    return true;
  });
}
