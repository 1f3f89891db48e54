import { createHash } from "node:crypto";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { docsContentSecurityPolicy } from "../../generator/docs/site.ts";
import { DOCS_CSS } from "../../generator/docs/style.ts";
import { RESOURCES } from "../../generator/resources/index.ts";
import { buildFixture, FIXTURE_BUDGET } from "../support/fixture.ts";
import { client, startServer, type RawResponse, type RunningServer } from "../support/http.ts";

/** The docs page, its script and the OpenAPI document, through wrangler dev (real `_headers` semantics). */
let server: RunningServer;
let dir: string;
const get = client(() => server);
const SECURITY_HEADERS = [
  "strict-transport-security",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "permissions-policy",
];
const CATCH_ALL_CSP = "default-src 'none'; frame-ancestors 'none'";

beforeAll(async () => {
  ({ dir } = await buildFixture(FIXTURE_BUDGET));
  server = await startServer(dir);
});
afterAll(async () => server?.stop());

describe("the docs page", () => {
  it.each(["/", "/index.html"])(
    "%s is the page, with its own CSP and the common headers",
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.text).toBe(readFileSync(join(dir, "index.html"), "utf8"));
      // exactly the page's policy: the catch-all one detached, not joined to it with a comma
      expect(response.headers["content-security-policy"]).toBe(docsContentSecurityPolicy(DOCS_CSS));
      expect(response.headers["content-security-policy"]).not.toContain("unsafe-inline");
      expect(response.headers["access-control-allow-origin"]).toBe("*");
      for (const name of SECURITY_HEADERS) expect(response.headers[name], name).toBeTruthy();
    },
  );

  it.each([
    ["/docs.js", "text/javascript; charset=utf-8", "docs.js"],
    ["/openapi.json", "application/json; charset=utf-8", "openapi.json"],
  ])("%s is served as %s with the catch-all CSP", async (path, type, file) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe(type);
    expect(response.text).toBe(readFileSync(join(dir, file), "utf8"));
    expect(response.headers["content-security-policy"]).toBe(CATCH_ALL_CSP);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("answers HEAD without a body, and If-None-Match with a 304 that keeps the page's CSP", async () => {
    const page = await get("/");
    const head = await get("/", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    // A plain asset: the local asset server answers HEAD without a Content-Length.
    expect(head.headers["content-length"] ?? String(page.body.length)).toBe(
      String(page.body.length),
    );
    expect(head.headers["content-security-policy"]).toBe(page.headers["content-security-policy"]);
    const etag = page.headers["etag"] ?? "";
    expect(etag).toMatch(/^".+"$/);
    const again = await get("/", { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers["content-security-policy"]).toBe(docsContentSecurityPolicy(DOCS_CSS));
  });

  it.each([
    "/index.htm",
    "/INDEX.HTML",
    "/docs.js/",
    "/docs",
    "/openapi.yaml",
    "/downloads/nope.csv",
    "/downloads/../_headers",
    "/_headers",
    "/favicon.ico",
  ])("%s is still a 404 problem", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(response.headers["content-security-policy"]).toBe(CATCH_ALL_CSP);
  });

  // The docs are plain assets (no Worker invocation): GET and HEAD only, other methods get the
  // CDN's 405, with the common headers. A browser's GET of them needs no preflight.
  it.each(["POST", "OPTIONS"])("answers %s with the CDN's 405", async (method) => {
    for (const path of ["/", "/openapi.json"]) {
      const response = await get(
        path,
        { Origin: "https://example.org", "Access-Control-Request-Method": "GET" },
        method,
      );
      expect(response.status, path).toBe(405);
      expect(response.headers["access-control-allow-origin"], path).toBe("*");
      for (const name of SECURITY_HEADERS)
        expect(response.headers[name], `${path} ${name}`).toBeTruthy();
    }
  });

  it("is readable without JavaScript: endpoints, paging rules, sources and the downloads are in the HTML", async () => {
    const text = (await get("/")).text
      .replace(/<style>[\s\S]*?<\/style>/, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&amp;/g, "&")
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, " ");
    for (const resource of RESOURCES) expect(text).toContain(`GET ${resource.path}`);
    for (const fragment of [
      "1 to 2,147,483,647",
      "default 1",
      "1 to 50, default 50",
      "x-page",
      "x-page-size",
      "x-total-count",
      "x-total-pages",
      "format=csv",
      "Accept",
      "application/problem+json",
    ]) {
      expect(text).toContain(fragment);
    }
    for (const attribution of [
      "Geoportal Berlin / Adressen Berlin",
      "© Statistisches Bundesamt (Destatis)",
      "dl-de/by-2-0",
      "© STATISTIK AUSTRIA",
      "CC BY 4.0",
      "Bundesamt für Statistik BFS",
      "OpenPLZ API Data",
      "ODbL",
      "© OpenStreetMap contributors",
    ]) {
      expect(text).toContain(attribution);
    }
    // The downloads, from the build's manifest (the dead-link test below fetches every link).
    expect(text).toMatch(
      /Downloads Every dataset as whole files.* \/de\/Streets 1,492 JSON \d+ KiB CSV \d+ KiB .*743 localities.*\/downloads\/index\.json lists every file/,
    );
    expect(text).toContain("1,492 records in 743 localities"); // the fixture's streets, counted by the build
  });

  it("has no dead links: every link and script of its own origin answers 200", async () => {
    const html = (await get("/")).text;
    const targets = [...html.matchAll(/\s(?:href|src)="([^"#][^"]*)"/g)].map((m) =>
      (m[1] ?? "").replace(/&amp;/g, "&"),
    );
    const own = targets.filter((target) => target.startsWith("/"));
    expect(own.length).toBeGreaterThan(RESOURCES.length);
    for (const target of new Set(own)) expect((await get(target)).status, target).toBe(200);
    for (const target of targets.filter((t) => !t.startsWith("/")))
      expect(target).toMatch(/^https:\/\//);
  });
});

interface Operation {
  parameters: {
    name?: string;
    in?: string;
    $ref?: string;
    examples?: Record<string, { value: unknown }>;
  }[];
  responses: Record<
    string,
    {
      $ref?: string;
      headers?: Record<string, unknown>;
      content?: Record<
        string,
        { schema?: { type?: string; items?: { $ref?: string } }; example?: unknown }
      >;
    }
  >;
  "x-request-examples"?: { summary: string; target: string }[];
}
interface Examples {
  content: Record<string, { examples: Record<string, { value: { detail: string } }> }>;
}
interface OpenApi {
  paths: Record<string, { get: Operation }>;
  components: { schemas: Record<string, object>; responses: Record<string, Examples> };
  "x-not-served": { path: string; reason: string }[];
}

describe("the OpenAPI document", () => {
  let doc: OpenApi;
  const ajv = new Ajv2020({ allErrors: true, validateFormats: false, strict: false });
  /** A validator of a component schema, its references to other components resolved. */
  const validatorOf = (schema: object) =>
    ajv.compile({
      $id: `https://plz-static.test/${Math.random()}`,
      ...schema,
      components: doc.components,
    });
  const apiPaths = () =>
    Object.entries(doc.paths).filter(([path]) => !path.startsWith("/downloads/"));
  beforeAll(async () => {
    doc = JSON.parse((await get("/openapi.json")).text) as OpenApi;
  });

  it("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("documents every served endpoint and the downloads, and only those", () => {
    expect(
      apiPaths()
        .map(([path]) => path)
        .sort(),
    ).toEqual(RESOURCES.map((r) => r.path).sort());
    expect(Object.keys(doc.paths).filter((path) => path.startsWith("/downloads/"))).toEqual([
      "/downloads/index.json",
      "/downloads/{file}",
      "/downloads/{resource}/{file}",
      "/downloads/changes/index.json",
      "/downloads/changes/{build}/{file}",
    ]);
  });

  it("every example request answers 200 as documented: content type, paging headers, records matching the schema", async () => {
    let checked = 0;
    for (const [path, { get: operation }] of apiPaths()) {
      const ok = operation.responses["200"];
      const examples = operation["x-request-examples"] ?? [];
      expect(examples.length, path).toBeGreaterThan(0);
      for (const { target } of examples) {
        const response = await get(target);
        expect(response.status, target).toBe(200);
        const type = (response.headers["content-type"] ?? "").split(";")[0] ?? "";
        expect(Object.keys(ok?.content ?? {}), target).toContain(type);
        const paged = ok?.headers?.["x-page"] !== undefined;
        expect(response.headers["etag"], target).toMatch(/^".+"$/);
        if (paged) {
          expect(Object.keys(ok?.headers ?? {})).toEqual([
            "ETag",
            "x-page",
            "x-page-size",
            "x-total-count",
            "x-total-pages",
          ]);
          const [page, size, total, pages] = [
            "x-page",
            "x-page-size",
            "x-total-count",
            "x-total-pages",
          ].map((name) => Number(response.headers[name]));
          const query = new URL(target, "http://x").searchParams;
          expect(page, target).toBe(Number(query.get("page") ?? 1));
          expect(size, target).toBe(Number(query.get("pageSize") ?? 50));
          expect(total, target).toBeGreaterThan(0);
          expect(pages, target).toBe(Math.ceil((total ?? 0) / (size ?? 1)));
        } else {
          expect(response.headers["x-total-count"], target).toBeUndefined();
        }
        const schema = ok?.content?.["application/json"]?.schema;
        if (type === "application/json" && schema?.type === "object") {
          // The address check answers one object ({ valid, suggestions }), not a list of records.
          const validate = validatorOf(schema);
          const answer = JSON.parse(response.text) as unknown;
          expect(validate(answer) ? [] : validate.errors, target).toEqual([]);
        } else if (type === "application/json") {
          const validate = validatorOf({
            type: "array",
            items: ok?.content?.["application/json"]?.schema?.items,
          });
          const records = JSON.parse(response.text) as unknown[];
          expect(validate(records) ? [] : validate.errors, target).toEqual([]);
          expect(records.length, target).toBeGreaterThan(0);
          if (paged)
            expect(records.length).toBeLessThanOrEqual(Number(response.headers["x-page-size"]));
        } else {
          const documented = String(ok?.content?.["text/csv"]?.example ?? "");
          expect(response.text.split("\r\n")[0], target).toBe(documented.split("\r\n")[0]);
        }
        checked++;
      }
    }
    expect(checked).toBe(RESOURCES.reduce((sum, r) => sum + r.examples.length, 0));
  });

  it("shows a real record as the example: the first one of the first example request", async () => {
    for (const [path, { get: operation }] of apiPaths()) {
      const example = operation.responses["200"]?.content?.["application/json"]?.example;
      const first = operation["x-request-examples"]?.[0]?.target ?? path;
      // FullTextSearch, Suggestions and AddressCheck show none: the build does not run searches.
      if (/\/(FullTextSearch|Suggestions|AddressCheck)$/.test(path))
        expect(example, path).toBeUndefined();
      else expect(example, path).toEqual([(JSON.parse((await get(first)).text) as unknown[])[0]]);
    }
  });

  it.each([
    ["/de/Streets?locality=Berlin&pageSize=51", ["pageSize"]],
    ["/de/Streets?pageSize=5", ["locality", "name", "postalCode"]],
    ["/de/Streets?locality=Berlin&name=Alle(?=e)", ["name"]],
    ["/de/FullTextSearch?searchTerm=", ["searchTerm"]],
    ["/ch/Cantons?format=xml", ["format"]],
  ])("%s: the 400 problem matches the documented Problem schema", async (target, parameters) => {
    const response: RawResponse = await get(target);
    expect(response.status).toBe(400);
    const documented = Object.keys(doc.components.responses["BadRequest"]?.content ?? {});
    expect(documented).toEqual([(response.headers["content-type"] ?? "").split(";")[0]]);
    const validate = validatorOf(doc.components.schemas["Problem"] ?? {});
    const problem = JSON.parse(response.text) as { errors: Record<string, string[]> };
    expect(validate(problem) ? [] : validate.errors).toEqual([]);
    expect(Object.keys(problem.errors)).toEqual(parameters);
  });

  it("documents the answer to If-None-Match: every example request revalidates to a 304 with its ETag", async () => {
    for (const [path, { get: operation }] of Object.entries(doc.paths)) {
      expect(operation.parameters.map((p) => p.$ref).filter(Boolean), path).toEqual([
        "#/components/parameters/IfNoneMatch",
      ]);
      expect(operation.responses["304"]?.$ref, path).toBe("#/components/responses/NotModified");
      for (const { target } of operation["x-request-examples"] ?? []) {
        const etag = (await get(target)).headers["etag"] ?? "";
        const again = await get(target, { "If-None-Match": etag });
        expect(again.status, target).toBe(304);
        expect(again.headers["etag"], target).toBe(etag);
      }
    }
  });

  it("documents the 404s as they are answered: an endpoint not served says why, a mistyped path that it is not there", async () => {
    const examples =
      doc.components.responses["NotFound"]?.content["application/problem+json"]?.examples ?? {};
    // This build (every resource, the Swiss street directory too) serves every endpoint of the original.
    expect(doc["x-not-served"]).toEqual([]);
    expect(examples["not-served"]).toBeUndefined();
    expect(JSON.parse((await get("/de/Strets")).text)).toEqual(examples["no-such-path"]?.value);
    for (const { path, reason } of doc["x-not-served"]) {
      const response = await get(path.replace("{key}", "1"));
      expect(response.status, path).toBe(404);
      expect((JSON.parse(response.text) as { detail: string }).detail).toBe(
        `This build does not serve ${path}: ${reason}.`,
      );
    }
  });

  it("documents the 405 as it is answered, with Allow", async () => {
    const documented =
      doc.components.responses["MethodNotAllowed"]?.content["application/problem+json"]?.examples[
        "post"
      ]?.value;
    const response = await get("/de/FederalStates", {}, "POST");
    expect(response.status).toBe(405);
    expect(response.headers["allow"]).toBe("GET, HEAD, OPTIONS");
    expect(JSON.parse(response.text)).toEqual(documented);
    for (const [path, { get: operation }] of Object.entries(doc.paths))
      expect(operation.responses["405"]?.$ref, path).toBe(
        "#/components/responses/MethodNotAllowed",
      );
  });

  it("documents the downloads: the manifest matches its schema, and every example file is served as documented", async () => {
    const validate = validatorOf(doc.components.schemas["DownloadsManifest"] ?? {});
    const manifest = JSON.parse((await get("/downloads/index.json")).text) as unknown;
    expect(validate(manifest) ? [] : validate.errors).toEqual([]);
    let files = 0;
    for (const template of ["/downloads/{file}", "/downloads/{resource}/{file}"]) {
      const operation = doc.paths[template]?.get;
      const values = (name: string) =>
        Object.values(operation?.parameters.find((p) => p.name === name)?.examples ?? {}).map((e) =>
          String(e.value),
        );
      const resource = values("resource")[0] ?? "";
      for (const file of values("file")) {
        const response = await get(
          template.replace("{resource}", resource).replace("{file}", file),
        );
        expect(response.status, file).toBe(200);
        expect(Object.keys(operation?.responses["200"]?.content ?? {})).toContain(
          (response.headers["content-type"] ?? "").split(";")[0],
        );
        files++;
      }
    }
    expect(files).toBeGreaterThanOrEqual(4);
  });

  it("documents the change feed: the manifest lists it, and the feed as served matches its schema", async () => {
    const manifest = JSON.parse((await get("/downloads/index.json")).text) as {
      changeFeed?: { path: string; sha256: string };
    };
    expect(manifest.changeFeed?.path).toBe("/downloads/changes/index.json");
    const response = await get("/downloads/changes/index.json");
    expect(response.status).toBe(200);
    expect(createHash("sha256").update(response.text).digest("hex")).toBe(
      manifest.changeFeed?.sha256,
    );
    const validate = validatorOf(doc.components.schemas["ChangeFeed"] ?? {});
    const feed = JSON.parse(response.text) as unknown;
    expect(validate(feed) ? [] : validate.errors).toEqual([]);
  });
});
