import type { DocsFile } from "../routes/files.ts";
import { CONTENT_TYPES, PAGING_HEADERS, PROBLEM_CONTENT_TYPE } from "../routes/headers.ts";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from "../routes/paging.ts";
import { validationProblem } from "../routes/problem.ts";
import type { Credit } from "../resources/credits.ts";
import { exampleTarget, pathParams, type AnyResource } from "../resources/resource.ts";
import type { JsonSchema } from "../resources/schema.ts";
import { DOWNLOADS_INDEX } from "../routes/downloads.ts";
import type { DownloadFile, DownloadsManifest } from "../write/downloads.ts";
import { html, trusted, type Markup } from "./html.ts";
import { sizeOf, slugOf, type DocsInput, type DocsResource } from "./model.ts";
import { PAGING_HEADER_DOCS, parametersOf, REJECTED_NOTE, type ParameterDoc } from "./parameters.ts";

/** The public paths of the page's own files. */
const DOCS_SCRIPT_PATH: DocsFile = "/docs.js";
const OPENAPI_PATH: DocsFile = "/openapi.json";

const count = (n: number) => n.toLocaleString("en");

/** The docs page: readable without JavaScript; `docs.js` adds the live form. `css` is inlined. */
export function docsPage(input: DocsInput, css: string): string {
  const resources = input.resources;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>plz-static: postal and regional data API</title>
<meta name="description" content="A static lookup API for streets, federal states, provinces, cantons and communes of Germany, Austria, Switzerland and Liechtenstein, with the OpenPLZ paging contract.">
<style>${inlineCss(css)}</style>
<script src="${DOCS_SCRIPT_PATH}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header>
<h1>plz-static</h1>
<p class="lead">A static lookup API for regional and address data of Germany, Austria, Switzerland and Liechtenstein, with the paging contract of the <a href="https://www.openplzapi.org">OpenPLZ API</a>. Every answer is a file prepared at build time and served from a CDN: no database, no server.</p>
<nav aria-label="On this page"><ul>
<li><a href="#endpoints">Endpoints</a></li><li><a href="#paging">Paging</a></li><li><a href="#formats">Formats</a></li><li><a href="#errors">Errors</a></li><li><a href="#try">Try it</a></li><li><a href="#downloads">Downloads</a></li><li><a href="#sources">Data sources and licences</a></li><li><a href="${OPENAPI_PATH}">OpenAPI document</a></li>
</ul></nav>
</header>
<main id="main">
${endpointsSection(resources)}
${pagingSection(resources)}
${formatsSection(resources)}
${errorsSection(resources)}
${tryItSection(resources)}
${downloadsSection(input.downloads)}
${sourcesSection(resources)}
</main>
<footer>
<p>Keep the attributions of <a href="#sources">the data sources</a> when you use or redistribute the data. The machine-readable description of this API: <a href="${OPENAPI_PATH}">OpenAPI 3.1</a>.</p>
</footer>
</body>
</html>
`.text;
}

/** CSS is not HTML text: it goes in verbatim (its hash is in the CSP), but must not close the element. */
function inlineCss(css: string): Markup {
  if (/<\/style/i.test(css)) throw new Error("the stylesheet must not contain </style");
  return trusted(css);
}

function section(id: string, title: string, body: Markup): Markup {
  return html`<section id="${id}" aria-labelledby="${id}-h">
<h2 id="${id}-h">${title}</h2>
${body}
</section>`;
}

function scrollTable(label: string, table: Markup): Markup {
  return html`<div class="scroll" role="region" aria-label="${label}" tabindex="0">${table}</div>`;
}

function endpointsSection(resources: readonly DocsResource[]): Markup {
  const rows = resources.map(
    ({ resource, records, views }) => html`<tr><td><a href="#${slugOf(resource.path)}"><code>GET ${resource.path}</code></a></td><td>${resource.title}</td><td>${sizeOf({ resource, records, views })}</td><td>${resource.query.paged ? "yes" : "no"}</td><td>${filterSummary(resource)}</td></tr>`,
  );
  return section(
    "endpoints",
    "Endpoints",
    html`<p>Every endpoint answers <code>GET</code> and <code>HEAD</code>, and <code>OPTIONS</code> for CORS preflights. Paths match case-insensitively and a trailing slash is accepted. The machine-readable description is the <a href="${OPENAPI_PATH}">OpenAPI 3.1 document</a>.</p>
${scrollTable(
  "Endpoints",
  html`<table>
<caption>Endpoints and the records this build serves</caption>
<thead><tr><th scope="col">Endpoint</th><th scope="col">What</th><th scope="col">Records</th><th scope="col">Paged</th><th scope="col">Filter</th></tr></thead>
<tbody>${rows}</tbody>
</table>`,
)}
${resources.map(endpointDetails)}`,
  );
}

/** `locality (required)`, `key (path)`, `postalCode, name`: a resource's selectors in a table cell. */
function filterSummary(resource: AnyResource): Markup | string {
  const selectors = resource.selectors ?? [];
  if (selectors.length === 0) return "–";
  return html`${selectors.map((s, i) => html`${i > 0 ? ", " : ""}<code>${s.param}</code>${s.in === "path" ? " (path)" : s.required ? " (required)" : ""}`)}`;
}

function endpointDetails({ resource, records, views }: DocsResource): Markup {
  const id = slugOf(resource.path);
  const rejected = resource.query.unservedFilters;
  return html`<section id="${id}" aria-labelledby="${id}-h">
<h3 id="${id}-h"><code>GET ${resource.path}</code> <span class="title">${resource.title}</span></h3>
<p>${resource.description} This build serves ${sizeOf({ resource, records, views })}${resource.query.paged ? "" : ", in one response without paging headers"}.</p>
<h4>Parameters</h4>
${scrollTable(`Parameters of ${resource.path}`, parameterTable(parametersOf(resource)))}
${rejected.length === 0 ? "" : html`<p>${rejected.map((name, i) => html`${i === 0 ? "" : i === rejected.length - 1 ? " and " : ", "}<code>${name}</code>`)}, ${REJECTED_NOTE}</p>`}
<h4>Examples</h4>
<ul>${resource.examples.map((example) => {
    const target = exampleTarget(resource, example);
    return html`<li><a href="${target}"><code>${target}</code></a>: ${example.summary}</li>`;
  })}</ul>
<h4>Record <code>${resource.record.name}</code></h4>
${scrollTable(`Fields of ${resource.record.name}`, fieldTable(resource))}
<p class="muted">Data: ${resource.credits.map((credit, i) => html`${i > 0 ? "; " : ""}${credit.attribution}`)} (<a href="#sources">sources and licences</a>).</p>
</section>`;
}

function parameterTable(parameters: readonly ParameterDoc[]): Markup {
  const rows = parameters.map((p) => {
    const type =
      p.schema.type === "integer"
        ? html`integer, ${count(p.schema.minimum)} to ${count(p.schema.maximum)}`
        : p.schema.enum !== undefined
          ? html`${p.schema.enum.map((value, i) => html`${i > 0 ? " or " : ""}<code>${value}</code>`)}`
          : "text";
    const fallback = p.schema.type === "integer" ? String(p.schema.default) : p.required ? "–" : "Accept header";
    return html`<tr><th scope="row"><code>${p.name}</code></th><td>${p.required ? "yes" : "no"}</td><td>${type}</td><td>${fallback}</td><td>${p.description}</td></tr>`;
  });
  return html`<table>
<thead><tr><th scope="col">Parameter</th><th scope="col">Required</th><th scope="col">Values</th><th scope="col">Default</th><th scope="col">Meaning</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}

/** A record schema's properties, nested ones dotted (`municipality.key`). */
export function flattenSchema(schema: JsonSchema, prefix = ""): { path: string; schema: JsonSchema; optional: boolean }[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const path = `${prefix}${name}`;
    const own = { path, schema: property, optional: !required.has(name) };
    return property.type === "object" ? [own, ...flattenSchema(property, `${path}.`)] : [own];
  });
}

function fieldTable(resource: AnyResource): Markup {
  const columns = new Map(resource.columns.map((c) => [c.header.toLowerCase(), c.header]));
  const rows = flattenSchema(resource.record.json).map(({ path, schema, optional }) => {
    const column = columns.get(path.toLowerCase());
    return html`<tr><th scope="row"><code>${path}</code></th><td>${column === undefined ? "–" : html`<code>${column}</code>`}</td><td>${schema.type === "string" ? "text" : schema.type}${optional ? ", optional" : ""}</td><td>${schema.description ?? ""}${schema.examples?.[0] === undefined ? "" : html` <span class="muted">Example: <code>${schema.examples[0]}</code></span>`}</td></tr>`;
  });
  return html`<table>
<thead><tr><th scope="col">JSON property</th><th scope="col">CSV column</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}

/** `a`, `a and b`, `a, b and c`, each as code. */
function codeList(items: readonly string[]): Markup {
  return html`${items.map((item, i) => html`${i === 0 ? "" : i === items.length - 1 ? " and " : ", "}<code>${item}</code>`)}`;
}

function pagingSection(resources: readonly DocsResource[]): Markup {
  const paged = resources.filter((r) => r.resource.query.paged).map((r) => r.resource.path);
  return section(
    "paging",
    "Paging",
    html`<p>Paged endpoints (${codeList(paged)}) take two parameters; plain decimal digits only, anything else is a 400, never clamped.</p>
<ul>
<li><code>page</code>: ${DEFAULT_PAGE} to ${count(MAX_PAGE)} (2<sup>31</sup> − 1), default ${DEFAULT_PAGE}.</li>
<li><code>pageSize</code>: 1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}. No parameters is the same request as <code>page=${DEFAULT_PAGE}&amp;pageSize=${DEFAULT_PAGE_SIZE}</code>.</li>
<li>Every successful paged response, JSON or CSV, carries four headers (readable from other origins too: CORS exposes them):
<dl class="headers">${PAGING_HEADERS.map((name) => html`<dt>${name}</dt><dd>${PAGING_HEADER_DOCS[name]}</dd>`)}</dl></li>
<li><code>x-total-pages</code> = ⌈<code>x-total-count</code> / <code>pageSize</code>⌉, 0 for an empty result: 600 records in pages of 20 are 30 pages (the original API says one page more on exact multiples).</li>
<li>A page past the end is a 200 with an empty list and the real totals. Pages are consecutive: for any page size, pages 1 to n together are the whole ordered result.</li>
<li>Parameter names match case-insensitively; an empty value counts as absent; a repeated parameter is a 400; unknown parameters are ignored.</li>
<li>Unpaged endpoints return the whole list at once, without paging headers, and ignore <code>page</code> and <code>pageSize</code>.</li>
</ul>`,
  );
}

function formatsSection(resources: readonly DocsResource[]): Markup {
  const paged = resources.find((r) => r.resource.query.paged)?.resource;
  const csvExample = paged?.examples.find((e) => e.query["format"] === "csv");
  return section(
    "formats",
    "Formats",
    html`<ul>
<li><strong>JSON</strong> (default): <code>${CONTENT_TYPES.json}</code>, the OpenPLZ record shapes in camelCase; absent values are omitted.</li>
<li><strong>CSV</strong>: <code>${CONTENT_TYPES.csv}</code> when the <code>Accept</code> header asks for <code>text/csv</code> (and does not prefer JSON), or with <code>format=csv</code>. RFC 4180: comma-separated, a header row with the dotted column names, fields quoted when they hold a comma, quote or line break, CRLF after every row. Negotiated responses carry <code>Vary: Accept</code>.${
      paged !== undefined && csvExample !== undefined ? html` Example: <a href="${exampleTarget(paged, csvExample)}"><code>${exampleTarget(paged, csvExample)}</code></a>.` : ""
    }</li>
<li>Responses carry an <code>ETag</code> and answer <code>If-None-Match</code> with 304, and <code>Cache-Control: public, max-age=3600</code>.</li>
</ul>`,
  );
}

function errorsSection(resources: readonly DocsResource[]): Markup {
  const required = resources.flatMap(({ resource }) => (resource.selectors ?? []).filter((s) => s.in === "query" && s.required).map((s) => html`a missing <code>${s.param}</code> on <code>${resource.path}</code>, `));
  const unserved = [...new Set(resources.flatMap(({ resource }) => resource.query.unservedFilters))];
  const problem = validationProblem({ pageSize: ["The field pageSize must be between 1 and 50."] }, "The query string has invalid parameters; see errors.");
  return section(
    "errors",
    "Errors",
    html`<p>Invalid input is a <strong>400</strong> with <code>Content-Type: ${PROBLEM_CONTENT_TYPE}</code>: an RFC 9457 problem with <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code> and <code>errors</code> keyed by parameter. For example <code>pageSize=51</code> gives:</p>
<pre><code>${JSON.stringify(problem, null, 2)}</code></pre>
<ul>
<li>400 as well: <code>page</code> or <code>pageSize</code> out of range or not plain digits (<code>1.5</code>, <code>10e1</code>, <code>-1</code>), a repeated parameter, <code>format</code> other than <code>json</code> or <code>csv</code>, ${required}and the filters this API does not serve (${codeList(unserved)}).</li>
<li>An unknown key or filter value (a district key that does not exist, a locality with no streets) is not an error: 200 with an empty list, <code>x-total-count: 0</code> and <code>x-total-pages: 0</code>.</li>
<li>Unknown paths are a 404 and methods other than <code>GET</code>, <code>HEAD</code> and <code>OPTIONS</code> a 405 with <code>Allow</code>, both as problems too.</li>
</ul>`,
  );
}

function tryItSection(resources: readonly DocsResource[]): Markup {
  /** Each filter's input, prefilled with the value of the first example that uses it. */
  const filters = new Map<string, string>();
  for (const { resource } of resources) {
    for (const name of pathParams(resource.path)) if (!filters.has(name)) filters.set(name, resource.examples.find((e) => e.path?.[name] !== undefined)?.path?.[name] ?? "");
    for (const name of resource.query.filters) if (!filters.has(name)) filters.set(name, resource.examples.find((e) => e.query[name] !== undefined)?.query[name] ?? "");
  }
  // Path parameters are filled into the path (`data-path`); the rest go into the query string.
  const options = resources.map(
    ({ resource }) =>
      html`<option value="${resource.path}" data-paged="${String(resource.query.paged)}" data-filters="${[...pathParams(resource.path), ...resource.query.filters].join(" ")}">GET ${resource.path} (${resource.title})</option>`,
  );
  return section(
    "try",
    "Try it",
    html`<p id="try-nojs">The live form needs JavaScript; the example links above work without it.</p>
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

function downloadsSection(downloads: DownloadsManifest | undefined): Markup {
  const datasets = (downloads?.files ?? []).filter((file) => file.filter === undefined);
  const perView = (downloads?.files ?? []).filter((file) => file.filter !== undefined && file.gzipOf === undefined);
  const endpoints = [...new Set(datasets.map((file) => file.endpoint))];
  const perViewEndpoints = [...new Set(perView.map((file) => file.endpoint))];
  const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.max(1, Math.round(bytes / 1024))} KiB`);
  const link = (file: DownloadFile | undefined) => (file === undefined ? "–" : html`<a href="${file.path}" download>${file.format.toUpperCase()}${file.gzipOf === undefined ? "" : ".gz"}</a> <small>${size(file.bytes)}</small>`);
  const rows = endpoints.flatMap((endpoint) => {
    const files = datasets.filter((file) => file.endpoint === endpoint);
    const parts = [...new Set(files.map((file) => file.part))];
    return parts.map((part) => {
      const of = (format: string, gz: boolean) => files.find((f) => f.part === part && f.format === format && (f.gzipOf !== undefined) === gz);
      const records = of("json", false)?.records ?? 0;
      return html`<tr><td><code>${endpoint}</code>${part === undefined ? "" : html` part ${part} of ${files.find((f) => f.part === part)?.parts ?? "?"}`}</td><td>${count(records)}</td><td>${link(of("json", false))}${of("json", true) === undefined ? "" : html`, ${link(of("json", true))}`}</td><td>${link(of("csv", false))}${of("csv", true) === undefined ? "" : html`, ${link(of("csv", true))}`}</td></tr>`;
    });
  });
  return section(
    "downloads",
    "Downloads",
    downloads === undefined
      ? html`<p>This build has no downloads.</p>`
      : html`<p>Every dataset as whole files, in JSON (an array of the records above) and CSV (the same columns), with a gzip copy of anything over 1 MiB. A dataset too large for one file comes in parts of at most 24 MiB, each a complete JSON array or CSV file with its header. Built ${downloads.builtAt}.</p>
${scrollTable(
  "Whole-dataset downloads",
  html`<table>
<thead><tr><th scope="col">Dataset</th><th scope="col">Records</th><th scope="col">JSON</th><th scope="col">CSV</th></tr></thead>
<tbody>${rows}</tbody>
</table>`,
)}
${perViewEndpoints.length === 0 ? "" : html`<p>One file per locality as well, for ${codeList(perViewEndpoints)}: ${count(perView.length / 2)} ${perView.length === 2 ? "locality" : "localities"}, for example <a href="${perView[0]?.path ?? "#"}"><code>${perView[0]?.path ?? ""}</code></a>.</p>`}
<p>The manifest <a href="${DOWNLOADS_INDEX}"><code>${DOWNLOADS_INDEX}</code></a> lists every file with its SHA-256, size, media type, record count, sources, licences and their dates, and the build time. Keep the attributions of <a href="#sources">the data sources</a> with the files.</p>`,
  );
}

function sourcesSection(resources: readonly DocsResource[]): Markup {
  const credits = new Map<Credit, string[]>();
  for (const { resource } of resources) for (const credit of resource.credits) credits.set(credit, [...(credits.get(credit) ?? []), resource.path]);
  const rows = [...credits].map(
    ([credit, paths]) =>
      html`<tr><td>${paths.map((path, i) => html`${i > 0 ? ", " : ""}<code>${path}</code>`)}</td><td>${credit.sourceUrl === undefined ? credit.source : html`<a href="${credit.sourceUrl}">${credit.source}</a>`}</td><td><strong>${credit.attribution}</strong></td><td>${credit.licenceUrl === undefined ? credit.licence : html`<a href="${credit.licenceUrl}">${credit.licence}</a>`}</td><td>${credit.asOf}</td></tr>`,
  );
  return section(
    "sources",
    "Data sources and licences",
    html`<p>The data is real, from these publishers. Show the attribution wherever you show or pass on the data.</p>
${scrollTable(
  "Data sources",
  html`<table>
<thead><tr><th scope="col">Endpoints</th><th scope="col">Source</th><th scope="col">Attribution</th><th scope="col">Licence</th><th scope="col">As of</th></tr></thead>
<tbody>${rows}</tbody>
</table>`,
)}`,
  );
}
