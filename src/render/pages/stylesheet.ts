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
  --focus: #1b1f24;
  --focus-on-dark: #f0b429;
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
/* Focus: ink on the page (16:1 on white, 15:1 on the panels), the yellow on the dark header (7.7:1); 3:1 is the floor. */
a:focus-visible, summary:focus-visible, pre.curl:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.site-header a:focus-visible { outline-color: var(--focus-on-dark); }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 0.9em; overflow-wrap: anywhere; }
h1, h2, h3 { line-height: 1.25; margin: 1.3em 0 0.45em; }
h1 { font-size: 1.9rem; margin-top: 0.6em; }
h2 { font-size: 1.4rem; padding-top: 0.4em; border-top: 1px solid var(--line); }
h3 { font-size: 1.1rem; }
p, ul, ol, dl { margin: 0 0 0.85em; }
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

/* Tables: on a phone each row becomes a card (the reflowing ones) or the table is small enough to fit; none scrolls sideways. */
/* position: relative keeps visually hidden text inside the box, so it never widens the page. */
.table-reflow, .table-plain { position: relative; margin: 0 0 1.5rem; border: 1px solid var(--line); border-radius: 4px; }
table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
caption { text-align: left; padding: 0.6rem 0.75rem; color: var(--muted); font-size: 0.9rem; caption-side: top; }
th, td { text-align: left; vertical-align: top; padding: 0.45rem 0.75rem; border-top: 1px solid var(--line); }
thead th { background: var(--panel); border-top: 0; font-weight: 600; white-space: nowrap; }
tbody th { font-weight: 600; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
table.compact { min-width: 0; font-size: 0.8rem; }
table.compact th, table.compact td { padding: 0.25rem 0.3rem; }
/* Every data cell of the price index table is a number: aligned by the stylesheet, not by a class on each cell. */
table.compact td { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
details.data-table, details.history { margin: 0 0 1.5rem; }
details.history summary { cursor: pointer; color: var(--accent); font-weight: 600; }
details.data-table summary { cursor: pointer; color: var(--accent); font-weight: 600; margin-bottom: 0.5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.value { white-space: nowrap; }
.value .per { font-size: 0.85em; color: var(--muted); }

/* Short lines near the top of a page: the notice and the geography note, one line each with a link to the detail. */
.line-note { max-width: 60rem; margin: 0 0 0.6rem; padding: 0.35rem 0.75rem; font-size: 0.95rem; }
p.line-note:not(.notice) { border-left: 4px solid var(--accent); background: #eef4fb; }
.section-note { color: var(--muted); margin: 0 0 0.6rem; max-width: 60rem; }

/* Key figures: large numbers, each with its state's and the nation's in words, the period and the margin. */
.key-figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(10.5rem, 1fr)); gap: 0.75rem; margin: 1rem 0 0.5rem; }
.figure { border: 1px solid var(--line); border-top: 4px solid var(--accent); border-radius: 4px; padding: 0.5rem 0.75rem 0.6rem; }
.figure h3 { margin: 0; font-size: 0.95rem; font-weight: 600; }
.figure-value { margin: 0.1rem 0 0.2rem; color: var(--muted); }
.figure-value .big { font-size: 1.75rem; font-weight: 700; color: var(--ink); font-variant-numeric: tabular-nums; line-height: 1.2; }
.figure-context { list-style: none; padding: 0; margin: 0 0 0.25rem; font-size: 0.92rem; line-height: 1.35; }
.figure-meta, .figure-change { margin: 0; font-size: 0.85rem; color: var(--muted); line-height: 1.35; }
.figure-change { margin-top: 0.3rem; color: var(--ink); }

/* Scores: one line each, the bar on the 0-100 scale, what drives it. */
.scores { list-style: none; padding: 0; margin: 0 0 1rem; max-width: 60rem; }
.scores li { display: grid; grid-template-columns: 13rem 5.5rem 7rem 1fr; gap: 0 0.75rem; align-items: baseline; padding: 0.3rem 0; border-top: 1px solid var(--line); }
.score-name { font-weight: 600; }
.score-value { font-weight: 700; font-variant-numeric: tabular-nums; white-space: nowrap; }
.score-value .muted, .bound { font-weight: normal; font-size: 0.85em; }
.score-bar { align-self: center; }
.score-why { font-size: 0.92rem; }

/* Every figure: one compact table; the marks and the rank's words are explained once above it. */
.table-legend { font-size: 0.9rem; color: var(--muted); max-width: 60rem; }
.mark { font-size: 0.85em; color: var(--ink); }
.table-figures { margin: 0 0 1.5rem; border: 1px solid var(--line); border-radius: 4px; }
table.figures { font-size: 0.92rem; }
table.figures th, table.figures td { padding: 0.35rem 0.55rem; }
table.figures thead th { white-space: normal; vertical-align: bottom; }
table.figures tbody th { min-width: 11rem; }
table.figures td.around, table.figures td.estimate { white-space: nowrap; }
table.figures td.standing { min-width: 8rem; }
table.figures .strip { display: block; margin: 0.25rem 0 0.1rem; }
table.figures .rank { font-size: 0.9em; }
.downloads { margin: 0 0 1rem; }

/* The markets side by side: one table, a card per market on a phone. */
.table-markets { margin: 0 0 0.75rem; border: 1px solid var(--line); border-radius: 4px; }
table.markets { font-size: 0.88rem; }
table.markets th, table.markets td { padding: 0.35rem 0.45rem; }
table.markets thead th { white-space: normal; vertical-align: bottom; }
table.markets .unit { display: block; font-weight: normal; color: var(--muted); font-size: 0.8rem; }
table.markets tbody th { white-space: nowrap; }
table.markets thead .tag-illustrative { display: block; margin-top: 0.15rem; font-size: 0.7rem; }
.table-notes { font-size: 0.9rem; color: var(--muted); padding-left: 1.2rem; }
.site-map h3 { margin-top: 0.6rem; }
.site-map .columns { columns: 3 15rem; column-gap: 2rem; }
.site-map .columns li { break-inside: avoid; }
.basis { color: var(--muted); }
.codes { color: var(--muted); font-size: 0.85em; }
/* Data catalog: the market ids in columns; each CSV column once, its name never broken. */
.id-list { list-style: none; padding: 0; columns: 4 10rem; column-gap: 1.5rem; }
.id-list li { break-inside: avoid; }
/* A name in a table's row head (a column, an input, a field) is one word: it never breaks inside. */
th code { white-space: nowrap; overflow-wrap: normal; }
table.columns-table .both { display: block; }
/* Methodology: one table of every metric. */
table.definitions tbody th { min-width: 12rem; }
table.source-status { font-size: 0.92rem; }
table.source-status thead th { white-space: normal; vertical-align: bottom; }
table.source-status tbody th { min-width: 11rem; }
table.source-status td.margins { min-width: 22rem; }
table.source-status time { white-space: nowrap; }
table.source-status .margin-group { display: block; }
table.source-status .margin-group + .margin-group { margin-top: 0.3rem; }

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
.endpoint, .source { margin-bottom: 1rem; }
.endpoint h3 { margin: 1.2rem 0 0.3rem; font-size: 1.02rem; }
.endpoint p { margin-bottom: 0.4rem; }
.problems dt { font-weight: 600; margin-top: 0.8rem; }
.problems dd { margin: 0.2rem 0 0; }
.link-list li { margin-bottom: 0.3rem; }

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
pre.curl { background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 0.4rem 0.7rem; white-space: pre-wrap; overflow-x: auto; margin: 0 0 0.6rem; }
pre.curl code { font-size: 0.88rem; overflow-wrap: normal; }
pre.curl .nobreak { white-space: nowrap; }

/* Charts: static SVG; text sizes here, geometry in the markup. */
.chart { display: block; max-width: 52rem; margin: 0.5rem 0 1.5rem; overflow: visible; font-family: inherit; }
/* Sizes are inherited, so a class on a group sizes every text in it. */
.chart { font-size: 14px; }
.chart .small { font-size: 13px; }
.chart .bar-value { font-size: 12px; }
.chart .tick { font-size: 11px; }
.chart .row-label { font-weight: 600; }
.chart .label-rest { font-size: 12px; font-weight: normal; }
.chart .bar-missing { font-size: 12px; font-style: italic; }
.legend { list-style: none; padding: 0; margin: 0.5rem 0; display: flex; flex-wrap: wrap; gap: 0.3rem 1.2rem; }
.legend li { display: flex; align-items: center; gap: 0.4rem; }
.chart .strong { font-weight: 700; }
.chart .panel-title { font-size: 13px; font-weight: 600; }
.chart .annotation { font-size: 13px; }
/* The price index: the value axis in the left padding. */
.chart-price { padding-left: 2.5rem; padding-right: 5.25rem; max-width: 52rem; }
/* The map: drawn in its own 975 x 610 frame and scaled, so label sizes are in that frame's units; a phone gets bigger ones. */
.map { display: block; width: 100%; max-width: 56rem; height: auto; margin: 0.5rem 0 1.5rem; font-family: inherit; }
.map-labels-wide text { font-size: 15px; }
.map-labels-narrow { display: none; }
.map-labels-narrow text { font-size: 33px; }
.map .strong { font-weight: 700; }

/* Footer: a few lines; the full list of links is the home page's site map. */
.site-footer { margin-top: 2.5rem; background: var(--panel); border-top: 1px solid var(--line); padding: 0.8rem 0 1rem; font-size: 0.9rem; }
.footer-note { color: var(--muted); margin: 0 0 0.4rem; max-width: 52rem; }
.footer-nav { margin: 0; }

@media (max-width: 40rem) {
  .nav { gap: 0.1rem 0.95rem; }
  .map-labels-wide { display: none; }
  .map-labels-narrow { display: inline; }
  .map .map-dot { r: 15px; }
  .table-reflow table, .table-reflow caption, .table-reflow tbody, .table-reflow tr, .table-reflow th, .table-reflow td { display: block; }
  /* The column headers move into each cell's label, but stay in the table for screen readers. */
  .table-reflow thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .table-reflow tr { border-top: 1px solid var(--line); padding: 0.5rem 0.75rem; }
  .table-reflow th, .table-reflow td { border: 0; padding: 0.1rem 0; text-align: left; }
  /* Short cells run on as a line ("Type: string  Profile CSV: #2"); a long text (class block) starts a line of its own. */
  .table-reflow td { display: inline; margin-right: 0.7rem; line-height: 1.5; }
  .table-reflow td::after { content: " "; }
  .table-reflow td.block { display: block; margin-right: 0; }
  /* A cell kept on one line is a box of its own, so the line may break before or after it. */
  .table-reflow td.num, .table-reflow td.nowrap { display: inline-block; }
  table.columns-table .both:first-child { display: inline; }
  .table-reflow tbody th { font-size: 1.02rem; margin-bottom: 0.15rem; }
  .table-reflow td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
  .table-reflow .num { text-align: left; }
  .table-reflow th, .table-reflow td, table.source-status td.margins, table.source-status tbody th, table.definitions tbody th { min-width: 0; }
  .key-figures { grid-template-columns: 1fr 1fr; gap: 0.5rem; }
  .figure { padding: 0.4rem 0.55rem 0.5rem; }
  .figure-value .big { font-size: 1.45rem; }
  .figure-context { font-size: 0.85rem; }
  .figure-meta, .figure-change { font-size: 0.8rem; }
  .scores li { grid-template-columns: 1fr auto 3.5rem; gap: 0 0.5rem; padding: 0.25rem 0; }
  .score-why { grid-column: 1 / -1; font-size: 0.85rem; line-height: 1.35; }
  .figure.has-change { grid-column: 1 / -1; }
  /*
   * The figures and the markets as cards: the header row moves into each cell's label (and stays for screen readers),
   * and a row's cells run on as a paragraph: a figure's value, the state's, the nation's, its place; a market's scores
   * and key figures.
   */
  .table-figures table, .table-figures tbody, .table-figures tr, .table-figures th,
  .table-markets table, .table-markets caption, .table-markets tbody, .table-markets tr, .table-markets th { display: block; }
  .table-markets caption { padding: 0.4rem 0.6rem; }
  .table-figures thead, .table-markets thead, .table-figures caption { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .table-figures tr, .table-markets tr { border-top: 1px solid var(--line); padding: 0.35rem 0.6rem; }
  table.figures tbody th, table.markets tbody th { border: 0; padding: 0 0 0.1rem; min-width: 0; }
  table.figures td, table.markets td { display: inline; border: 0; padding: 0; margin-right: 0.6rem; text-align: left; line-height: 1.45; font-size: 0.88rem; }
  table.figures td[data-label]::before, table.markets td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
  table.figures td.around, table.figures td.estimate { white-space: normal; }
  table.markets td { display: inline-block; white-space: nowrap; font-size: 0.82rem; margin-right: 0.5rem; }
  /* Every quarter's index: small enough that its six columns fit a phone without scrolling. */
  table.compact { font-size: 0.72rem; }
  table.compact th, table.compact td { padding: 0.2rem 0.22rem; }
  table.figures .strip { display: none; }
  .table-legend { font-size: 0.85rem; line-height: 1.4; }
  /* A fact and its term on one run of text: "Agency: U.S. Census Bureau". */
  .facts { display: block; }
  .facts > div { display: block; margin-bottom: 0.35rem; }
  .facts dt, .facts dd { display: inline; }
  .facts dt::after { content: ": "; }
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
  table, .chart, .notice, .confirm, .caveats, .definition, .source, .endpoint { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  .notice, .confirm, .caveats, thead th, .missing-row th, .missing-row td, pre.curl { background: none; }
}
`;
