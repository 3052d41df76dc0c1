// The site's one stylesheet, served at /assets/site.css: the page CSP allows no inline styles, so all styling lives here.

export const STYLESHEET = `/* Housing market profiles: one small stylesheet, no web fonts, readable on a phone and in print. */
:root {
  --ink: #1b1f24;
  --muted: #4a5560;
  --line: #d0d7de;
  --panel: #f3f5f7;
  --accent: #0b57a4;
  --accent-dark: #083f78;
  --header: #14304d;
  --notice: #fff7e0;
  --notice-line: #b7791f;
  --missing: #fdecea;
  --missing-line: #b42318;
  --confirm: #e9f6ee;
  --confirm-line: #1a7f37;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  color: var(--ink);
  background: #fff;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", "DejaVu Sans", sans-serif;
  font-size: 1rem;
  line-height: 1.55;
  /* The footer sits at the bottom of the window even on a short page. */
  display: flex;
  flex-direction: column;
  min-height: 100vh;
}
main { flex: 1 0 auto; width: 100%; }
.wrap { max-width: 68rem; margin: 0 auto; padding: 0 1rem; }
a { color: var(--accent); text-underline-offset: 0.15em; }
a:hover { color: var(--accent-dark); }
a:focus-visible, .table-scroll:focus-visible, pre.curl:focus-visible { outline: 3px solid #f0b429; outline-offset: 2px; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 0.9em; overflow-wrap: anywhere; }
h1, h2, h3 { line-height: 1.25; margin: 1.6em 0 0.5em; }
h1 { font-size: 1.9rem; margin-top: 0.6em; }
h2 { font-size: 1.4rem; padding-top: 0.4em; border-top: 1px solid var(--line); }
h3 { font-size: 1.1rem; }
p, ul, ol, dl { margin: 0 0 1em; }
.lead { font-size: 1.1rem; max-width: 48rem; }
.muted { color: var(--muted); }
.overdue { color: #8a4b00; font-weight: 600; }
.chart-data { font-size: 0.9rem; color: var(--muted); margin-top: 0.25rem; }
.sub { display: block; font-weight: normal; color: var(--muted); font-size: 0.85em; }
.nowrap { white-space: nowrap; }

/* Skip link: hidden until a keyboard user reaches it. */
.skip-link { position: absolute; left: -999px; top: 0; background: #fff; padding: 0.5rem 1rem; z-index: 10; }
.skip-link:focus { left: 0.5rem; top: 0.5rem; }

/* Header and navigation. */
.site-header { background: var(--header); color: #fff; padding: 0.75rem 0 0.5rem; }
.site-header a { color: #fff; }
.brand { margin: 0 0 0.35rem; font-weight: 700; font-size: 1.15rem; }
.brand a { text-decoration: none; }
.nav { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.15rem 1.1rem; }
.nav a { display: inline-block; padding: 0.2rem 0; text-decoration: none; border-bottom: 2px solid transparent; }
.nav a:hover, .nav a[aria-current="page"] { border-bottom-color: #f0b429; }
.breadcrumb ol { list-style: none; padding: 0; margin: 1rem 0 0; display: flex; flex-wrap: wrap; gap: 0.4rem; font-size: 0.95rem; }
.breadcrumb li + li::before { content: "/"; margin-right: 0.4rem; color: var(--muted); }
.toc ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; }

/* Notices: the caveats and anything missing are meant to be seen. */
.notice { background: var(--notice); border-left: 4px solid var(--notice-line); padding: 0.6rem 0.9rem; max-width: 52rem; }
.notice-missing { background: var(--missing); border-left-color: var(--missing-line); }
/* Good news (nothing missing, the scores recomputed as published) is not a warning: green, with a tick. */
.confirm { background: var(--confirm); border-left: 4px solid var(--confirm-line); padding: 0.6rem 0.9rem; max-width: 52rem; }
.confirm::before { content: "\\2713\\00a0" / ""; color: var(--confirm-line); font-weight: 700; }
.illustrative-note { display: block; margin-top: 0.4rem; }
.illustrative-note:first-child { margin-top: 0; }
/* What each number covers: one line under the notices, so nobody reads a metro's index as the city's. */
.covers { max-width: 52rem; border-left: 4px solid var(--accent); background: #eef4fb; padding: 0.5rem 0.9rem; }
.value-note { margin-top: 0.2rem; max-width: 26rem; }
.caveats { background: var(--panel); padding: 0.2rem 1rem 0.4rem; margin: 2rem 0; border-radius: 4px; }
.caveats h2 { border-top: 0; margin-top: 0.8em; }
.missing-note { display: block; margin-top: 0.25rem; color: var(--missing-line); }
.missing-note strong { color: var(--missing-line); }
.missing-row { background: var(--missing); }

/* Tables: wide comparison tables scroll inside their own region on a phone; the others reflow into cards. */
/* position: relative keeps visually hidden text inside the region, so it never widens the page. */
.table-scroll, .table-reflow { position: relative; margin: 0 0 1.5rem; border: 1px solid var(--line); border-radius: 4px; }
.table-scroll-frame { margin: 0 0 1.5rem; }
.table-scroll-frame .table-scroll { margin: 0; }
/*
 * A scrolling table says so: a line above it on narrower screens, its first column kept in place, and a shadow at the
 * right edge while more columns follow (the white cover scrolls with the content and hides the shadow at the end).
 */
.table-scroll {
  overflow-x: auto;
  background:
    linear-gradient(to left, #fff 40%, rgba(255, 255, 255, 0)) right center / 2.5rem 100% no-repeat local,
    radial-gradient(farthest-side at 100% 50%, rgba(27, 31, 36, 0.28), rgba(27, 31, 36, 0)) right center / 1rem 100% no-repeat scroll;
}
.table-scroll table { min-width: 40rem; }
/* The caption stays on screen while the columns scroll under it. */
.table-scroll caption { position: sticky; left: 0; max-width: calc(100vw - 2.2rem); }
.table-scroll tbody th, .table-scroll thead th:first-child { position: sticky; left: 0; z-index: 1; }
.table-scroll tbody th { background: #fff; box-shadow: inset -1px 0 0 var(--line); }
.table-scroll thead th:first-child { box-shadow: inset -1px 0 0 var(--line); }
.scroll-cue { display: none; margin: 0 0 0.3rem; font-size: 0.875rem; color: var(--muted); }
.scroll-cue .arrow { font-weight: 700; }
table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
caption { text-align: left; padding: 0.6rem 0.75rem; color: var(--muted); font-size: 0.9rem; caption-side: top; }
th, td { text-align: left; vertical-align: top; padding: 0.45rem 0.75rem; border-top: 1px solid var(--line); }
thead th { background: var(--panel); border-top: 0; font-weight: 600; white-space: nowrap; }
tbody th { font-weight: 600; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
table.compare td.num, table.compare .nowrap { white-space: nowrap; }
table.compare th, table.compare td { padding: 0.45rem 0.6rem; }
table.compare thead th { white-space: normal; vertical-align: bottom; }
table.compare thead th.num { min-width: 6rem; }
table.compare tbody th { min-width: 10rem; }
/* Every metric of every market: small type, units under each head, so twelve columns fit a desktop's width. */
table.dense { font-size: 0.85rem; min-width: 58rem; }
table.dense th, table.dense td { padding: 0.35rem 0.45rem; }
table.dense thead th { white-space: normal; vertical-align: bottom; }
table.dense .unit { display: block; font-weight: normal; color: var(--muted); font-size: 0.8rem; }
table.dense tbody th { min-width: 8.5rem; }
table.dense thead .tag-illustrative { display: block; margin-top: 0.15rem; padding: 0 0.15rem; font-size: 0.7rem; text-align: center; }
table.compact { min-width: 0; font-size: 0.8rem; }
table.compact th, table.compact td { padding: 0.25rem 0.3rem; }
/* Every data cell of the price index table is a number: aligned by the stylesheet, not by a class on each cell. */
table.compact td { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
details.data-table { margin: 0 0 1.5rem; }
details.data-table summary { cursor: pointer; color: var(--accent); font-weight: 600; margin-bottom: 0.5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.value { white-space: nowrap; }
/* A survey estimate's margin under its value in a table, so the value column leaves room for the state's figure; inline again where the table reflows. */
td.estimate .moe { display: block; }
table.status thead th { white-space: normal; vertical-align: bottom; }
table.status tbody th, table.status time, table.status td.num { white-space: nowrap; }
table.status td.missing-cell { min-width: 6rem; }

/* Fact lists. */
.facts { display: grid; grid-template-columns: minmax(7rem, max-content) 1fr; gap: 0.25rem 1rem; margin: 0 0 1rem; }
.facts > div { display: contents; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.inline-list { list-style: none; padding: 0; margin: 0; }
.formulas > div { margin-bottom: 0.8rem; }
.formulas dt { font-weight: 600; }
.formulas dd { margin: 0.2rem 0 0; }
.definition { border-left: 3px solid var(--line); padding-left: 1rem; margin-bottom: 1.5rem; }
.definition h3 { margin-top: 1rem; }
.steps > li { margin-bottom: 0.8rem; }
.endpoint, .problem, .source { margin-bottom: 1.5rem; }
.link-list li { margin-bottom: 0.3rem; }
.downloads { padding-left: 1.2rem; }
.downloads .muted { overflow-wrap: anywhere; }

/* Freshness badges: the word carries the meaning, the colour only repeats it. */
.badge { display: inline-block; padding: 0 0.45rem; border-radius: 999px; font-size: 0.85rem; font-weight: 600; border: 1px solid; }
.badge-fresh { color: #0f5b2e; background: #e3f4e9; border-color: #7cc298; }
.badge-aging { color: #6b4500; background: #fff3d6; border-color: #d9a53f; }
.badge-stale { color: #8a1c12; background: #fde8e6; border-color: #e08b82; }
/* A value that is not the agency's published figure: a word, not a colour, says so. */
.tag-illustrative { display: inline-block; padding: 0 0.4rem; border-radius: 3px; font-size: 0.8rem; font-weight: 600; color: #5b3a00; background: #fff3d6; border: 1px dashed #b7791f; white-space: nowrap; }
/* The agency's margin of error beside a value. */
.moe { color: var(--muted); white-space: nowrap; }

/*
 * A curl line breaks only at a space or after a slash of its URL (its pieces do not break, not even at a hyphen); a piece
 * wider than the column scrolls in the line's own box, so it never widens the page.
 */
pre.curl { background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 0.6rem 0.8rem; white-space: pre-wrap; overflow-x: auto; margin: 0 0 1rem; }
pre.curl code { font-size: 0.88rem; overflow-wrap: normal; }
pre.curl .nobreak { white-space: nowrap; }

/* Charts: static SVG; text sizes here, geometry in the markup. */
.chart { display: block; max-width: 52rem; margin: 0.5rem 0 1.5rem; overflow: visible; font-family: inherit; }
/* The label column: x = 0 of the plot is the end of this padding; labels are drawn to its left. */
.chart-market { padding-left: 9.5rem; max-width: 46rem; }
.chart-compare { padding-left: 9.5rem; }
/* Sizes are inherited, so a class on a group sizes every text in it. */
.chart { font-size: 14px; }
.chart .small { font-size: 13px; }
.chart .bar-value { font-size: 12px; }
.chart .tick { font-size: 11px; }
.chart .row-label { font-weight: 600; }
.chart .label-rest { font-size: 12px; font-weight: normal; }
.chart .bar-missing { font-size: 12px; font-style: italic; }
.chart-compare .bar-missing { font-size: 11px; }
.legend { list-style: none; padding: 0; margin: 0.5rem 0; display: flex; flex-wrap: wrap; gap: 0.3rem 1.2rem; }
.legend li { display: flex; align-items: center; gap: 0.4rem; }
.chart .strong { font-weight: 700; }
.chart .panel-title { font-size: 13px; font-weight: 600; }
.chart .annotation { font-size: 13px; }
/* Where a market stands: the label column holds the short metric names. */
.chart-standing { padding-left: 8rem; padding-right: 0.75rem; max-width: 48rem; }
/* The price index: the value axis in the left padding. */
.chart-price { padding-left: 2.75rem; padding-right: 0.25rem; max-width: 52rem; }
/* Every metric across the markets: a grid of small bar charts, as many columns as fit. */
.small-multiples { display: grid; grid-template-columns: repeat(auto-fill, minmax(19rem, 1fr)); gap: 0.5rem 2rem; }
.metric-figure { margin: 0 0 1rem; min-width: 0; }
.metric-figure figcaption { font-weight: 600; }
.chart-metric { padding-left: 8rem; padding-right: 0.25rem; margin: 0.3rem 0 0; }
/* The map: drawn in its own 975 x 610 frame and scaled, so label sizes are in that frame's units; a phone gets bigger ones. */
.map { display: block; width: 100%; max-width: 56rem; height: auto; margin: 0.5rem 0 1.5rem; font-family: inherit; }
.map-labels-wide text { font-size: 15px; }
.map-labels-narrow { display: none; }
.map-labels-narrow text { font-size: 33px; }
.map .strong { font-weight: 700; }

/* Footer: every page and endpoint, on every page. */
.site-footer { margin-top: 3rem; background: var(--panel); border-top: 1px solid var(--line); padding: 1rem 0 1.5rem; font-size: 0.95rem; }
.footer-nav { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 0 2rem; }
.footer-nav h2 { font-size: 1rem; border-top: 0; padding-top: 0; margin: 0.8rem 0 0.4rem; }
.footer-nav ul { list-style: none; padding: 0; margin: 0; }
.footer-nav li { padding: 0.1rem 0; break-inside: avoid; }
.footer-nav .columns { columns: 2 9rem; }
.footer-note { color: var(--muted); margin: 1.2rem 0 0; max-width: 52rem; }

@media (max-width: 64rem) {
  .scroll-cue { display: block; }
}

@media (max-width: 40rem) {
  .map-labels-wide { display: none; }
  .map-labels-narrow { display: inline; }
  .map .map-dot { r: 15px; }
  .chart-standing { padding-left: 7.5rem; }
  .chart-standing .row-label { font-size: 13px; }
  /* The first column stays in place while the others scroll, so it must leave them room. */
  table.compare tbody th { min-width: 8.5rem; max-width: 9.5rem; }
  table.compare .sub { font-size: 0.8em; }
  table.dense tbody th { min-width: 7rem; }
  .table-reflow table, .table-reflow caption, .table-reflow tbody, .table-reflow tr, .table-reflow th, .table-reflow td { display: block; }
  /* The column headers move into each cell's label, but stay in the table for screen readers. */
  .table-reflow thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .table-reflow tr { border-top: 1px solid var(--line); padding: 0.5rem 0.75rem; }
  .table-reflow th, .table-reflow td { border: 0; padding: 0.1rem 0; text-align: left; }
  .table-reflow tbody th { font-size: 1.02rem; margin-bottom: 0.15rem; }
  .table-reflow td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
  .table-reflow .num { text-align: left; }
  td.estimate .moe { display: inline; }
  .facts { grid-template-columns: 1fr; gap: 0; }
  .facts dd { margin-bottom: 0.4rem; }
}

@media (min-width: 48rem) {
  body { font-size: 1.0625rem; }
  h1 { font-size: 2.2rem; }
  .wrap { padding: 0 1.5rem; }
}

@media print {
  :root { --ink: #000; --muted: #333; }
  body { font-size: 11pt; }
  .site-header, .skip-link, .breadcrumb, .toc, .footer-nav { display: none; }
  body { display: block; min-height: 0; }
  .site-footer { background: none; border-top: 1px solid #999; margin-top: 1rem; }
  .wrap { max-width: none; padding: 0; }
  a { color: #000; }
  a.external::after { content: " (" attr(href) ")"; font-size: 0.85em; }
  .table-scroll { overflow: visible; border: 0; }
  table, .chart, .notice, .confirm, .caveats, .definition, .source, .endpoint { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  .notice, .confirm, .caveats, thead th, .missing-row th, .missing-row td, pre.curl { background: none; }
}
`;
