import { Ajv2020 } from "ajv/dist/2020.js";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { escapeHtml, html } from "../../generator/docs/html.ts";
import { slugOf, type DocsInput } from "../../generator/docs/model.ts";
import { openApiDocument, REQUEST_EXAMPLES } from "../../generator/docs/openapi.ts";
import { docsPage, flattenSchema } from "../../generator/docs/page.ts";
import { parametersOf } from "../../generator/docs/parameters.ts";
import { buildDocs, docsContentSecurityPolicy } from "../../generator/docs/site.ts";
import { DOCS_CSS } from "../../generator/docs/style.ts";
import { streets, type FederalState, type Street } from "../../generator/resources/de.ts";
import { RESOURCES } from "../../generator/resources/index.ts";
import { exampleTarget } from "../../generator/resources/resource.ts";
import { recordSchema, type RecordSchema } from "../../generator/resources/schema.ts";
import { DOCS_FILES } from "../../generator/routes/files.ts";
import { parseHeadersFile } from "../../generator/routes/headers.ts";
import { MAX_PAGE, MAX_PAGE_SIZE } from "../../generator/routes/paging.ts";

const input: DocsInput = { version: "9.9.9", resources: RESOURCES.map((resource, i) => ({ resource, records: 100 + i, views: 1 + i })) };
const page = docsPage(input, DOCS_CSS);

describe("html template", () => {
  it.each([
    ["<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    [`a "quoted" & 'single'`, "a &quot;quoted&quot; &amp; &#39;single&#39;"],
    ["Zürich", "Zürich"],
  ])("escapes %s", (text, escaped) => {
    expect(escapeHtml(text)).toBe(escaped);
    expect(html`<p title="${text}">${text}</p>`.text).toBe(`<p title="${escaped}">${escaped}</p>`);
  });

  it("keeps nested markup and arrays of markup as they are, and drops undefined and false", () => {
    const items = ["a<b", "c"].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}</ul>${undefined}${false}`.text).toBe("<ul><li>a&lt;b</li><li>c</li></ul>");
  });
});

describe("record schemas", () => {
  it("mark exactly the optional properties of the record type as not required", () => {
    expect(streets.record.json.required).toEqual(["name", "postalCode", "locality", "municipality", "federalState"]);
    expect(streets.record.json.properties?.["municipality"]?.required).toEqual(["key", "name", "type"]);
    expect(streets.record.json.additionalProperties).toBe(false);
  });

  it("are checked against the record type at compile time", () => {
    interface T {
      a: string;
      b?: string;
      c: { k: string };
    }
    const ok = recordSchema<T>("T", "", { a: { description: "" }, b: { description: "", optional: true }, c: { description: "", properties: { k: { description: "" } } } });
    // @ts-expect-error a property of the type is not described
    recordSchema<T>("T", "", { a: { description: "" }, b: { description: "", optional: true } });
    // @ts-expect-error an optional property not marked optional
    recordSchema<T>("T", "", { a: { description: "" }, b: { description: "" }, c: { description: "", properties: { k: { description: "" } } } });
    // @ts-expect-error a property the type does not have
    recordSchema<T>("T", "", { a: { description: "" }, b: { description: "", optional: true }, c: { description: "", properties: { k: { description: "" } } }, d: { description: "" } });
    // @ts-expect-error a federal state's schema where a street's is expected
    const wrong: RecordSchema<Street> = RESOURCES[1]?.record as RecordSchema<FederalState>;
    expect(wrong).toBeDefined();
    expect(ok.json.required).toEqual(["a", "c"]);
  });

  it.each(RESOURCES.map((r) => [r.path, r] as const))("%s: every CSV column is a JSON property and every leaf property a column", (_, resource) => {
    const leaves = flattenSchema(resource.record.json)
      .filter((field) => field.schema.type !== "object")
      .map((field) => field.path.toLowerCase());
    expect(resource.columns.map((column) => column.header.toLowerCase())).toEqual(leaves);
  });
});

describe("parameters", () => {
  it("take their bounds and defaults from the paging rules the Worker validates with", () => {
    const byName = new Map(parametersOf(streets).map((p) => [p.name, p]));
    expect([...byName.keys()]).toEqual(["locality", "page", "pageSize", "format"]);
    expect(byName.get("page")?.schema).toEqual({ type: "integer", minimum: 1, maximum: MAX_PAGE, default: 1 });
    expect(byName.get("pageSize")?.schema).toEqual({ type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 });
    expect(byName.get("locality")?.required).toBe(true);
    expect(byName.get("format")?.schema).toEqual({ type: "string", enum: ["json", "csv"] });
  });

  it.each(RESOURCES.filter((r) => !r.query.paged).map((r) => [r.path, r] as const))("%s takes only format", (_, resource) => {
    expect(parametersOf(resource).map((p) => p.name)).toEqual(["format"]);
  });
});

describe("the docs page", () => {
  it.each(RESOURCES.flatMap((r) => [[r.path, `id="${slugOf(r.path)}"`] as const, ...r.examples.map((e) => [r.path, `href="${escapeHtml(exampleTarget(r, e))}"`] as const)]))(
    "%s: has %s",
    (_, fragment) => {
      expect(page).toContain(fragment);
    },
  );

  it.each([
    // the CSP allows none of the first four
    ["no inline script", /<script(?![^>]*\bsrc=)[^>]*>/],
    ["no style attribute", /\sstyle=/],
    ["no event handler attribute", /\son[a-z]+=/],
    ["no javascript: URL", /javascript:/i],
    ["no link to downloads that do not exist", /href="[^"#]*download/i],
  ])("has %s", (_, pattern) => {
    expect(page).not.toMatch(pattern);
  });

  it("allows its one stylesheet by hash", () => {
    const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? "");
    expect(styles).toHaveLength(1);
    const hash = createHash("sha256").update(styles[0] ?? "").digest("base64");
    expect(docsContentSecurityPolicy(DOCS_CSS)).toContain(`style-src 'sha256-${hash}'`);
    expect(docsContentSecurityPolicy(DOCS_CSS)).not.toContain("unsafe");
  });

  it("has unique ids, and every in-page link and label points at one", () => {
    const ids = [...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    const targets = [...page.matchAll(/href="#([^"]*)"/g), ...page.matchAll(/<label for="([^"]+)"/g), ...page.matchAll(/aria-labelledby="([^"]+)"/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(10);
    for (const target of targets) expect(ids, target).toContain(target);
  });

  it("names every data source with its attribution and licence", () => {
    for (const text of ["Geoportal Berlin / Adressen Berlin", "© Statistisches Bundesamt (Destatis)", "dl-de/by-2-0", "STATISTIK AUSTRIA", "CC BY 4.0", "Bundesamt für Statistik BFS", "OpenPLZ API Data", "ODbL", "© OpenStreetMap contributors"]) {
      expect(page).toContain(escapeHtml(text));
    }
  });
});

describe("the OpenAPI document", () => {
  const doc = openApiDocument(input) as {
    paths: Record<string, { get: { parameters: { name: string; schema: object; examples?: Record<string, { value: unknown }> }[]; [REQUEST_EXAMPLES]: { target: string }[]; responses: Record<string, { headers?: object }> } }>;
  };

  it("has every resource and nothing else, with its example requests", () => {
    expect(Object.keys(doc.paths)).toEqual(RESOURCES.map((r) => r.path));
    for (const resource of RESOURCES) {
      const get = doc.paths[resource.path]?.get;
      expect(get?.parameters.map((p) => p.name)).toEqual(parametersOf(resource).map((p) => p.name));
      expect(get?.[REQUEST_EXAMPLES].map((e) => e.target)).toEqual(resource.examples.map((e) => exampleTarget(resource, e)));
      expect(get?.responses["200"]?.headers === undefined).toBe(!resource.query.paged);
    }
  });

  it("gives parameter examples that match the parameter's schema", () => {
    const ajv = new Ajv2020();
    let checked = 0;
    for (const { get } of Object.values(doc.paths)) {
      for (const parameter of get.parameters) {
        const validate = ajv.compile(parameter.schema);
        for (const [name, example] of Object.entries(parameter.examples ?? {})) {
          expect(validate(example.value), `${parameter.name} ${name}: ${JSON.stringify(example.value)}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe("the docs files", () => {
  const docs = buildDocs(input);

  it("are all written, with a _headers rule each", () => {
    expect(Object.keys(docs.files).sort()).toEqual([...DOCS_FILES].sort());
    const parsed = parseHeadersFile(docs.headerRules);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.rules.map((r) => r.pattern).sort()).toEqual([...DOCS_FILES].sort());
    expect(docs.headerRules).toMatch(/^\/index\.html\n {2}! Content-Security-Policy\n {2}Content-Security-Policy: default-src 'none'; script-src 'self';/m);
  });

  it("include the browser script verbatim and valid JSON for OpenAPI", () => {
    expect(docs.files["/docs.js"]).toContain('element("try-form", HTMLFormElement)');
    expect(JSON.parse(docs.files["/openapi.json"])).toMatchObject({ openapi: "3.1.0", info: { version: "9.9.9" } });
  });
});
