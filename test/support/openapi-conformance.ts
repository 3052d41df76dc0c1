// Holds a running deployment to its own OpenAPI document: every path and every response it lists is what the deployment answers (status, content type, headers, body schema).
import assert from 'node:assert/strict';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { EXAMPLE_UNKNOWN_DATE, SAMPLE_MARKET } from '../../src/describe/openapi.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});

/** A component schema, with `#/components/...` references resolved (the document only references components). */
function resolve(doc: Json, value: unknown): Json {
  const ref = obj(value).$ref;
  if (typeof ref !== 'string') return obj(value);
  const [, section = '', name = ''] = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref) ?? [];
  return obj(obj(obj(doc.components)[section])[name]);
}

/** Compiled validators by schema object: a schema of the document is compiled once, not once per path it answers. */
const compiled = new WeakMap<Json, ValidateFunction>();

function validator(schema: Json): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Checks one answer's headers against the header objects of a response (each resolved where it references a component). */
function checkHeaders(doc: Json, res: Response, headers: Json, where: string): void {
  for (const [name, value] of Object.entries(headers)) {
    const header = resolve(doc, value);
    const schema = obj(header.schema);
    const got = res.headers.get(name);
    if (got === null) {
      assert.ok(header.required !== true, `${where}: no ${name} header, which the document says is always sent`);
      continue;
    }
    if (schema.const !== undefined) assert.equal(got, schema.const, `${where}: ${name}`);
    if (Array.isArray(schema.enum)) assert.ok(schema.enum.includes(got), `${where}: ${name} ${got} is not one of ${JSON.stringify(schema.enum)}`);
    if (typeof schema.pattern === 'string') assert.match(got, new RegExp(schema.pattern, 'u'), `${where}: ${name}`);
  }
}

export interface ConformanceReport {
  /** Each request sent, as `<status> GET <path>`. */
  checked: string[];
}

/**
 * For every path of the document (each market id of the enumeration for a template) and every response it lists:
 * 200 (identity and br), 304 with the ETag, 404 for an unknown market id, and the default problem for a malformed
 * path; status, Content-Type, each header and the body against the response's schema.
 */
export async function checkConformance(origin: string, doc: Json, unknownMarket: string): Promise<ConformanceReport> {
  const checked: string[] = [];
  const ids = obj(obj(obj(obj(doc.components).parameters).marketId).schema).enum as string[];
  assert.ok(Array.isArray(ids) && ids.length > 0, 'the marketId parameter has an enumeration');
  const dates = (obj(obj(obj(obj(doc.components).parameters).snapshotDate).schema).enum as string[] | undefined) ?? [];
  for (const [rawTemplate, item] of Object.entries(obj(doc.paths))) {
    // A vintage path is checked at every snapshot date the document enumerates.
    for (const template of rawTemplate.includes('{snapshotDate}') ? dates.map((d) => rawTemplate.replace('{snapshotDate}', d)) : [rawTemplate]) {
      const responses = obj(obj(obj(item).get).responses);
      const concrete = template.includes('{marketId}') ? ids.map((id) => template.replace('{marketId}', id)) : [template];
      for (const path of concrete) {
        const ok = resolve(doc, responses['200']);
        const [type = '', media] = Object.entries(obj(ok.content))[0] ?? [];
        const res = await fetch(origin + path, { headers: { 'Accept-Encoding': 'identity' } });
        const body = Buffer.from(await res.arrayBuffer());
        checked.push(`${res.status} GET ${path}`);
        assert.equal(res.status, 200, `GET ${path}`);
        assert.equal(res.headers.get('content-type'), type, `GET ${path}: Content-Type`);
        checkHeaders(doc, res, obj(ok.headers), `GET ${path}`);
        assert.equal(res.headers.get('content-encoding'), null, `GET ${path}: identity asked for`);
        const schema = resolve(doc, obj(media).schema);
        // A binary body (the zip) is checked by its type and headers; the schema only names its media type.
        if (!type.startsWith('application/zip')) {
          const document = type.startsWith('text/csv') ? body.toString('utf8') : (JSON.parse(body.toString('utf8')) as unknown);
          const validate = validator(schema);
          assert.ok(validate(document), `GET ${path}: the body fails its schema in the document: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
        }

        const br = await fetch(origin + path, { headers: { 'Accept-Encoding': 'br' } });
        await br.arrayBuffer();
        checkHeaders(doc, br, obj(ok.headers), `GET ${path} (br)`);

        const etag = res.headers.get('etag') ?? '';
        const again = await fetch(origin + path, { headers: { 'Accept-Encoding': 'identity', 'If-None-Match': etag } });
        await again.arrayBuffer();
        checked.push(`${again.status} GET ${path} If-None-Match`);
        assert.ok(responses['304'] !== undefined, `${template} lists no 304`);
        assert.equal(again.status, 304, `GET ${path} with If-None-Match ${etag}`);
        checkHeaders(doc, again, obj(resolve(doc, responses['304']).headers), `GET ${path} 304`);
      }
      const problems: [string, string, string][] = [];
      // A vintage path's 404 is an unknown date (not_found); any other's an unknown market.
      if (responses['404'] !== undefined)
        problems.push(
          rawTemplate.includes('{snapshotDate}')
            ? ['404', rawTemplate.replace('{snapshotDate}', EXAMPLE_UNKNOWN_DATE).replace('{marketId}', SAMPLE_MARKET), 'not_found']
            : ['404', template.replace('{marketId}', unknownMarket), 'market_not_found'],
        );
      if (template.includes('{marketId}')) problems.push(['4XX', template.replace('{marketId}', '%zz'), 'bad_request']);
      for (const [status, path, code] of problems) {
        const listed = resolve(doc, responses[status]);
        const [type = '', media] = Object.entries(obj(listed.content))[0] ?? [];
        const res = await fetch(origin + path);
        const text = await res.text();
        checked.push(`${res.status} GET ${path}`);
        if (status === '4XX') assert.equal(Math.floor(res.status / 100), 4, `GET ${path}: a 4XX status`);
        else assert.equal(String(res.status), status, `GET ${path}`);
        assert.equal(res.headers.get('content-type'), type, `GET ${path}: Content-Type`);
        checkHeaders(doc, res, obj(listed.headers), `GET ${path}`);
        const problem = JSON.parse(text) as Json;
        const validate = validator(resolve(doc, obj(media).schema));
        assert.ok(validate(problem), `GET ${path}: the problem fails the Problem schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
        assert.equal(problem.code, code, `GET ${path}: code`);
        assert.equal(problem.status, res.status, `GET ${path}: status in the body`);
      }
    }
  }
  return { checked };
}
