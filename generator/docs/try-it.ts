import { isSearchedStreets } from "../contract/routes.ts";
import { PAGING_HEADERS } from "../contract/headers.ts";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from "../contract/paging.ts";
import { pathParams } from "../resources/resource.ts";
import { scrollTable, section } from "./blocks.ts";
import { html, type Markup } from "./html.ts";
import type { DocsResource } from "./input.ts";

/** The "Try it" form: plain HTML, made live by `docs.js` (client.js). */
export function tryItSection(resources: readonly DocsResource[]): Markup {
  /**
   * Each filter's input, prefilled with the value of the first example that uses it; empty for the
   * Streets' optional name and postalCode (the inputs are shared by all endpoints: a locality's
   * streets would be narrowed by a name nobody typed) and for the prefix switch.
   */
  const filters = new Map<string, string>();
  const empty = new Set([
    "lastWordPrefix",
    ...resources.flatMap(({ resource }) =>
      isSearchedStreets(resource)
        ? resource.query.filters.filter((name) => name !== "locality")
        : [],
    ),
  ]);
  for (const { resource } of resources) {
    for (const name of pathParams(resource.path))
      if (!filters.has(name))
        filters.set(
          name,
          resource.examples.find((e) => e.path?.[name] !== undefined)?.path?.[name] ?? "",
        );
    for (const name of resource.query.filters)
      if (!filters.has(name))
        filters.set(
          name,
          empty.has(name)
            ? ""
            : (resource.examples.find((e) => e.query[name] !== undefined)?.query[name] ?? ""),
        );
  }
  // Path parameters are filled into the path (`data-path`); the rest go into the query string.
  const options = resources.map(
    ({ resource }) =>
      html`<option value="${resource.path}" data-paged="${String(resource.query.paged)}" data-filters="${[...pathParams(resource.path), ...resource.query.filters].join(" ")}">GET ${resource.path} (${resource.title})</option>`,
  );
  return section(
    "try",
    "Try it",
    html`<p id="try-nojs">The live form needs JavaScript; the example requests of each endpoint below are links that work without it.</p>
<form id="try-form" hidden novalidate>
<div class="field"><label for="try-endpoint">Endpoint</label>
<select id="try-endpoint" name="endpoint">${options}</select></div>
<fieldset id="try-paging"><legend>Filter and paging</legend>
${[...filters].map(([name, value]) => html`<div class="field"><label for="try-${name.toLowerCase()}">${name[0]?.toUpperCase()}${name.slice(1)}</label><input id="try-${name.toLowerCase()}" name="${name}" data-filter="${name}" value="${value}" autocomplete="off" spellcheck="false"></div>`)}
<div class="field"><label for="try-page">Page</label><input id="try-page" name="page" type="number" inputmode="numeric" min="1" max="${MAX_PAGE}" value="${DEFAULT_PAGE}"></div>
<div class="field"><label for="try-pagesize">Page size</label><input id="try-pagesize" name="pageSize" type="number" inputmode="numeric" min="1" max="${MAX_PAGE_SIZE}" value="${DEFAULT_PAGE_SIZE}"></div>
</fieldset>
<fieldset><legend>Format</legend>
<label><input type="radio" name="format" value="json" checked>JSON</label>
<label><input type="radio" name="format" value="csv">CSV</label>
</fieldset>
<button type="submit">Send request</button>
</form>
<div id="try-result" hidden>
<p id="try-status" role="status"></p>
<p>Request: <a id="try-url" href="#try"><code id="try-target"></code></a></p>
<h3>Paging headers</h3>
<dl class="headers values" id="try-headers">${PAGING_HEADERS.map((name) => html`<dt>${name}</dt><dd data-header="${name}">–</dd>`)}</dl>
<h3>Records</h3>
${scrollTable("Records of the response", html`<table id="try-table"><thead></thead><tbody></tbody></table>`)}
<details><summary>Response body</summary><pre id="try-body"></pre></details>
</div>`,
  );
}
