// The order of a request's checks, shared by the embedded server and the edge Worker: target form, path rules, route, method.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeRequest } from '../../src/protocol/verdict.ts';

const ROUTES = new Map([
  ['/api/markets', 'index'],
  ['/api/markets/us-tx-austin', 'austin'],
]);
/** Counts lookups, so a test can tell the exact path was tried first. */
function judge(method: string, target: string): { verdict: ReturnType<typeof judgeRequest<string>>; lookups: string[] } {
  const lookups: string[] = [];
  const verdict = judgeRequest(method, target, (path) => {
    lookups.push(path);
    return ROUTES.get(path);
  });
  return { verdict, lookups };
}
const ORIGIN_FORM = { kind: 'bad_request', reason: 'The request target must be a path beginning with "/" (origin form).' };

describe('judgeRequest', () => {
  test('GET and HEAD of a route: one lookup of the exact path, the query ignored', () => {
    for (const method of ['GET', 'HEAD']) {
      assert.deepEqual(judge(method, '/api/markets/us-tx-austin'), { verdict: { kind: 'route', route: 'austin' }, lookups: ['/api/markets/us-tx-austin'] });
      assert.deepEqual(judge(method, '/api/markets?x=1&y'), { verdict: { kind: 'route', route: 'index' }, lookups: ['/api/markets'] });
    }
  });
  test('a route spelled with encoded unreserved characters is looked up again, decoded', () => {
    assert.deepEqual(judge('GET', '/api/%6Darkets'), { verdict: { kind: 'route', route: 'index' }, lookups: ['/api/%6Darkets', '/api/markets'] });
  });
  test('an unknown path: 404 for GET, HEAD and OPTIONS, with the decoded path; not looked up again when nothing decodes', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) assert.deepEqual(judge(method, '/api/nope').verdict, { kind: 'not_found', path: '/api/nope' });
    assert.deepEqual(judge('GET', '/api/n%6Fpe'), { verdict: { kind: 'not_found', path: '/api/nope' }, lookups: ['/api/n%6Fpe', '/api/nope'] });
    assert.deepEqual(judge('GET', '//api/markets'), { verdict: { kind: 'not_found', path: '//api/markets' }, lookups: ['//api/markets'] });
  });
  test('OPTIONS on a route, and OPTIONS *, are the CORS preflight', () => {
    assert.deepEqual(judge('OPTIONS', '/api/markets').verdict, { kind: 'preflight' });
    assert.deepEqual(judge('OPTIONS', '*').verdict, { kind: 'preflight' });
  });
  test('a target that is not origin form is a bad request whatever the method, and * is one except for OPTIONS', () => {
    for (const [method, target] of [
      ['GET', '*'],
      ['GET', 'http://example.org/api/markets'],
      ['POST', 'example.org:443'],
      ['OPTIONS', 'http://example.org/'],
      ['GET', ''],
    ])
      assert.deepEqual(judge(method ?? '', target ?? '').verdict, ORIGIN_FORM, `${method} ${target}`);
  });
  test('a bad path is 400 before the method is looked at: POST with a dot segment is a bad request, not 405', () => {
    assert.deepEqual(judge('POST', '/api/../markets').verdict, { kind: 'bad_request', reason: 'The request target contains a dot segment.' });
    assert.deepEqual(judge('DELETE', '/a%zz').verdict.kind, 'bad_request');
  });
  test('any other method is 405, on a route or not, with the path it named', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'get']) {
      assert.deepEqual(judge(method, '/api/markets').verdict, { kind: 'method_not_allowed', path: '/api/markets' }, method);
      assert.deepEqual(judge(method, '/nope').verdict, { kind: 'method_not_allowed', path: '/nope' }, method);
    }
  });
});

describe('judgeRequest with an engine’s own copy of the path rules', () => {
  test('the path rules it is given decide every target that is not a route as sent, and only those', () => {
    const asked: string[] = [];
    const classify = (raw: string): { kind: 'not_found'; path: string } => {
      asked.push(raw);
      return { kind: 'not_found', path: `decided:${raw}` };
    };
    const lookup = (path: string): string | undefined => ROUTES.get(path);
    assert.deepEqual(judgeRequest('GET', '/api/markets/us-tx-austin', lookup, classify), { kind: 'route', route: 'austin' });
    assert.deepEqual(judgeRequest('GET', '/api/n%6Fpe?q', lookup, classify), { kind: 'not_found', path: 'decided:/api/n%6Fpe' });
    assert.deepEqual(asked, ['/api/n%6Fpe']);
  });
});
