// The request rules of the embedded server (Accept-Encoding q-values, If-None-Match, path checks) as nginx maps, since nginx has no code to run.
import { METHODS } from 'node:http';
import { chooseEncoding, parseAcceptEncoding } from '../protocol/negotiation.ts';
import { InvariantError } from '../contract/errors.ts';
import { BAD_TARGET_RULES, HOST_SOURCE, HTTP09_TARGET, MAX_PATH_LENGTH, type BadTargetRule } from '../protocol/request-target.ts';
import { mapBlock, quote, quoteWithVariables, regexKey } from './nginx-syntax.ts';
import { keysOf } from '../contract/records.ts';

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
    ...keysOf(CODINGS).map(qMaps),
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

const HEX = '[0-9a-f]';
const CONT = `%[89ab]${HEX}`;

/**
 * Percent-encoded bytes that decodeURIComponent refuses, found where they occur rather than by matching the whole path
 * as valid UTF-8: UTF-8 can be checked locally, and a pattern with no repetition runs in constant stack. (The whole-path
 * form, a repeated group under a lookahead, overflowed PCRE2's JIT stack on paths of about 1,900 bytes: nginx logged
 * `pcre2_match() failed: -46` and read the map as "no rule broken".) Caseless.
 */
export const BROKEN_UTF8 = [
  // a byte that never starts a sequence (C0, C1, F5-FF), an overlong start, a surrogate, a code point above U+10FFFF
  '%(?:c[01]|f[5-9a-f])',
  '%e0%[89]',
  '%ed%[ab]',
  '%f0%8',
  '%f4%[9ab]',
  // a lead byte without every continuation byte it announces
  `%[cd]${HEX}(?!${CONT})`,
  `%e${HEX}(?!${CONT}${CONT})`,
  `%f[0-4](?!${CONT}${CONT}${CONT})`,
  // a continuation byte that no lead byte before it announces
  `(?<!%[c-f]${HEX})(?<!%[ef]${HEX}${CONT})(?<!%f[0-4]${CONT}${CONT})${CONT}`,
].join('|');

/** Each path rule as a pattern over the raw path, in the embedded server's order (all caseless but `control` and `backslash`). */
export const RULE_PATTERNS: Record<BadTargetRule, string> = {
  control: '[\\x00-\\x1f\\x7f]',
  backslash: '\\x5c',
  encoding: '%(?![0-9a-f]{2})|%2f|%5c|%00',
  utf8: BROKEN_UTF8,
  encodedControl: '%(?:[01][0-9a-f]|7f)',
  dot: '(?:^|/)(?:\\.|%2e){1,2}(?:/|$)',
};

/** Methods node's parser knows, which the embedded server refuses with 405 on a connection that stays open (CONNECT is answered apart). */
const KEPT_METHODS = METHODS.filter((m) => !['GET', 'HEAD', 'OPTIONS', 'CONNECT'].includes(m));

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
      `paths over ${MAX_PATH_LENGTH} bytes are never a route: 404 once the path rules pass them`,
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
        ...BAD_TARGET_RULES.map((rule): [string, string] => [regexKey(RULE_PATTERNS[rule], rule !== 'control' && rule !== 'backslash'), quote(rule)]),
        ['default', '""'],
      ],
      "the first path rule the raw target breaks, in the embedded server's order",
    ),
    mapBlock(
      '$request_uri',
      'mp_high',
      [
        [regexKey('[\\x80-\\xff]'), '1'],
        ['default', '0'],
      ],
      "a raw byte above 0x7f anywhere in the target, query included: node's HTTP parser refuses it before the server sees it; nginx passes it on",
    ),
    mapBlock(
      '$http_host',
      'mp_host_bad',
      [
        ['""', '0'],
        [regexKey(HOST_SOURCE), '0'],
        ['default', '1'],
      ],
      'a Host value that is not a host and optional port (nginx refuses an empty one, spaces and "/" itself)',
    ),
    mapBlock(
      '"$status:$server_protocol:$request"',
      'mp_http09',
      [
        [regexKey('^009:'), '1'],
        // A method other than GET on such a line is refused by nginx's parser (400), and its error page would go out
        // as HTTP/0.9, a bare body: no answer either. A method of upper-case letters and a target without a control
        // byte, as nginx's parser reads them: of a longer line it refused earlier (a lower-case method), $request holds
        // only the part read, which has no version either.
        [regexKey(`^\\d+::[A-Z_-]+ +${HTTP09_TARGET}[^\\x00-\\x20\\x7f]* *$`), '1'],
        // A line that names HTTP/0.9 gets what one without a version gets (node's parser reads the two alike).
        [regexKey(`^\\d+::[A-Z_-]+ +${HTTP09_TARGET}[^\\x00-\\x20\\x7f]* +HTTP/0\\.9$`), '1'],
        ['default', '""'],
      ],
      'a request line without a version: HTTP/0.9 (nginx reports its status as 009 until one is set, and no protocol)',
    ),
    mapBlock(
      '"$status:$server_protocol:$mp_host_bad:$mp_absolute:$mp_high:$mp_rule"',
      'mp_bad_target',
      [
        // Only on the request's own pass, or when nginx refused its method itself (TRACE) and error_page brought it here:
        // on the way to any other error page the status is already decided.
        [regexKey('^(?!000:|405:)'), '""'],
        [regexKey('^\\d+:(?!HTTP/1\\.[01]:)'), 'unparsable'],
        [regexKey('^\\d+:[^:]*:1:'), 'host'],
        [regexKey('^\\d+:[^:]*:0:1:'), 'originForm'],
        [regexKey('^\\d+:[^:]*:0:0:1:'), 'unparsable'],
        [regexKey('^\\d+:[^:]*:0:0:0:(?<mp_bad_c>.+)$'), '$mp_bad_c'],
        ['default', '""'],
      ],
      'the check the request fails first: version, Host, target form, raw bytes, path rules (paths of any length)',
    ),
    mapBlock(
      '"$status:$mp_long$mp_fragment:$uri"',
      'mp_force_not_found',
      [
        [regexKey('^(?!000:)'), '""'],
        [regexKey('^000:00:'), '""'],
        [regexKey('^000:..:/(?:404\\.html$|__mp/)'), '""'],
        ['default', '1'],
      ],
      undefined,
      true,
    ),
    mapBlock(
      '"$status:$request_method"',
      'mp_method_refused',
      [
        [regexKey('^(?!000:)'), '""'],
        ['"000:GET"', '""'],
        ['"000:HEAD"', '""'],
        ['"000:OPTIONS"', '""'],
        ...KEPT_METHODS.map((method): [string, string] => [quote(`000:${method}`), 'keep']),
        ['default', 'close'],
      ],
      "405 for any other method: on a connection that stays open if node's parser knows the method, else closed",
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

/** The sets of precompressed variants a route may have, as the route locations and the maps name them. */
export type VariantSet = 'br_gzip' | 'br' | 'gzip';

/**
 * Accept-Encoding values clients send as they are (browsers, curl, Python, Go, node's fetch, none at all): matched
 * exactly, one hash lookup, before the q-value maps run. Each one's choice is the embedded server's own
 * (negotiation.ts), worked out here, so the two cannot differ.
 */
export const COMMON_ACCEPT_ENCODINGS: readonly string[] = [
  '',
  'identity',
  'gzip',
  'br',
  'gzip, deflate',
  'deflate, gzip',
  'gzip, deflate, br',
  'gzip, deflate, br, zstd',
  'deflate, gzip, br, zstd',
  'br, gzip',
  'gzip, br',
  'br, deflate, gzip',
  '*',
];

/** HOST_SOURCE as a part of a longer key, where a field ends at `|` (a valid host has none): no anchors, its lookahead bounded by the field. */
function hostField(): string {
  const inner = HOST_SOURCE.replace(/^\^/, '').replace(/\$$/, '');
  const field = inner.replace('(?!.*\\.\\.)', '(?![^|]*\\.\\.)');
  if (field === inner || field.includes('|]*\\.\\.)') === false)
    throw new InvariantError('HOST_SOURCE no longer starts with the ".." lookahead the fast path bounds');
  return field;
}

/**
 * The common request's fast path: one regular expression over one key decides that no server-level check can refuse a
 * request and that it needs none of a route's full location, so it goes straight to the route's exact location.
 *
 * - `$mp_gate` is empty on a request's own pass (status 000) with a valid Host (or none, in HTTP/1.0), a request line
 *   (as sent: an absolute-form target is not one) of GET or HEAD, a target of unreserved characters and `/` only, at
 *   most 2,048 bytes, without an empty, `.` or `..` segment, HTTP/1.0 or 1.1, and no If-None-Match or
 *   If-Modified-Since: no path rule can refuse it, nothing in it is decoded, it is not HTTP/0.9 or a method to refuse.
 *   The expression repeats no group, so no stack grows with the path. The same request with a condition, or OPTIONS, is
 *   `slow` without asking the rules' maps either. Any other request, and every later pass (an error page's), gets
 *   `$mp_refusal`.
 * - `$mp_refusal`: the first of the server-level refusals a request meets, in their order (HTTP/0.9, the target's 400,
 *   405 kept or closed, a path never a route), worked out afresh on every pass from the maps that decide each; else,
 *   on the request's own pass, `slow` for OPTIONS or a condition: the full location of the route (`/__mp/slow<path>`).
 * - `$mp_fe_<set>`: the variant chosen for a common Accept-Encoding exactly, else the q-value maps' choice; its file
 *   suffix, Content-Encoding and ETag (of the `$mp_t_<coding>` the route's location sets) beside it.
 */
export function fastPathMaps(sets: readonly VariantSet[]): string {
  const segment = '[A-Za-z0-9._~/-]';
  /** A target no path rule can refuse and nothing in which is decoded: unreserved characters and `/`, at most 2,048 bytes, no empty, `.` or `..` segment. */
  const cleanTarget = `(?!\\S*(?://|/\\.\\.?[/ ]))/${segment}{0,2047}`;
  const chosen = (set: VariantSet, header: string): string =>
    chooseEncoding(
      { identity: 'identity', gzip: set.includes('gzip') ? 'gzip' : undefined, br: set.startsWith('br') ? 'br' : undefined },
      parseAcceptEncoding(header),
    );
  return [
    mapBlock(
      '"$request_method:$http_if_none_match:$http_if_modified_since"',
      'mp_slow',
      [
        ['"GET::"', '""'],
        ['"HEAD::"', '""'],
        ['default', '1'],
      ],
      "OPTIONS, or a condition: the route's full location (on the request's own pass)",
    ),
    mapBlock(
      '"$status:$mp_slow:$uri"',
      'mp_slow_now',
      [
        // The request's own pass, not an error page's (`error_page 405 =` passes as a GET with status 000 too).
        [regexKey('^000:1:/(?!__mp/|404\\.html$)'), '1'],
        ['default', '""'],
      ],
      undefined,
      true,
    ),
    mapBlock(
      '"$mp_http09|$mp_bad_target|$mp_method_refused|$mp_force_not_found|$mp_slow_now"',
      'mp_refusal',
      [
        [regexKey('^1\\|'), 'http09'],
        [regexKey('^\\|[^|]+\\|'), 'target'],
        [regexKey('^\\|\\|keep\\|'), 'keep'],
        [regexKey('^\\|\\|close\\|'), 'close'],
        [regexKey('^\\|\\|\\|1\\|'), 'route'],
        [regexKey('^\\|\\|\\|\\|1$'), 'slow'],
        ['default', '""'],
      ],
      'the first server-level refusal a request meets, in their order; else, for OPTIONS or a condition, the full location',
      true,
    ),
    mapBlock(
      '"$status|$http_host|$request|$http_if_none_match|$http_if_modified_since"',
      'mp_gate',
      [
        [regexKey(`^000\\|(?:${hostField()})?\\|(?:GET|HEAD) ${cleanTarget} HTTP/1\\.[01]\\|\\|$`), '""'],
        // The same with a condition, or OPTIONS: nothing to refuse either, and the route's full location answers.
        [regexKey(`^000\\|(?:${hostField()})?\\|(?:GET|HEAD|OPTIONS) ${cleanTarget} HTTP/1\\.[01]\\|`), 'slow'],
        ['default', '$mp_refusal'],
      ],
      'empty for the common request: nothing to refuse, no condition (see fastPathMaps)',
      true,
    ),
    ...sets.map((set) =>
      mapBlock(
        '$http_accept_encoding',
        `mp_fe_${set}`,
        [...COMMON_ACCEPT_ENCODINGS.map((header): [string, string] => [quote(header), chosen(set, header)]), ['default', `$mp_enc_${set}`]],
        set === sets[0] ? 'the variant a common Accept-Encoding gets, exactly; any other the q-value maps decide' : undefined,
      ),
    ),
    ...sets.flatMap((set) => {
      // Only the set's own codings: a variable no route sets is an error when nginx loads the configuration.
      const codings = (['br', 'gzip'] as const).filter((c) => set.split('_').includes(c));
      return [
        mapBlock(`$mp_fe_${set}`, `mp_sfx_${set}`, [...codings.map((c): [string, string] => [c, c === 'br' ? '.br' : '.gz']), ['default', '""']]),
        mapBlock(`$mp_fe_${set}`, `mp_ce_${set}`, [...codings.map((c): [string, string] => [c, c]), ['default', '""']]),
        // The route's location sets $mp_t_<coding> to its ETags (a map per route would add a variable per route, which
        // every request pays for in nginx's table of variables).
        mapBlock(`$mp_fe_${set}`, `mp_et_${set}`, [...codings.map((c): [string, string] => [c, `$mp_t_${c}`]), ['default', '$mp_t_identity']]),
      ];
    }),
  ].join('\n');
}
