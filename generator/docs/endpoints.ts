import type { DocsFile } from "../contract/address.ts";
import { isFullTextSearch, isSearchedStreets, type NotServedRoute } from "../contract/routes.ts";
import { exampleTarget, type AnyResource } from "../resources/resource.ts";
import type { JsonSchema } from "../resources/schema.ts";
import { count, dataTable, section } from "./blocks.ts";
import { html, type Markup } from "./html.ts";
import { sizeOf, slugOf, type DocsResource } from "./input.ts";
import { parametersOf, REJECTED_NOTE, type ParameterDoc } from "./parameters.ts";

const OPENAPI_PATH: DocsFile = "/openapi.json";

export function endpointsSection(resources: readonly DocsResource[]): Markup {
  const rows = resources.map(({ resource, records, views }) => [
    html`<a href="#${slugOf(resource.path)}"><code>GET ${resource.path}</code></a>`,
    resource.title,
    sizeOf({ resource, records, views }),
    resource.query.paged ? "yes" : "no",
    filterSummary(resource),
  ]);
  return section(
    "endpoints",
    "Endpoints",
    html`<p>Every endpoint answers <code>GET</code> and <code>HEAD</code>, and <code>OPTIONS</code> for CORS preflights. Paths match case-insensitively and a trailing slash is accepted. The machine-readable description is the <a href="${OPENAPI_PATH}">OpenAPI 3.1 document</a>.</p>
${dataTable("Endpoints", ["Endpoint", "What", "Records", "Paged", "Filter"], rows, { caption: "Endpoints and the records this build serves" })}
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
  if (isSearchedStreets(resource))
    return html`<code>locality</code>, <code>name</code>, <code>postalCode</code> (at least one)`;
  if (isFullTextSearch(resource))
    return html`<code>searchTerm</code> (required), <code>lastWordPrefix</code>`;
  if (resource.search?.role === "suggestions") return html`<code>searchTerm</code> (required)`;
  if (resource.search?.role === "addressCheck")
    return html`<code>street</code> (required), <code>postalCode</code>, <code>locality</code> (at least one)`;
  if (resource.patterns !== undefined)
    return html`${resource.patterns.filters.map((f, i) => html`${i > 0 ? ", " : ""}<code>${f.param}</code>`)} (regular expressions, at least one)`;
  if (selectors.length === 0) return "–";
  return html`${selectors.map((s, i) => html`${i > 0 ? ", " : ""}<code>${s.param}</code>${s.in === "path" ? " (path)" : s.required ? " (required)" : ""}`)}`;
}

export function endpointDetails({ resource, records, views }: DocsResource): Markup {
  const id = slugOf(resource.path);
  const rejected = resource.query.unservedFilters;
  const parameters = parametersOf(resource);
  const fields = flattenSchema(resource.record.json);
  return html`<section id="${id}" aria-labelledby="${id}-h">
<h3 id="${id}-h"><code>GET ${resource.path}</code> <span class="title">${resource.title}</span></h3>
<p>${resource.description} This build serves ${sizeOf({ resource, records, views })}${resource.query.paged ? "" : ", in one response without paging headers"}.</p>
<h4>Examples</h4>
<ul>${resource.examples.map((example) => {
    const target = exampleTarget(resource, example);
    return html`<li><a href="${target}"><code>${target}</code></a>: ${example.summary}</li>`;
  })}</ul>
<details><summary><h4>Parameters: ${parameters.map((p, i) => html`${i > 0 ? ", " : ""}<code>${p.name}</code>`)}</h4></summary>
${parameterTable(resource.path, parameters)}
${rejected.length === 0 ? "" : html`<p>${rejected.map((name, i) => html`${i === 0 ? "" : i === rejected.length - 1 ? " and " : ", "}<code>${name}</code>`)}, ${REJECTED_NOTE}</p>`}
</details>
<details><summary><h4>Record <code>${resource.record.name}</code>: ${count(fields.length)} fields</h4></summary>
${fieldTable(resource, fields)}
</details>
<p class="muted">Data: ${resource.credits.map((credit, i) => html`${i > 0 ? "; " : ""}${credit.attribution}`)} (<a href="#sources">sources and licences</a>).</p>
</section>`;
}

function parameterTable(path: string, parameters: readonly ParameterDoc[]): Markup {
  const rows = parameters.map((p) => {
    const type =
      p.schema.type === "integer"
        ? html`integer, ${count(p.schema.minimum)} to ${count(p.schema.maximum)}`
        : p.schema.enum !== undefined
          ? html`${p.schema.enum.map((value, i) => html`${i > 0 ? " or " : ""}<code>${value}</code>`)}`
          : p.schema.maxLength === undefined
            ? "text"
            : html`text, at most ${count(p.schema.maxLength)} characters`;
    const fallback =
      p.schema.type === "integer" ? String(p.schema.default) : p.required ? "–" : "Accept header";
    return [html`<code>${p.name}</code>`, p.required ? "yes" : "no", type, fallback, p.description];
  });
  return dataTable(
    `Parameters of ${path}`,
    ["Parameter", "Required", "Values", "Default", "Meaning"],
    rows,
    { rowHeader: true },
  );
}

/** A record schema's properties, nested ones dotted (`municipality.key`). */
export function flattenSchema(
  schema: JsonSchema,
  prefix = "",
): { path: string; schema: JsonSchema; optional: boolean }[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const path = `${prefix}${name}`;
    const own = { path, schema: property, optional: !required.has(name) };
    return property.type === "object" ? [own, ...flattenSchema(property, `${path}.`)] : [own];
  });
}

function fieldTable(resource: AnyResource, fields: ReturnType<typeof flattenSchema>): Markup {
  const columns = new Map(
    resource.record.columns.map((c) => [c.path.join(".").toLowerCase(), c.header]),
  );
  const rows = fields.map(({ path, schema, optional }) => {
    const column = columns.get(path.toLowerCase());
    return [
      html`<code>${path}</code>`,
      column === undefined ? "–" : html`<code>${column}</code>`,
      `${schema.type === "string" ? "text" : schema.type}${optional ? ", optional" : ""}`,
      html`${schema.description ?? ""}${schema.examples?.[0] === undefined ? "" : html` <span class="muted">Example: <code>${schema.examples[0]}</code></span>`}`,
    ];
  });
  return dataTable(
    `Fields of ${resource.record.name}`,
    ["JSON property", "CSV column", "Type", "Meaning"],
    rows,
    { rowHeader: true },
  );
}
