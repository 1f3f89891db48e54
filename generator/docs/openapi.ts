import { csvHeader, csvRow } from "../contract/csv.ts";
import { ALLOWED_METHODS, CONTENT_TYPES, PAGING_HEADERS } from "../contract/headers.ts";
import { exampleTarget, type AnyResource } from "../resources/resource.ts";
import { countryOf, sizeOf, slugOf, type DocsInput, type DocsResource } from "./input.ts";
import {
  componentSchemas,
  errorResponses,
  ETAG_HEADER,
  headerRef,
  IF_NONE_MATCH,
  mime,
  problemSchema,
  schemaRef,
  sharedHeaders,
  sharedParameters,
  sharedResponses,
  type Json,
} from "./openapi-components.ts";
import { changesPaths, changesSchemas } from "./openapi-changes.ts";
import { downloadsSchemas } from "./openapi-download-schemas.ts";
import { downloadsPaths } from "./openapi-downloads.ts";
import { parametersOf, REJECTED_NOTE, type ParameterDoc } from "./parameters.ts";
import { addressCheckResponse, isAddressCheck } from "./openapi-suggest.ts";

/** The extension under which each operation lists its example requests (targets relative to the server). */
export const REQUEST_EXAMPLES = "x-request-examples";
/** The top-level extension listing the original API's endpoints this build does not serve, with the reason each. */
export const NOT_SERVED = "x-not-served";

/** The OpenAPI 3.1 document of every served resource, from the resource definitions. */
export function openApiDocument(input: DocsInput): Json {
  return {
    openapi: "3.1.0",
    info: {
      title: "plz-static",
      version: input.version,
      summary:
        "Postal and regional data of Germany, Austria, Switzerland and Liechtenstein, with the paging contract of the OpenPLZ API.",
      description: [
        "Every answer is a pre-rendered file on a CDN; a small Worker maps query strings onto the files.",
        "",
        `- **Paging** (paged endpoints): \`page\` and \`pageSize\` as documented per parameter; every successful response, JSON or CSV, carries ${PAGING_HEADERS.map((h) => `\`${h}\``).join(", ")}, with \`x-total-pages = ceil(x-total-count / x-page-size)\`.`,
        "- **Formats**: JSON by default; CSV (RFC 4180, a header row with dotted column names) when `Accept` asks for `text/csv` or with `format=csv`; a CSV value starting with `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'` so spreadsheets do not run it as a formula (JSON keeps it as is).",
        "- **Parameters** match case-insensitively; an empty value counts as absent; a repeated parameter is a 400; unknown parameters are ignored.",
        `- **Errors** are \`application/problem+json\` (RFC 9457): invalid input is a 400 with \`errors\` keyed by parameter; a path this build does not serve is a 404 (for an endpoint of the original API listed in \`${NOT_SERVED}\`, the \`detail\` says so and why); methods other than ${ALLOWED_METHODS} are a 405 with \`Allow\`.`,
        "- **Caching**: responses carry an `ETag`; send it as `If-None-Match` and an unchanged response is a 304 without a body.",
        "- **CORS**: any origin; preflights allow `Accept`, `If-None-Match`, `If-Modified-Since` and `Cache-Control`; `ETag` and the paging headers are readable.",
        "- **Downloads**: every dataset as whole files under `/downloads/`, listed with sizes and hashes in `/downloads/index.json`; what changed per build, for keeping a copy up to date, in the change feed `/downloads/changes/index.json`.",
        `- **Examples**: each operation lists example requests in \`${REQUEST_EXAMPLES}\` (targets relative to the server).`,
      ].join("\n"),
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/", description: "The deployment serving this document" }],
    tags: [
      ...new Set(input.resources.map((r) => countryOf(r.resource.path))),
      ...(input.downloads === undefined ? [] : ["Downloads"]),
    ].map((name) => ({ name })),
    paths: {
      ...Object.fromEntries(input.resources.map((r) => [r.resource.path, { get: operation(r) }])),
      ...(input.downloads === undefined
        ? {}
        : { ...downloadsPaths(input.downloads), ...changesPaths() }),
    },
    components: {
      schemas: {
        ...componentSchemas(input.resources.map(({ resource }) => resource.record)),
        Problem: problemSchema(),
        ...(input.downloads === undefined ? {} : { ...downloadsSchemas(), ...changesSchemas() }),
      },
      headers: sharedHeaders(),
      parameters: sharedParameters(),
      responses: sharedResponses(input.notServed),
    },
    [NOT_SERVED]: input.notServed.map(({ path, reason }) => ({ path, reason })),
  };
}

function operation({ resource, records, views, sample, exampleViews }: DocsResource): Json {
  const paged = resource.query.paged;
  const counts = `This build serves ${sizeOf({ resource, records, views })}.`;
  return {
    operationId: `get-${slugOf(resource.path)}`.replace(/-([a-z0-9])/g, (_, ch: string) =>
      ch.toUpperCase(),
    ),
    summary: resource.title,
    description: [
      resource.description,
      counts,
      paged
        ? ""
        : isAddressCheck(resource)
          ? "Not paged: one JSON object, without paging headers; `page` and `pageSize` are ignored."
          : "Not paged: the whole list in one response, without paging headers; `page` and `pageSize` are ignored.",
      resource.query.unservedFilters.length === 0
        ? ""
        : `${resource.query.unservedFilters.join(" and ")}, ${REJECTED_NOTE}`,
    ]
      .filter((line) => line !== "")
      .join(" "),
    tags: [countryOf(resource.path)],
    parameters: [
      ...parametersOf(resource).map((p) =>
        parameter(p, parameterExamples(p, resource, exampleViews)),
      ),
      { $ref: `#/components/parameters/${IF_NONE_MATCH}` },
    ],
    responses: {
      "200": isAddressCheck(resource)
        ? addressCheckResponse(resource, sample)
        : {
            description: paged
              ? "One page of records (an empty list past the last page or for an unknown filter value)."
              : "All records.",
            headers: Object.fromEntries(
              [ETAG_HEADER, ...(paged ? PAGING_HEADERS : [])].map((name) => [
                name,
                headerRef(name),
              ]),
            ),
            content: {
              [mime(CONTENT_TYPES.json)]: {
                schema: { type: "array", items: schemaRef(resource.record.name) },
                ...(sample === undefined ? {} : { example: [sample as Json] }),
              },
              [mime(CONTENT_TYPES.csv)]: {
                schema: {
                  type: "string",
                  description: `RFC 4180 CSV, CRLF line ends, header row: ${resource.record.columns.map((c) => c.header).join(",")}`,
                },
                example:
                  csvHeader(resource.record.columns) +
                  (sample === undefined ? "" : csvRow(resource.record.columns, sample)),
              },
            },
          },
      ...errorResponses(true),
    },
    [REQUEST_EXAMPLES]: resource.examples.map((e) => ({
      summary: e.summary,
      target: exampleTarget(resource, e),
    })),
  };
}

function parameter(p: ParameterDoc, examples: ReadonlyMap<string, string>): Json {
  const value = (text: string) => (p.schema.type === "integer" ? Number(text) : text);
  return {
    name: p.name,
    in: p.in,
    required: p.required,
    description: p.description,
    schema: p.schema as unknown as Json,
    ...(examples.size === 0
      ? {}
      : {
          examples: Object.fromEntries(
            [...examples].map(([text, summary]) => [
              slugOf(`${summary} ${text}`),
              { summary, value: value(text) },
            ]),
          ),
        }),
  };
}

/**
 * A parameter's examples, each value once: those of the resource's example requests, then real
 * values of this build's views (a few spread over all of them), so a key is not shown three times.
 */
function parameterExamples(
  p: ParameterDoc,
  resource: AnyResource,
  exampleViews: DocsResource["exampleViews"],
): Map<string, string> {
  const examples = new Map<string, string>();
  for (const e of resource.examples) {
    const text = p.in === "path" ? e.path?.[p.name] : e.query[p.name];
    if (text !== undefined && !examples.has(text)) examples.set(text, e.summary);
  }
  for (const view of exampleViews ?? []) {
    const text = view.filter[p.name];
    if (text !== undefined && !examples.has(text))
      examples.set(
        text,
        `${view.records.toLocaleString("en")} ${view.records === 1 ? "record" : "records"} in this build`,
      );
  }
  return examples;
}
