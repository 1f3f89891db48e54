import { csvHeader, csvRow } from "../contract/csv.ts";
import { CONTENT_TYPES, PAGING_HEADERS, PROBLEM_CONTENT_TYPE } from "../contract/headers.ts";
import { internalErrorProblem, validationProblem } from "../contract/problem.ts";
import { exampleTarget } from "../resources/resource.ts";
import { countryOf, sizeOf, slugOf, type DocsInput, type DocsResource } from "./input.ts";
import { PAGING_HEADER_DOCS, parametersOf, REJECTED_NOTE } from "./parameters.ts";

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json | undefined };

/** The extension under which each operation lists its example requests (targets relative to the server). */
export const REQUEST_EXAMPLES = "x-request-examples";

const mime = (contentType: string) => contentType.split(";")[0] ?? contentType;

/** The OpenAPI 3.1 document of every served resource, from the resource definitions. */
export function openApiDocument(input: DocsInput): Json {
  return {
    openapi: "3.1.0",
    info: {
      title: "plz-static",
      version: input.version,
      summary: "Postal and regional data of Germany, Austria, Switzerland and Liechtenstein, with the paging contract of the OpenPLZ API.",
      description: [
        "Every answer is a pre-rendered file on a CDN; a small Worker maps query strings onto the files.",
        "",
        `- **Paging** (paged endpoints): \`page\` and \`pageSize\` as documented per parameter; every successful response, JSON or CSV, carries ${PAGING_HEADERS.map((h) => `\`${h}\``).join(", ")}, with \`x-total-pages = ceil(x-total-count / x-page-size)\`.`,
        "- **Formats**: JSON by default; CSV (RFC 4180, a header row with dotted column names) when `Accept` asks for `text/csv` or with `format=csv`.",
        "- **Parameters** match case-insensitively; an empty value counts as absent; a repeated parameter is a 400; unknown parameters are ignored.",
        "- **Errors**: invalid input is a 400 `application/problem+json` (RFC 9457) with `errors` keyed by parameter; unknown paths 404, other methods 405.",
        "- **HTTP**: `HEAD` works wherever `GET` does, `OPTIONS` answers CORS preflights; CORS allows any origin and exposes the paging headers; responses carry an `ETag` and answer `If-None-Match` with 304.",
        `- **Examples**: each operation lists example requests in \`${REQUEST_EXAMPLES}\` (targets relative to the server).`,
      ].join("\n"),
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/", description: "The deployment serving this document" }],
    tags: [...new Set(input.resources.map((r) => countryOf(r.resource.path)))].map((name) => ({ name })),
    paths: Object.fromEntries(input.resources.map((r) => [r.resource.path, { get: operation(r) }])),
    components: {
      schemas: {
        ...Object.fromEntries(input.resources.map(({ resource }) => [resource.record.name, resource.record.json as unknown as Json])),
        Problem: problemSchema(),
      },
      headers: Object.fromEntries(
        PAGING_HEADERS.map((name) => [name, { description: PAGING_HEADER_DOCS[name], required: true, schema: { type: "integer", minimum: name === "x-page" || name === "x-page-size" ? 1 : 0 } }]),
      ),
      responses: {
        BadRequest: problemResponse(
          "Invalid query string: a parameter out of range, not plain decimal digits, repeated, an unknown format, a parameter that is not served, or a missing required filter.",
          validationProblem({ pageSize: ["The field pageSize must be between 1 and 50."] }, "The query string has invalid parameters; see errors."),
        ),
        InternalError: problemResponse("The request could not be served.", internalErrorProblem()),
      },
    },
  };
}

function operation({ resource, records, views, sample }: DocsResource): Json {
  const paged = resource.query.paged;
  const counts = `This build serves ${sizeOf({ resource, records, views })}.`;
  return {
    operationId: `get-${slugOf(resource.path)}`.replace(/-([a-z0-9])/g, (_, ch: string) => ch.toUpperCase()),
    summary: resource.title,
    description: [resource.description, counts, paged ? "" : "Not paged: the whole list in one response, without paging headers; `page` and `pageSize` are ignored.", resource.query.unservedFilters.length === 0 ? "" : `${resource.query.unservedFilters.join(" and ")}, ${REJECTED_NOTE}`]
      .filter((line) => line !== "")
      .join(" "),
    tags: [countryOf(resource.path)],
    parameters: parametersOf(resource).map((p) => {
      const valueOf = (e: (typeof resource.examples)[number]) => (p.in === "path" ? e.path?.[p.name] : e.query[p.name]);
      const examples = resource.examples.filter((e) => valueOf(e) !== undefined);
      return {
        name: p.name,
        in: p.in,
        required: p.required,
        description: p.description,
        schema: p.schema as unknown as Json,
        ...(examples.length === 0
          ? {}
          : { examples: Object.fromEntries(examples.map((e) => [slugOf(e.summary), { summary: e.summary, value: p.schema.type === "integer" ? Number(valueOf(e)) : valueOf(e) }])) }),
      };
    }),
    responses: {
      "200": {
        description: paged ? "One page of records (an empty list past the last page or for an unknown filter value)." : "All records.",
        ...(paged ? { headers: Object.fromEntries(PAGING_HEADERS.map((name) => [name, { $ref: `#/components/headers/${name}` }])) } : {}),
        content: {
          [mime(CONTENT_TYPES.json)]: {
            schema: { type: "array", items: { $ref: `#/components/schemas/${resource.record.name}` } },
            ...(sample === undefined ? {} : { example: [sample as Json] }),
          },
          [mime(CONTENT_TYPES.csv)]: {
            schema: { type: "string", description: `RFC 4180 CSV, CRLF line ends, header row: ${resource.record.columns.map((c) => c.header).join(",")}` },
            example: csvHeader(resource.record.columns) + (sample === undefined ? "" : csvRow(resource.record.columns, sample)),
          },
        },
      },
      "304": { description: "Not Modified: If-None-Match matched the ETag." },
      "400": { $ref: "#/components/responses/BadRequest" },
      "500": { $ref: "#/components/responses/InternalError" },
    },
    [REQUEST_EXAMPLES]: resource.examples.map((e) => ({ summary: e.summary, target: exampleTarget(resource, e) })),
  };
}

function problemSchema(): Json {
  return {
    type: "object",
    title: "Problem",
    description: "RFC 9457 problem details, in the shape ASP.NET (and so the OpenPLZ clients) use.",
    required: ["type", "title", "status", "detail"],
    properties: {
      type: { type: "string", format: "uri", description: "The RFC 9110 section of the status code." },
      title: { type: "string" },
      status: { type: "integer", description: "The HTTP status code." },
      detail: { type: "string", description: "What was wrong, in a sentence." },
      errors: {
        type: "object",
        description: "For 400: messages keyed by parameter name.",
        additionalProperties: { type: "array", items: { type: "string" } },
      },
    },
  };
}

function problemResponse(description: string, example: unknown): Json {
  return { description, content: { [mime(PROBLEM_CONTENT_TYPE)]: { schema: { $ref: "#/components/schemas/Problem" }, example: example as Json } } };
}
