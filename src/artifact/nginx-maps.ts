// The request rules of the embedded server (Accept-Encoding q-values, If-None-Match, path checks) as nginx maps, since nginx has no code to run.
import { BAD_TARGET_RULES, MAX_PATH_LENGTH, type BadTargetRule } from '../protocol/request-target.ts';
import { mapBlock, quote, quoteWithVariables, regexKey } from './nginx-syntax.ts';

const CODINGS = { br: 'br', gzip: '(?:x-)?gzip', identity: 'identity', star: '\\*' } as const;
type Coding = keyof typeof CODINGS;

/**
 * q-values become four digits ("1000", "0500", "0000") so they can be compared as strings. Per coding:
 * find its list element, take the last q parameter, normalize it; an invalid q is 0, as in the embedded server.
 */
function qMaps(coding: Coding): string {
  const name = CODINGS[coding];
  const element = mapBlock(
    '$http_accept_encoding',
    `mp_ae_${coding}`,
    [
      [regexKey(`(?:^|,)[ \\t]*${name}[ \\t]*(?<mp_aep_${coding}>;[^,]*)?(?:,|$)`, true), quoteWithVariables(`+$mp_aep_${coding}`)],
      ['default', '""'],
    ],
    `Accept-Encoding: the parameters of the "${coding}" element, "+" when present`,
  );
  const lastQ = mapBlock(`$mp_ae_${coding}`, `mp_aq_${coding}`, [
    ['""', '""'],
    [regexKey(`^\\+.*;[ \\t]*[qQ][ \\t]*(?:=(?<mp_aqv_${coding}>[^;=]*))?(?:[;=].*)?$`), quoteWithVariables(`=$mp_aqv_${coding}`)],
    ['default', '1000'],
  ]);
  const normal = mapBlock(`$mp_aq_${coding}`, `mp_q_${coding}`, [
    ['""', '""'],
    ['1000', '1000'],
    [regexKey('^=[ \\t]*1(?:\\.0{0,3})?[ \\t]*$'), '1000'],
    [regexKey('^=[ \\t]*0\\.?[ \\t]*$'), '0000'],
    [regexKey(`^=[ \\t]*0\\.(?<mp_q1_${coding}>\\d)[ \\t]*$`), quoteWithVariables(`0\${mp_q1_${coding}}00`)],
    [regexKey(`^=[ \\t]*0\\.(?<mp_q2_${coding}>\\d\\d)[ \\t]*$`), quoteWithVariables(`0\${mp_q2_${coding}}0`)],
    [regexKey(`^=[ \\t]*0\\.(?<mp_q3_${coding}>\\d{3})[ \\t]*$`), quoteWithVariables(`0\${mp_q3_${coding}}`)],
    ['default', '0000'],
  ]);
  return element + lastQ + normal;
}

/** a >= b for two four-digit strings "a:b": equal, or larger at the first digit that differs. */
const GREATER_OR_EQUAL = `^(?:(\\d{4}):\\1|(\\d*)(?:${[1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => `${d}\\d*:\\2[0-${d - 1}]`).join('|')})\\d*)$`;

const effective = (coding: 'br' | 'gzip' | 'identity', fallback: string): string =>
  mapBlock(
    `"$mp_q_${coding}|$mp_q_star"`,
    `mp_qe_${coding}`,
    [
      [regexKey(`^(?<mp_qx_${coding}>\\d{4})\\|`), quoteWithVariables(`$mp_qx_${coding}`)],
      [regexKey(`^\\|(?<mp_qy_${coding}>\\d{4})$`), quoteWithVariables(`$mp_qy_${coding}`)],
      ['default', fallback],
    ],
    coding === 'br' ? 'effective q of each coding: its own, else "*", else 0 (identity: 1)' : undefined,
  );

const compare = (a: string, b: string): string =>
  mapBlock(`"$mp_qe_${a}:$mp_qe_${b}"`, `mp_${a}_ge_${b}`, [
    [regexKey(GREATER_OR_EQUAL), '1'],
    ['default', '0'],
  ]);

/**
 * The embedded server's choice: the highest q wins, ties go to the smaller encoding (br, gzip, identity), and a
 * coding is never chosen at q=0. One result per set of precompressed variants a route has.
 */
export function negotiationMaps(): string {
  const key = '"$mp_qe_br$mp_qe_gzip:$mp_br_ge_identity$mp_br_ge_gzip$mp_gzip_ge_identity"';
  return [
    ...(Object.keys(CODINGS) as Coding[]).map(qMaps),
    effective('br', '0000'),
    effective('gzip', '0000'),
    effective('identity', '1000'),
    compare('br', 'identity'),
    compare('br', 'gzip'),
    compare('gzip', 'identity'),
    mapBlock(
      key,
      'mp_enc_br_gzip',
      [
        [regexKey('^(?!0000)\\d{8}:11.$'), 'br'],
        [regexKey('^\\d{4}(?!0000)\\d{4}:..1$'), 'gzip'],
        ['default', 'identity'],
      ],
      'the representation to send, per set of variants',
    ),
    mapBlock(key, 'mp_enc_br', [
      [regexKey('^(?!0000)\\d{8}:1..$'), 'br'],
      ['default', 'identity'],
    ]),
    mapBlock(key, 'mp_enc_gzip', [
      [regexKey('^\\d{4}(?!0000)\\d{4}:..1$'), 'gzip'],
      ['default', 'identity'],
    ]),
    mapBlock(
      '$mp_enc',
      'mp_tag',
      [
        ['br', '$mp_tag_br'],
        ['gzip', '$mp_tag_gzip'],
        ['default', '$mp_tag_identity'],
      ],
      'the strong ETag of the chosen representation, from the manifest',
    ),
  ].join('\n');
}

/** If-None-Match against the chosen representation's ETag: lists, `*`, weak comparison (RFC 9110 13.1.2). */
export function conditionalMaps(): string {
  return mapBlock(
    '"$mp_tag|$http_if_none_match"',
    'mp_inm_hit',
    [
      [regexKey('^(?<mp_inm_t>"[^"]*")\\|(?:[^,]*,)*[ \\t]*(?:W/)?\\k<mp_inm_t>[ \\t]*(?:,|$)'), '1'],
      [regexKey('^[^|]*\\|(?:[^,]*,)*[ \\t]*\\*[ \\t]*(?:,|$)'), '1'],
      ['default', '""'],
    ],
    'If-None-Match hits the chosen representation',
  );
}

/** Percent-encoded UTF-8 that decodeURIComponent accepts: no overlongs, no surrogates, nothing above U+10FFFF. */
const CONT = '%[89ab][0-9a-f]';
const VALID_UTF8 = [
  '[^%]',
  '%[0-7][0-9a-f]',
  `%c[2-9a-f]${CONT}`,
  `%d[0-9a-f]${CONT}`,
  `%e0%[ab][0-9a-f]${CONT}`,
  `%e[1-9a-cef]${CONT}${CONT}`,
  `%ed%[89][0-9a-f]${CONT}`,
  `%f0%[9ab][0-9a-f]${CONT}${CONT}`,
  `%f[1-3]${CONT}${CONT}${CONT}`,
  `%f4%8[0-9a-f]${CONT}${CONT}`,
].join('|');

const RULE_PATTERNS: Record<BadTargetRule, string> = {
  control: '[\\x00-\\x1f\\x7f]',
  backslash: '\\x5c',
  encoding: '%(?![0-9a-f]{2})|%2f|%5c|%00',
  utf8: `^(?!(?:${VALID_UTF8})*$)`,
  encodedControl: '%(?:[01][0-9a-f]|7f)',
  dot: '(?:^|/)(?:\\.|%2e){1,2}(?:/|$)',
};

/**
 * The path checks, on the raw target as sent (nginx matches locations on a decoded, normalized URI, so these
 * must look at $request_uri): first the verdict of each rule in the embedded server's order, then what it means.
 */
export function targetMaps(): string {
  return [
    mapBlock(
      '$request',
      'mp_absolute',
      [
        [regexKey('^[^ ]+ +[^/ ]'), '1'],
        ['default', '0'],
      ],
      'absolute-form or asterisk-form request targets',
    ),
    mapBlock('$request_uri', 'mp_raw', [[regexKey('^(?<mp_raw_c>[^?]*)'), '$mp_raw_c']], 'the path as sent, without the query'),
    mapBlock(
      '$mp_raw',
      'mp_long',
      [
        [regexKey(`^[\\s\\S]{${MAX_PATH_LENGTH + 1}}`), '1'],
        ['default', '0'],
      ],
      `paths over ${MAX_PATH_LENGTH} bytes are never decoded: 404`,
    ),
    mapBlock(
      '$mp_raw',
      'mp_fragment',
      [
        [regexKey('#'), '1'],
        ['default', '0'],
      ],
      'nginx would cut the path at "#"; the embedded server keeps it, so no route matches',
    ),
    mapBlock(
      '$mp_raw',
      'mp_rule',
      [
        // Node's HTTP parser refuses raw bytes above 0x7f in the target before the server sees it; nginx passes them on.
        [regexKey('[\\x80-\\xff]'), 'unparsable'],
        ...BAD_TARGET_RULES.map((rule): [string, string] => [regexKey(RULE_PATTERNS[rule], rule !== 'control' && rule !== 'backslash'), quote(rule)]),
        ['default', '""'],
      ],
      "the first path rule the raw target breaks, in the embedded server's order",
    ),
    mapBlock('"$mp_absolute:$mp_long:$mp_rule"', 'mp_bad_target', [
      [regexKey('^1:'), 'originForm'],
      [regexKey('^0:0:(?<mp_bad_c>.+)$'), '$mp_bad_c'],
      ['default', '""'],
    ]),
    mapBlock(
      '"$mp_long$mp_fragment:$uri"',
      'mp_force_not_found',
      [
        [regexKey('^00:'), '""'],
        // After error_page sends a request on to the 404 page, it must not be sent back here.
        [regexKey('^..:/(?:404\\.html$|__mp/)'), '""'],
        ['default', '1'],
      ],
      undefined,
      true,
    ),
    // error_page turns the method into GET on its way to the error body: read the method afresh.
    mapBlock(
      '$request_method',
      'mp_method_refused',
      [
        ['GET', '""'],
        ['HEAD', '""'],
        ['OPTIONS', '""'],
        ['default', '1'],
      ],
      undefined,
      true,
    ),
    mapBlock('$request_method', 'mp_method_echo', [
      [regexKey('^[A-Z-]{1,20}$'), '1'],
      ['default', '0'],
    ]),
    mapBlock(
      '$status',
      'mp_allow',
      [
        ['405', '"GET, HEAD"'],
        ['default', '""'],
      ],
      'Allow only on 405 answers',
      true,
    ),
  ].join('\n');
}
