// Configuration: defaults, environment, flags winning over environment, and clear errors for bad values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULTS, loadConfig } from '../src/config.ts';
import { ConfigError } from '../src/errors.ts';

test('defaults: 127.0.0.1:3000, links on http://localhost:3000, no log', () => {
  const c = loadConfig({});
  assert.deepEqual(c, { baseUrl: 'http://localhost:3000', baseUrlFollowsPort: true, host: '127.0.0.1', port: 3000, log: false, fixturesDir: DEFAULTS.fixturesDir, outDir: DEFAULTS.outDir });
});

test('environment variables set every option; the base URL follows PORT unless given', () => {
  const c = loadConfig({ PORT: '8080', HOST: '0.0.0.0', LOG: '1' });
  assert.equal(c.baseUrl, 'http://localhost:8080');
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.log, true);
  assert.equal(loadConfig({ BASE_URL: 'https://data.example.org/' }).baseUrl, 'https://data.example.org');
  assert.equal(loadConfig({ BASE_URL: 'https://data.example.org/' }).baseUrlFollowsPort, false);
});

test('flags win over environment variables', () => {
  const c = loadConfig({ PORT: '8080', BASE_URL: 'https://a.example' }, ['serve', '--port', '9000', '--base-url=https://b.example', '--log']);
  assert.equal(c.port, 9000);
  assert.equal(c.baseUrl, 'https://b.example');
  assert.equal(c.log, true);
});

test('bad values are refused with a message naming the option', () => {
  assert.throws(() => loadConfig({ PORT: 'eighty' }), (e: unknown) => e instanceof ConfigError && /PORT/.test(e.message));
  assert.throws(() => loadConfig({ PORT: '70000' }), ConfigError);
  assert.throws(() => loadConfig({ BASE_URL: 'localhost:3000' }), /BASE_URL/);
  assert.throws(() => loadConfig({ BASE_URL: 'ftp://x.example' }), /BASE_URL/);
  assert.throws(() => loadConfig({ BASE_URL: 'https://x.example/?a=1' }), /BASE_URL/);
  assert.throws(() => loadConfig({ LOG: 'maybe' }), /LOG/);
});
