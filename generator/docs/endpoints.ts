import type { DocsFile } from "../contract/address.ts";
import type { NotServedRoute } from "../contract/routes.ts";
import { exampleTarget, type AnyResource } from "../resources/resource.ts";
import type { JsonSchema } from "../resources/schema.ts";
import { count, scrollTable, section } from "./blocks.ts";
import { html, type Markup } from "./html.ts";
import { sizeOf, slugOf, type DocsResource } from "./input.ts";
import { parametersOf, REJECTED_NOTE, type ParameterDoc } from "./parameters.ts";

const OPENAPI_PATH: DocsFile = "/openapi.json";

export function endpointsSection(resources: readonly DocsResource[]): Markup {
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

/** The original's endpoints this build does not serve: a 404 that says why, listed here with the same reasons. */
export function notServedSection(notServed: readonly NotServedRoute[]): Markup {
  return section(
    "not-served",
    "Not served",
    notServed.length === 0
      ? html`<p>This build serves every endpoint of the original OpenPLZ API.</p>`
      : html`<p>These endpoints of the original OpenPLZ API answer with a 404 problem whose <code>detail</code> says that this build does not serve them, and why:</p>
<ul>${notServed.map((route) => html`<li><code>GET ${route.path}</code>: ${route.reason}.</li>`)}</ul>`,
  );
}

/** `locality (required)`, `key (path)`, `postalCode, name`: a resource's selectors in a table cell. */
function filterSummary(resource: AnyResource): Markup | string {
  const selectors = resource.selectors ?? [];
  if (selectors.length === 0) return "–";
  return html`${selectors.map((s, i) => html`${i > 0 ? ", " : ""}<code>${s.param}</code>${s.in === "path" ? " (path)" : s.required ? " (required)" : ""}`)}`;
}

export function endpointDetails({ resource, records, views }: DocsResource): Markup {
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
  const columns = new Map(resource.record.columns.map((c) => [c.path.join(".").toLowerCase(), c.header]));
  const rows = flattenSchema(resource.record.json).map(({ path, schema, optional }) => {
    const column = columns.get(path.toLowerCase());
    return html`<tr><th scope="row"><code>${path}</code></th><td>${column === undefined ? "–" : html`<code>${column}</code>`}</td><td>${schema.type === "string" ? "text" : schema.type}${optional ? ", optional" : ""}</td><td>${schema.description ?? ""}${schema.examples?.[0] === undefined ? "" : html` <span class="muted">Example: <code>${schema.examples[0]}</code></span>`}</td></tr>`;
  });
  return html`<table>
<thead><tr><th scope="col">JSON property</th><th scope="col">CSV column</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}
