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
form { display: grid; gap: 1rem; max-width: 40rem; }
fieldset { border: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: .75rem 1.5rem; }
fieldset:disabled { opacity: .55; }
.field { display: grid; gap: .2rem; }
input, select, button { font: inherit; padding: .35rem .5rem; color: inherit; background: var(--bg); border: 1px solid var(--muted); border-radius: 4px; }
input[type="number"] { width: 9rem; }
input[type="radio"] { margin-right: .35rem; }
button { justify-self: start; background: var(--accent); color: var(--bg); border-color: var(--accent); cursor: pointer; padding: .45rem 1.2rem; }
dl.headers { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.headers dt { font-family: ui-monospace, monospace; }
dl.headers dd { margin: 0; }
dl.values dd { font-weight: bold; }
footer { margin-top: 3rem; border-top: 1px solid var(--line); color: var(--muted); }
`.trim();
