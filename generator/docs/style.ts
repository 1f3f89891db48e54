/**
 * The docs page's stylesheet, inlined in a `<style>` element; the page's Content-Security-Policy
 * allows exactly this text by its SHA-256 hash (no 'unsafe-inline').
 */
export const DOCS_CSS = `
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fff; --muted: #555; --line: #d0d0d0; --accent: #0b57d0; --code: #f3f3f3; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8e8e8; --bg: #151515; --muted: #b0b0b0; --line: #444; --accent: #8ab4f8; --code: #262626; } }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0 auto; max-width: 72rem; padding: 0 1rem 3rem; font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, [tabindex]:focus-visible, summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999rem; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; }
header { border-bottom: 1px solid var(--line); margin-bottom: 1.5rem; }
h1 { margin: 1.5rem 0 .25rem; font-size: 2rem; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { margin-top: 2rem; }
h3 .title { font-weight: normal; color: var(--muted); }
.lead { font-size: 1.1rem; max-width: 48rem; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; padding: 0; list-style: none; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .92em; }
code { background: var(--code); padding: .05em .3em; border-radius: 3px; overflow-wrap: anywhere; }
pre { background: var(--code); padding: .75rem; overflow: auto; max-height: 28rem; }
pre code { background: none; padding: 0; }
table code { white-space: nowrap; overflow-wrap: normal; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
caption { text-align: left; color: var(--muted); padding-bottom: .25rem; }
th, td { text-align: left; vertical-align: top; padding: .3rem .6rem; border-bottom: 1px solid var(--line); }
thead th { border-bottom: 2px solid var(--line); }
.muted { color: var(--muted); }
form { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; max-width: 40rem; }
fieldset { border: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: .75rem 1.5rem; min-width: 0; }
.field { display: grid; gap: .2rem; min-width: 0; }
input, select, button { font: inherit; padding: .35rem .5rem; color: inherit; background: var(--bg); border: 1px solid var(--muted); border-radius: 4px; max-width: 100%; }
select { width: 100%; }
input[type="number"] { width: 9rem; }
input:disabled, select:disabled { background: var(--code); color: var(--muted); border-style: dashed; cursor: not-allowed; }
.field:has(:disabled) label, fieldset:disabled legend { color: var(--muted); }
.field:has(:disabled) label::after { content: " (not used by this endpoint)"; font-size: .85em; }
#try { border: 1px solid var(--line); border-radius: 6px; padding: 0 1rem 1rem; }
#try > h2 { margin-top: 1rem; }
details > summary { cursor: pointer; }
details > summary > h4 { display: inline; }
input[type="radio"] { margin-right: .35rem; }
button { justify-self: start; background: var(--accent); color: var(--bg); border-color: var(--accent); cursor: pointer; padding: .45rem 1.2rem; }
dl.headers { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.headers dt { font-family: ui-monospace, monospace; }
dl.headers dd { margin: 0; }
dl.values dd { font-weight: bold; }
@media (max-width: 40rem) {
  body { padding: 0 .75rem 2rem; }
  h1 { font-size: 1.6rem; }
  table.stack, table.stack tbody, table.stack tr, table.stack th[scope="row"], table.stack td { display: block; }
  table.stack thead { position: absolute; left: -999rem; }
  table.stack caption { display: block; text-align: left; }
  table.stack tr { border-bottom: 1px solid var(--line); padding: .4rem 0; }
  table.stack th[scope="row"], table.stack td { border: 0; padding: .1rem 0; }
  table.stack td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
  table.stack code { white-space: normal; overflow-wrap: anywhere; }
}
footer { margin-top: 3rem; border-top: 1px solid var(--line); color: var(--muted); }
`.trim();
