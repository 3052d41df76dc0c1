// Renders the human-readable pages behind every link: one HTML document per page path, from the components in src/pages.
import { renderAllPages, renderNotFound } from '../pages/render.tsx';
import type { PageInput } from '../pages/site.ts';

export type { PageInput } from '../pages/site.ts';
export { STYLESHEET } from '../pages/stylesheet.ts';

/** Every page path → its HTML: the home page, one page per market, and the pages every profile links. */
export function renderPages(input: PageInput): Map<string, string> {
  return renderAllPages(input);
}

/** The page answered with status 404 for an unknown page path (paths under /api keep problem+json). */
export function renderNotFoundPage(input: PageInput): string {
  return renderNotFound(input);
}
