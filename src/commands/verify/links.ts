// Link resolution for `verify`: every link of the JSON bodies and the pages must reach a 200 on this deployment (and its #fragment must exist).
import { API_PREFIX } from '../../contract/endpoints.ts';
import { PATHS } from '../../contract/paths.ts';
import { Faults, TYPES, isObject } from './expect.ts';
import { headerValue, type Probe } from './http.ts';
import type { Profile } from './resources.ts';

/** The URL strings under every `links` object of a JSON document, with where each was found. */
export function jsonLinks(doc: unknown, where: string): [string, string][] {
  const out: [string, string][] = [];
  const walk = (value: unknown, pointer: string, inLinks: boolean): void => {
    // Inside a `links` object every string is a link, however deep (a vintage's links.markets.<id>.csv).
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${pointer}/${i}`, inLinks));
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) walk(v, `${pointer}/${k}`, inLinks || k === 'links');
    else if (inLinks && typeof value === 'string') out.push([value, `${where} ${pointer}`]);
  };
  walk(doc, '', false);
  return out;
}

/** href and src attributes of an HTML page, resolved against its URL. */
export function pageLinks(html: string, pageUrl: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of html.matchAll(/\s(?:href|src)\s*=\s*"([^"]*)"/gi)) {
    const raw = (m[1] ?? '').replaceAll('&amp;', '&');
    if (/^(?:mailto:|tel:|data:|javascript:)/i.test(raw)) continue;
    try {
      out.push([new URL(raw, pageUrl).href, `${new URL(pageUrl).pathname} href ${JSON.stringify(raw)}`]);
    } catch {
      out.push([raw, `${new URL(pageUrl).pathname} has an unparsable link ${JSON.stringify(raw)}`]);
    }
  }
  return out;
}

const ids = (html: string): Set<string> => new Set([...html.matchAll(/\s(?:id|name)\s*=\s*"([^"]*)"/gi)].map((m) => m[1] ?? ''));

/**
 * Fetches every distinct in-deployment URL once; links into other sites are counted, not fetched. JSON links must
 * point into this deployment (docs/contract.md 4: every absolute URL derives from BASE_URL). Returns a summary for a PASS.
 */
export async function checkLinks(probe: Probe, f: Faults, links: readonly [string, string][], fromJson: ReadonlySet<string>): Promise<string> {
  const base = new URL(`${probe.baseUrl}/`);
  const inside = (url: URL): boolean => url.origin === base.origin && url.pathname.startsWith(base.pathname.replace(/\/$/, ''));
  const targets = new Map<string, { where: string; fragments: Set<string> }>();
  let external = 0;
  for (const [href, where] of links) {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      f.add(`${where}: ${JSON.stringify(href)} is not a URL`);
      continue;
    }
    if (!inside(url)) {
      if (fromJson.has(href)) f.add(`${where}: ${href} is not under ${probe.baseUrl}; was the deployment built with another BASE_URL?`);
      else external += 1;
      continue;
    }
    const key = `${url.origin}${url.pathname}`;
    const entry = targets.get(key) ?? { where, fragments: new Set<string>() };
    if (url.hash.length > 1) entry.fragments.add(decodeURIComponent(url.hash.slice(1)));
    targets.set(key, entry);
  }
  await Promise.all(
    [...targets].map(async ([url, { where, fragments }]) => {
      // A page is kept to find the fragments in; anything else is only hashed as it streams.
      const res = await probe.fetch(url, { keep: fragments.size === 0 ? false : (headers) => headers['content-type'] === TYPES.html });
      if (!f.expect(res.status === 200, `${where}: ${url} answered ${res.status}`)) return;
      if (fragments.size === 0) return;
      const isPage = headerValue(res, 'content-type') === TYPES.html;
      const present = isPage ? ids(res.body.toString('utf8')) : new Set<string>();
      for (const fragment of fragments) f.expect(present.has(fragment), `${where}: ${url} has no element with id "${fragment}"`);
    }),
  );
  return `${targets.size} distinct URLs of this deployment answer 200 (fragments present); ${external} links to other sites not fetched`;
}

/** What the links are gathered from: the index, the profiles and the problem bodies read, and the market pages read. */
export interface LinkSources {
  indexDoc: unknown;
  profiles: readonly Profile[];
  problems: readonly Record<string, unknown>[];
  pages: readonly { url: string; html: string }[];
}

/**
 * Every link of the deployment: those of the JSON bodies, the pages they name (read here unless already read) and the
 * links of those pages; then resolved by checkLinks.
 */
export async function checkDeploymentLinks(probe: Probe, f: Faults, from: LinkSources): Promise<string> {
  const links: [string, string][] = [...jsonLinks(from.indexDoc, PATHS.index)];
  for (const p of from.profiles) links.push(...jsonLinks(p.doc, PATHS.profile(p.id)));
  // A problem's type names where the error is documented, and a market_not_found points at the index.
  for (const p of from.problems)
    for (const key of ['type', 'index']) {
      const href = p[key];
      if (typeof href === 'string') links.push([href, `problem ${String(p.code)} ${key}`]);
    }
  const fromJson = new Set(links.map(([href]) => href));
  // The pages the JSON names are read too, and their own links followed.
  const pages = new Map(from.pages.map((p) => [p.url, p.html]));
  for (const href of fromJson) {
    const url = href.split('#')[0] ?? href;
    if (!url.startsWith(`${probe.baseUrl}/`) || pages.has(url) || url.includes(`${API_PREFIX}/`)) continue;
    const res = await probe.fetch(url, { keep: (headers) => headers['content-type'] === TYPES.html });
    if (res.status === 200 && res.headers['content-type'] === TYPES.html) pages.set(url, res.body.toString('utf8'));
  }
  for (const [url, html] of pages) links.push(...pageLinks(html, url));
  return checkLinks(probe, f, links, fromJson);
}
