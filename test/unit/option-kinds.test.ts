// The kinds of option value: whole numbers within bounds, text, on/off words, base URLs and mirrors; each reads a good value and refuses a bad one in one message naming the option.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { baseUrlKind, integerKind, mirrorUrlKind, normalizeBaseUrl, onOffKind, switchForms, textKind } from '../../src/commands/option-kinds.ts';
import { assertConfigError } from '../support/refused.ts';

describe('a whole number from min to max, both included', () => {
  const port = integerKind(0, 65535);

  test('both bounds are read, and one past either is refused', () => {
    assert.equal(port.parse('0', 'PORT'), 0);
    assert.equal(port.parse('65535', 'PORT'), 65535);
    assertConfigError(() => port.parse('65536', 'PORT'), 'PORT must be an integer from 0 to 65535, got "65536"');
    const concurrency = integerKind(1, 256);
    assert.equal(concurrency.parse('1', '--concurrency'), 1);
    assertConfigError(() => concurrency.parse('0', '--concurrency'), '--concurrency must be an integer from 1 to 256, got "0"');
  });

  test('only digits: text before or after them, a sign, a point, an exponent or a space is refused, though Number() reads some', () => {
    for (const raw of ['x8080', '8080x', '', ' 8080', '8080 ', '+80', '-1', '80.0', '1e3', '0x50']) {
      assertConfigError(() => port.parse(raw, 'PORT'), `PORT must be an integer from 0 to 65535, got "${raw}"`);
    }
  });

  test('its type, as the README and the usage text say it, names the bounds; it takes a value', () => {
    assert.equal(port.type, 'integer 0–65535');
    assert.equal(port.switch, false);
  });
});

test('text: anything but the empty string, as given', () => {
  const path = textKind('path');
  assert.equal(path.parse(' a dir/with spaces ', 'FIXTURES_DIR'), ' a dir/with spaces ');
  assertConfigError(() => path.parse('', 'FIXTURES_DIR'), 'FIXTURES_DIR must not be empty');
  assert.equal(path.type, 'path');
  assert.equal(path.switch, false);
});

describe('on or off: a bare flag, or a flag or environment variable in words', () => {
  test('1, true, yes and on are on; 0, false, no, off and the empty string are off; in any case', () => {
    for (const raw of ['1', 'true', 'yes', 'on', 'TRUE', 'Yes', 'ON']) assert.equal(onOffKind.parse(raw, 'LOG'), true, raw);
    for (const raw of ['0', 'false', 'no', 'off', '', 'FALSE', 'No', 'OFF']) assert.equal(onOffKind.parse(raw, 'LOG'), false, raw);
  });

  test('any other word is refused, naming the option as given and the words it takes', () => {
    for (const raw of ['maybe', '2', 'y', 'enabled', ' on']) {
      assertConfigError(() => onOffKind.parse(raw, 'LOG'), `LOG must be true/false, 1/0, yes/no or on/off, got "${raw}"`);
      assertConfigError(() => onOffKind.parse(raw, '--log'), `--log must be true/false, 1/0, yes/no or on/off, got "${raw}"`);
    }
  });

  test('it is the one kind that is a switch; its type is one word, the forms are said once, in words for the README and the usage text', () => {
    assert.equal(onOffKind.switch, true);
    for (const kind of [integerKind(0, 1), textKind('path'), baseUrlKind, mirrorUrlKind]) assert.equal(kind.switch, false, kind.type);
    assert.equal(onOffKind.type, 'boolean');
    assert.equal(
      switchForms(true),
      'A boolean option is on as a bare flag (`--log`), or set by a word after `=` (`--log=false`); that word, and its environment variable, is one of `true`/`false`, `1`/`0`, `yes`/`no` or `on`/`off`, in any case (an empty variable is off).',
    );
    assert.equal(
      switchForms(false),
      'A boolean option is on as a bare flag (--log), or set by a word after = (--log=false); that word, and its environment variable, is one of true/false, 1/0, yes/no or on/off, in any case (an empty variable is off).',
    );
  });
});

describe("the service's base URL", () => {
  test('an origin with any path, without the trailing slashes; the scheme and host lower-cased, a default port dropped', () => {
    assert.equal(normalizeBaseUrl('http://localhost:3000/'), 'http://localhost:3000');
    assert.equal(normalizeBaseUrl('HTTPS://Data.Example.org:443/api/v1//'), 'https://data.example.org/api/v1');
    assert.equal(baseUrlKind.parse('https://data.example.org/', 'BASE_URL'), 'https://data.example.org');
  });

  test('as an option, its refusal names the option as it was given: the flag or the environment variable', () => {
    assertConfigError(() => baseUrlKind.parse('ftp://x.example', '--base-url'), '--base-url must use http or https, got "ftp://x.example"');
    assertConfigError(() => baseUrlKind.parse('ftp://x.example', 'BASE_URL'), 'BASE_URL must use http or https, got "ftp://x.example"');
  });

  test('what is no absolute URL, another scheme, a query, a fragment or credentials is refused, each with its reason', () => {
    assertConfigError(() => normalizeBaseUrl('not a url'), 'BASE_URL must be an absolute http(s) URL, got "not a url"');
    assertConfigError(() => normalizeBaseUrl('/relative'), 'BASE_URL must be an absolute http(s) URL, got "/relative"');
    assertConfigError(() => normalizeBaseUrl('ftp://x.example'), 'BASE_URL must use http or https, got "ftp://x.example"');
    // "localhost:3000" parses, as a URL whose scheme is "localhost:".
    assertConfigError(() => normalizeBaseUrl('localhost:3000'), 'BASE_URL must use http or https, got "localhost:3000"');
    for (const raw of ['https://x.example/?a=1', 'https://x.example/#top', 'https://user@x.example/', 'https://:secret@x.example/']) {
      assertConfigError(() => normalizeBaseUrl(raw), `BASE_URL must not carry a query, fragment or credentials, got "${raw}"`);
    }
  });

  test('a mirror is read the same way, and refused in one message naming its own option', () => {
    assert.equal(mirrorUrlKind.parse('https://mirror.example/data/', 'FETCH_UPSTREAM'), 'https://mirror.example/data');
    for (const raw of ['not a url', 'ftp://mirror.example', 'https://mirror.example/?a=1']) {
      assertConfigError(() => mirrorUrlKind.parse(raw, 'FETCH_UPSTREAM'), `FETCH_UPSTREAM must be an absolute http(s) URL, got "${raw}"`);
    }
  });
});
