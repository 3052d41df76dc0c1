// npm test's first step finds what the tests run, and says in one line what to install when it cannot install it itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installAdvice, missingNeeds, NEEDS } from '../../scripts/test-needs.ts';

test('on this machine, which runs the tests, nothing the tests need is missing', () => {
  assert.deepEqual(
    missingNeeds().map((n) => n.what),
    [],
  );
});

test('a missing program is found missing, and the advice is one line naming it and its Debian package', () => {
  const saved = process.env['CHROMIUM_PATH'];
  process.env['CHROMIUM_PATH'] = '/nonexistent/chromium';
  try {
    const missing = missingNeeds();
    assert.deepEqual(
      missing.map((n) => n.what),
      ['Chromium'],
    );
    const line = installAdvice(missing);
    assert.doesNotMatch(line, /\n/);
    assert.match(line, /^npm test needs Chromium: on Debian or Ubuntu run `apt-get install chromium` as root/);
    assert.match(line, /elsewhere install Chromium/);
  } finally {
    if (saved === undefined) delete process.env['CHROMIUM_PATH'];
    else process.env['CHROMIUM_PATH'] = saved;
  }
});

test('every need names the Debian package .ci/run used to install, and the advice lists each package once', () => {
  assert.deepEqual(
    NEEDS.map((n) => n.debian),
    ['nginx-light', 'libnginx-mod-http-brotli-static', 'chromium', 'python3', 'unzip'],
  );
  assert.match(installAdvice(NEEDS), /`apt-get install nginx-light libnginx-mod-http-brotli-static chromium python3 unzip`/);
});
