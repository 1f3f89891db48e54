import { Ajv2020 } from "ajv/dist/2020.js";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { escapeHtml, html } from "../../generator/docs/html.ts";
import { slugOf, type DocsInput } from "../../generator/docs/input.ts";
import { openApiDocument, REQUEST_EXAMPLES } from "../../generator/docs/openapi.ts";
import { flattenSchema } from "../../generator/docs/endpoints.ts";
import { docsPage } from "../../generator/docs/page.ts";
import { parametersOf } from "../../generator/docs/parameters.ts";
import { buildDocs, docsContentSecurityPolicy } from "../../generator/docs/site.ts";
import { DOCS_CSS } from "../../generator/docs/style.ts";
import { streets, type FederalState, type Street } from "../../generator/resources/de.ts";
import { RESOURCES } from "../../generator/resources/index.ts";
import { notServedRoutes } from "../../generator/resources/original.ts";
import { exampleTarget } from "../../generator/resources/resource.ts";
import { recordSchema, summary, type RecordSchema } from "../../generator/resources/schema.ts";
import { componentSchemas } from "../../generator/docs/openapi-components.ts";
import { DOCS_FILES, DOCS_ROUTES } from "../../generator/contract/address.ts";
import { parseHeadersFile } from "../../generator/contract/headers.ts";
import { MAX_PAGE, MAX_PAGE_SIZE } from "../../generator/contract/paging.ts";

const input: DocsInput = {
  version: "9.9.9",
  resources: RESOURCES.map((resource, i) => ({ resource, records: 100 + i, views: 1 + i })),
  notServed: notServedRoutes(RESOURCES.map((r) => r.path)),
};
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
    expect(html`<ul>${items}</ul>${undefined}${false}`.text).toBe(
      "<ul><li>a&lt;b</li><li>c</li></ul>",
    );
  });
});

/** The CSV columns are derived from the JSON schema: these are OpenPLZ's header names, pinned. */
const CSV_HEADERS: readonly (readonly [string, string])[] = [
  [
    "/de/Streets",
    "Name,PostalCode,Locality,Borough,Suburb,Municipality.Key,Municipality.Name,Municipality.Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name",
  ],
  [
    "/de/FullTextSearch",
    "Name,PostalCode,Locality,Borough,Suburb,Municipality.Key,Municipality.Name,Municipality.Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name",
  ],
  [
    "/de/Suggestions",
    "Name,PostalCode,Locality,Borough,Suburb,Municipality.Key,Municipality.Name,Municipality.Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name",
  ],
  [
    "/de/AddressCheck",
    "Name,PostalCode,Locality,Borough,Suburb,Municipality.Key,Municipality.Name,Municipality.Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name",
  ],
  ["/de/FederalStates", "Key,Name,SeatOfGovernment"],
  [
    "/de/FederalStates/{key}/GovernmentRegions",
    "Key,Name,FederalState.Key,FederalState.Name,AdministrativeHeadquarters",
  ],
  [
    "/de/FederalStates/{key}/Districts",
    "Key,Name,Type,GovernmentRegion.Key,GovernmentRegion.Name,FederalState.Key,FederalState.Name,AdministrativeHeadquarters",
  ],
  [
    "/de/GovernmentRegions/{key}/Districts",
    "Key,Name,Type,GovernmentRegion.Key,GovernmentRegion.Name,FederalState.Key,FederalState.Name,AdministrativeHeadquarters",
  ],
  [
    "/de/FederalStates/{key}/MunicipalAssociations",
    "Key,Name,Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name,AdministrativeHeadquarters",
  ],
  [
    "/de/GovernmentRegions/{key}/MunicipalAssociations",
    "Key,Name,Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name,AdministrativeHeadquarters",
  ],
  [
    "/de/Districts/{key}/MunicipalAssociations",
    "Key,Name,Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name,AdministrativeHeadquarters",
  ],
  [
    "/de/FederalStates/{key}/Municipalities",
    "Key,Name,Type,PostalCode,MultiplePostalCodes,Association.Key,Association.Name,Association.Type,District.Key,District.Name,District.Type,GovernmentRegion.Key,GovernmentRegion.Name,FederalState.Key,FederalState.Name",
  ],
  [
    "/de/GovernmentRegions/{key}/Municipalities",
    "Key,Name,Type,PostalCode,MultiplePostalCodes,Association.Key,Association.Name,Association.Type,District.Key,District.Name,District.Type,GovernmentRegion.Key,GovernmentRegion.Name,FederalState.Key,FederalState.Name",
  ],
  [
    "/de/Districts/{key}/Municipalities",
    "Key,Name,Type,PostalCode,MultiplePostalCodes,Association.Key,Association.Name,Association.Type,District.Key,District.Name,District.Type,GovernmentRegion.Key,GovernmentRegion.Name,FederalState.Key,FederalState.Name",
  ],
  [
    "/de/Localities",
    "PostalCode,Name,Municipality.Key,Municipality.Name,Municipality.Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name",
  ],
  [
    "/de/FederalStates/{key}/Localities",
    "PostalCode,Name,Municipality.Key,Municipality.Name,Municipality.Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name",
  ],
  [
    "/de/GovernmentRegions/{key}/Localities",
    "PostalCode,Name,Municipality.Key,Municipality.Name,Municipality.Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name",
  ],
  [
    "/de/Districts/{key}/Localities",
    "PostalCode,Name,Municipality.Key,Municipality.Name,Municipality.Type,District.Key,District.Name,District.Type,FederalState.Key,FederalState.Name",
  ],
  ["/at/FederalProvinces", "Key,Name"],
  [
    "/at/FederalProvinces/{key}/Districts",
    "Key,Code,Name,FederalProvince.Key,FederalProvince.Name",
  ],
  [
    "/at/FederalProvinces/{key}/Municipalities",
    "Key,Code,Name,PostalCode,MultiplePostalCodes,Status,District.Key,District.Code,District.Name,FederalProvince.Key,FederalProvince.Name",
  ],
  [
    "/at/Districts/{key}/Municipalities",
    "Key,Code,Name,PostalCode,MultiplePostalCodes,Status,District.Key,District.Code,District.Name,FederalProvince.Key,FederalProvince.Name",
  ],
  [
    "/at/Streets",
    "Key,Name,PostalCode,Locality,Municipality.Key,Municipality.Code,Municipality.Name,Municipality.Status,District.Key,District.Code,District.Name,FederalProvince.Key,FederalProvince.Name",
  ],
  [
    "/at/FullTextSearch",
    "Key,Name,PostalCode,Locality,Municipality.Key,Municipality.Code,Municipality.Name,Municipality.Status,District.Key,District.Code,District.Name,FederalProvince.Key,FederalProvince.Name",
  ],
  [
    "/at/Suggestions",
    "Key,Name,PostalCode,Locality,Municipality.Key,Municipality.Code,Municipality.Name,Municipality.Status,District.Key,District.Code,District.Name,FederalProvince.Key,FederalProvince.Name",
  ],
  [
    "/at/AddressCheck",
    "Key,Name,PostalCode,Locality,Municipality.Key,Municipality.Code,Municipality.Name,Municipality.Status,District.Key,District.Code,District.Name,FederalProvince.Key,FederalProvince.Name",
  ],
  [
    "/at/Localities",
    "Key,PostalCode,Name,Municipality.Key,Municipality.Code,Municipality.Name,Municipality.Status,District.Key,District.Code,District.Name,FederalProvince.Key,FederalProvince.Name",
  ],
  [
    "/at/FederalProvinces/{key}/Localities",
    "Key,PostalCode,Name,Municipality.Key,Municipality.Code,Municipality.Name,Municipality.Status,District.Key,District.Code,District.Name,FederalProvince.Key,FederalProvince.Name",
  ],
  [
    "/at/Districts/{key}/Localities",
    "Key,PostalCode,Name,Municipality.Key,Municipality.Code,Municipality.Name,Municipality.Status,District.Key,District.Code,District.Name,FederalProvince.Key,FederalProvince.Name",
  ],
  ["/ch/Cantons", "Key,HistoricalCode,Name,ShortName"],
  [
    "/ch/Cantons/{key}/Districts",
    "Key,HistoricalCode,Name,ShortName,Canton.Key,Canton.Name,Canton.ShortName",
  ],
  [
    "/ch/Cantons/{key}/Communes",
    "Key,HistoricalCode,Name,ShortName,District.Key,District.Name,District.ShortName,Canton.Key,Canton.Name,Canton.ShortName",
  ],
  [
    "/ch/Districts/{key}/Communes",
    "Key,HistoricalCode,Name,ShortName,District.Key,District.Name,District.ShortName,Canton.Key,Canton.Name,Canton.ShortName",
  ],
  [
    "/ch/Localities",
    "PostalCode,Name,Commune.Key,Commune.Name,Commune.ShortName,District.Key,District.Name,District.ShortName,Canton.Key,Canton.Name,Canton.ShortName,Latitude,Longitude",
  ],
  [
    "/ch/Cantons/{key}/Localities",
    "PostalCode,Name,Commune.Key,Commune.Name,Commune.ShortName,District.Key,District.Name,District.ShortName,Canton.Key,Canton.Name,Canton.ShortName,Latitude,Longitude",
  ],
  [
    "/ch/Districts/{key}/Localities",
    "PostalCode,Name,Commune.Key,Commune.Name,Commune.ShortName,District.Key,District.Name,District.ShortName,Canton.Key,Canton.Name,Canton.ShortName,Latitude,Longitude",
  ],
  [
    "/ch/Streets",
    "Key,Name,PostalCode,Locality,Commune.Key,Commune.Name,Commune.ShortName,District.Key,District.Name,District.ShortName,Canton.Key,Canton.Name,Canton.ShortName,Status",
  ],
  [
    "/ch/FullTextSearch",
    "Key,Name,PostalCode,Locality,Commune.Key,Commune.Name,Commune.ShortName,District.Key,District.Name,District.ShortName,Canton.Key,Canton.Name,Canton.ShortName,Status",
  ],
  [
    "/ch/Suggestions",
    "Key,Name,PostalCode,Locality,Commune.Key,Commune.Name,Commune.ShortName,District.Key,District.Name,District.ShortName,Canton.Key,Canton.Name,Canton.ShortName,Status",
  ],
  [
    "/ch/AddressCheck",
    "Key,Name,PostalCode,Locality,Commune.Key,Commune.Name,Commune.ShortName,District.Key,District.Name,District.ShortName,Canton.Key,Canton.Name,Canton.ShortName,Status",
  ],
  ["/li/Localities", "PostalCode,Name,Commune.Key,Commune.Name,Latitude,Longitude"],
  ["/li/Streets", "Key,Name,PostalCode,Locality,Commune.Key,Commune.Name,Status"],
  ["/li/FullTextSearch", "Key,Name,PostalCode,Locality,Commune.Key,Commune.Name,Status"],
  ["/li/Suggestions", "Key,Name,PostalCode,Locality,Commune.Key,Commune.Name,Status"],
  ["/li/AddressCheck", "Key,Name,PostalCode,Locality,Commune.Key,Commune.Name,Status"],
  ["/li/Communes", "Key,Name,ElectoralDistrict"],
];

describe("record schemas", () => {
  it("mark exactly the optional properties of the record type as not required", () => {
    expect(streets.record.json.required).toEqual([
      "name",
      "postalCode",
      "locality",
      "municipality",
      "federalState",
    ]);
    expect(streets.record.json.properties?.["municipality"]?.required).toEqual([
      "key",
      "name",
      "type",
    ]);
    expect(streets.record.json.additionalProperties).toBe(false);
  });

  it("are checked against the record type at compile time (the @ts-expect-error lines fail tsc if a mistake compiles)", () => {
    interface T {
      a: string;
      b?: string;
      c: { k: string };
    }
    const ok = recordSchema<T>("T", "", {
      a: { description: "" },
      b: { description: "", optional: true },
      c: { description: "", properties: { k: { description: "" } } },
    });
    // @ts-expect-error a property of the type is not described
    recordSchema<T>("T", "", { a: { description: "" }, b: { description: "", optional: true } });
    recordSchema<T>("T", "", {
      a: { description: "" },
      // @ts-expect-error an optional property not marked optional
      b: { description: "" },
      c: { description: "", properties: { k: { description: "" } } },
    });
    recordSchema<T>("T", "", {
      a: { description: "" },
      b: { description: "", optional: true },
      c: { description: "", properties: { k: { description: "" } } },
      // @ts-expect-error a property the type does not have
      d: { description: "" },
    });
    // @ts-expect-error a federal state's schema where a street's is expected
    ((schema: RecordSchema<FederalState>): RecordSchema<Street> => schema)(
      RESOURCES[1]?.record as RecordSchema<FederalState>,
    );
    expect(ok.json.required).toEqual(["a", "c"]);
    expect(ok.columns).toEqual([
      { header: "A", path: ["a"] },
      { header: "B", path: ["b"] },
      { header: "C.K", path: ["c", "k"] },
    ]);
  });

  it.each(CSV_HEADERS)("%s: CSV header %s", (path, header) => {
    const resource = RESOURCES.find((r) => r.path === path);
    expect(resource?.record.columns.map((column) => column.header).join(",")).toBe(header);
    const leaves = flattenSchema(resource?.record.json ?? { type: "object" }).filter(
      (field) => field.schema.type !== "object",
    );
    expect(resource?.record.columns.map((column) => column.path.join("."))).toEqual(
      leaves.map((field) => field.path),
    );
  });

  it("pins the CSV header of every resource", () => {
    expect(CSV_HEADERS.map(([path]) => path)).toEqual(RESOURCES.map((r) => r.path));
  });
});

describe("parameters", () => {
  it("take their bounds and defaults from the paging rules the Worker validates with", () => {
    const byName = new Map(parametersOf(streets).map((p) => [p.name, p]));
    expect([...byName.keys()]).toEqual([
      "locality",
      "name",
      "postalCode",
      "page",
      "pageSize",
      "format",
    ]);
    expect(byName.get("page")?.schema).toEqual({
      type: "integer",
      minimum: 1,
      maximum: MAX_PAGE,
      default: 1,
    });
    expect(byName.get("pageSize")?.schema).toEqual({
      type: "integer",
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: 50,
    });
    // Streets take locality, name and postalCode in any combination, at least one.
    expect([
      byName.get("locality")?.required,
      byName.get("name")?.required,
      byName.get("postalCode")?.required,
    ]).toEqual([false, false, false]);
    expect(byName.get("format")?.schema).toEqual({ type: "string", enum: ["json", "csv"] });
  });

  it.each(
    RESOURCES.filter((r) => !r.query.paged && r.search === undefined).map(
      (r) => [r.path, r] as const,
    ),
  )("%s takes only format", (_, resource) => {
    expect(parametersOf(resource).map((p) => p.name)).toEqual(["format"]);
  });
});

describe("the address check's parameters", () => {
  it.each(
    RESOURCES.filter((r) => r.search?.role === "addressCheck").map((r) => [r.path, r] as const),
  )("%s takes a street, a postal code and a locality, and answers JSON only", (_, resource) => {
    const byName = new Map(parametersOf(resource).map((p) => [p.name, p]));
    expect([...byName.keys()]).toEqual(["street", "postalCode", "locality", "format"]);
    expect(byName.get("street")?.required).toBe(true);
    expect(byName.get("format")?.schema).toEqual({ type: "string", enum: ["json"] });
  });
});

describe("the docs page", () => {
  it.each(
    RESOURCES.flatMap((r) => [
      [r.path, `id="${slugOf(r.path)}"`] as const,
      ...r.examples.map((e) => [r.path, `href="${escapeHtml(exampleTarget(r, e))}"`] as const),
    ]),
  )("%s: has %s", (_, fragment) => {
    expect(page).toContain(fragment);
  });

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
    const hash = createHash("sha256")
      .update(styles[0] ?? "")
      .digest("base64");
    expect(docsContentSecurityPolicy(DOCS_CSS)).toContain(`style-src 'sha256-${hash}'`);
    expect(docsContentSecurityPolicy(DOCS_CSS)).not.toContain("unsafe");
  });

  it("has unique ids, and every in-page link and label points at one", () => {
    const ids = [...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    const targets = [
      ...page.matchAll(/href="#([^"]*)"/g),
      ...page.matchAll(/<label for="([^"]+)"/g),
      ...page.matchAll(/aria-labelledby="([^"]+)"/g),
    ].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(10);
    for (const target of targets) expect(ids, target).toContain(target);
  });

  it("names every data source with its attribution and licence", () => {
    for (const text of [
      "Geoportal Berlin / Adressen Berlin",
      "© Statistisches Bundesamt (Destatis)",
      "dl-de/by-2-0",
      "STATISTIK AUSTRIA",
      "CC BY 4.0",
      "Bundesamt für Statistik BFS",
      "OpenPLZ API Data",
      "ODbL",
      "© OpenStreetMap contributors",
    ]) {
      expect(page).toContain(escapeHtml(text));
    }
  });
});

describe("the OpenAPI document", () => {
  type Parameter = {
    name?: string;
    $ref?: string;
    schema?: object;
    examples?: Record<string, { value: unknown }>;
  };
  type Doc = {
    paths: Record<
      string,
      {
        get: {
          parameters: Parameter[];
          [REQUEST_EXAMPLES]: { target: string }[];
          responses: Record<string, { headers?: object; $ref?: string }>;
        };
      }
    >;
    components: {
      schemas: Record<
        string,
        { properties?: Record<string, { type?: string; $ref?: string; properties?: object }> }
      >;
    };
  };
  const doc = openApiDocument(input) as Doc;
  const ownParameters = (parameters: readonly Parameter[]) =>
    parameters.filter((p) => p.$ref === undefined);

  it("has every resource and nothing else, with its example requests, ETag and If-None-Match", () => {
    expect(Object.keys(doc.paths)).toEqual(RESOURCES.map((r) => r.path));
    for (const resource of RESOURCES) {
      const get = doc.paths[resource.path]?.get;
      expect(ownParameters(get?.parameters ?? []).map((p) => p.name)).toEqual(
        parametersOf(resource).map((p) => p.name),
      );
      expect(get?.parameters.at(-1)).toEqual({ $ref: "#/components/parameters/IfNoneMatch" });
      expect(get?.[REQUEST_EXAMPLES].map((e) => e.target)).toEqual(
        resource.examples.map((e) => exampleTarget(resource, e)),
      );
      expect(Object.keys(get?.responses["200"]?.headers ?? {})).toEqual(
        resource.query.paged
          ? ["ETag", "x-page", "x-page-size", "x-total-count", "x-total-pages"]
          : ["ETag"],
      );
      expect(Object.keys(get?.responses ?? {}).sort()).toEqual([
        "200",
        "304",
        "400",
        "404",
        "405",
        "500",
      ]);
    }
  });

  it("gives parameter examples that match the parameter's schema", () => {
    const ajv = new Ajv2020();
    let checked = 0;
    for (const { get } of Object.values(doc.paths)) {
      for (const parameter of ownParameters(get.parameters)) {
        const validate = ajv.compile(parameter.schema ?? {});
        for (const [name, example] of Object.entries(parameter.examples ?? {})) {
          expect(
            validate(example.value),
            `${parameter.name} ${name}: ${JSON.stringify(example.value)}`,
          ).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5);
  });

  it("names every nested object: records refer to summaries (MunicipalitySummary, …) with the use's description", () => {
    const records = new Set(RESOURCES.map((r) => r.record.name));
    const refs = new Set<string>();
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      for (const [property, value] of Object.entries(schema.properties ?? {})) {
        expect(value.properties, `${name}.${property} is an anonymous object`).toBeUndefined();
        if (value.$ref !== undefined) refs.add(value.$ref.replace("#/components/schemas/", ""));
      }
    }
    for (const ref of refs) expect(doc.components.schemas[ref], ref).toBeDefined();
    expect([...refs].filter((ref) => !records.has(ref)).sort()).toEqual([
      "AtDistrictSummary",
      "AtMunicipalitySummary",
      "CantonSummary",
      "ChCommuneSummary",
      "ChDistrictSummary",
      "DistrictSummary",
      "FederalProvinceSummary",
      "FederalStateSummary",
      "GovernmentRegionSummary",
      "LiCommuneSummary",
      "MunicipalAssociationSummary",
      "MunicipalitySummary",
    ]);
    expect(doc.components.schemas["Street"]?.properties?.["municipality"]).toEqual({
      $ref: "#/components/schemas/MunicipalitySummary",
      description: "The municipality (Gemeinde) from GV100AD.",
    });
  });

  it.each([
    [
      "the same group under one name",
      summary<{ k: string }>("KSummary", { k: { description: "k" } }),
      true,
    ],
    ["another group under the same name", { k: { description: "another k" } }, false],
  ] as const)("accepts %s: %s", (_, other, ok) => {
    const shared = summary<{ k: string }>("KSummary", { k: { description: "k" } });
    const a = recordSchema<{ x: { k: string } }>("A", "", {
      x: { description: "", properties: shared },
    });
    const b = recordSchema<{ y: { k: string } }>("B", "", {
      y: { description: "", properties: summary<{ k: string }>("KSummary", other) },
    });
    const hoist = () => componentSchemas([a, b]);
    if (ok) expect(Object.keys(hoist())).toEqual(["A", "B", "KSummary"]);
    else expect(hoist).toThrow("two different schemas are named KSummary");
  });

  it("varies the examples of a key: the example requests' key once, then keys of real views of the build", () => {
    const resource = RESOURCES.find((r) => r.path === "/de/Districts/{key}/Municipalities");
    if (resource === undefined) throw new Error("no resource");
    const exampleViews = [
      { filter: { key: "01001" }, records: 1 },
      { filter: { key: "09189" }, records: 37 },
      { filter: { key: "16077" }, records: 30 },
    ];
    const varied = openApiDocument({
      ...input,
      resources: [{ resource, records: 68, views: 3, exampleViews }],
    }) as Doc;
    const key = varied.paths[resource.path]?.get.parameters.find((p) => p.name === "key");
    expect(Object.values(key?.examples ?? {}).map((e) => e.value)).toEqual([
      "09189",
      "01001",
      "16077",
    ]);
  });

  it("lists the endpoints not served, with their reasons", () => {
    expect((doc as unknown as Record<string, unknown>)["x-not-served"]).toEqual(input.notServed);
  });
});

describe("the docs files", () => {
  const docs = buildDocs({ ...input, script: "// the docs page's script\n" });

  it("are all written, with a _headers rule each", () => {
    expect(Object.keys(docs.files).sort()).toEqual([...DOCS_FILES].sort());
    const parsed = parseHeadersFile(docs.headerRules);
    if (!parsed.ok) throw new Error(parsed.message);
    // one rule per public path: the page is served at / too (see _redirects)
    expect(parsed.rules.map((r) => r.pattern).sort()).toEqual([...DOCS_ROUTES.keys()].sort());
    expect(parsed.rules.find((r) => r.pattern === "/")?.headers).toEqual(
      parsed.rules.find((r) => r.pattern === "/index.html")?.headers,
    );
    expect(docs.headerRules).toMatch(
      /^\/index\.html\n {2}! Content-Security-Policy\n {2}Content-Security-Policy: default-src 'none'; script-src 'self';/m,
    );
  });

  it("include the browser script verbatim and valid JSON for OpenAPI", () => {
    expect(docs.files["/docs.js"]).toBe("// the docs page's script\n");
    expect(JSON.parse(docs.files["/openapi.json"])).toMatchObject({
      openapi: "3.1.0",
      info: { version: "9.9.9" },
    });
  });
});
