import { ALLOWED_METHODS, PAGING_HEADERS, PROBLEM_CONTENT_TYPE } from "../contract/headers.ts";
import {
  internalErrorProblem,
  methodNotAllowedProblem,
  notFoundProblem,
  notServedProblem,
  validationProblem,
} from "../contract/problem.ts";
import {
  MAX_SEARCH_TERM_LENGTH,
  parseSearchRequest,
  parseStreetFilters,
  type Parsed,
} from "../contract/search/request.ts";
import { compilePattern, patternErrorMessage } from "../contract/regex/pattern.ts";
import { NO_LOCALITY_FILTER } from "../resources/localities.ts";
import type { NotServedRoute } from "../contract/routes.ts";
import type { JsonSchema } from "../resources/schema.ts";
import { PAGING_HEADER_DOCS } from "./parameters.ts";

/** The parts of the OpenAPI document every operation shares: schemas, headers, parameters, responses. */

export type Json =
  null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json | undefined };

export const mime = (contentType: string) => contentType.split(";")[0] ?? contentType;
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * The record schemas with every named nested object (`title`, see `summary`) moved into a schema
 * of its own and referenced where it is used, with the use's description: generated client types
 * then have names (`MunicipalitySummary`) instead of anonymous shapes. Two different schemas under
 * one name are an error.
 */
export function componentSchemas(
  records: readonly { readonly name: string; readonly json: JsonSchema }[],
): Record<string, Json> {
  const named = new Map<string, string>();
  const schemas: Record<string, Json> = {};
  const add = (name: string, schema: Json) => {
    const text = JSON.stringify(schema);
    const earlier = named.get(name);
    if (earlier !== undefined && earlier !== text)
      throw new Error(
        `two different schemas are named ${name}: give each nested group of fields its own name`,
      );
    named.set(name, text);
    schemas[name] = schema;
  };
  const hoist = (schema: JsonSchema): Json => {
    const properties = Object.entries(schema.properties ?? {}).map(
      ([name, property]): [string, Json] => {
        if (property.type !== "object" || property.title === undefined)
          return [name, hoist(property)];
        const { description, ...shape } = property;
        add(property.title, hoist(shape));
        return [
          name,
          { ...schemaRef(property.title), ...(description === undefined ? {} : { description }) },
        ];
      },
    );
    return {
      ...(schema as unknown as Record<string, Json>),
      ...(schema.properties === undefined ? {} : { properties: Object.fromEntries(properties) }),
    };
  };
  for (const record of records) add(record.name, hoist(record.json));
  return Object.fromEntries(
    Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

export const ETAG_HEADER = "ETag";

export function sharedHeaders(): Record<string, Json> {
  return {
    [ETAG_HEADER]: {
      description:
        "A strong validator of the response's bytes: send it as If-None-Match to revalidate (304 when unchanged). Readable from other origins (CORS exposes it).",
      required: true,
      schema: { type: "string", examples: ['"3f1c9a0be27d4c61.50.1.json"'] },
    },
    ...Object.fromEntries(
      PAGING_HEADERS.map((name) => [
        name,
        {
          description: PAGING_HEADER_DOCS[name],
          required: true,
          schema: { type: "integer", minimum: name === "x-page" || name === "x-page-size" ? 1 : 0 },
        },
      ]),
    ),
    Allow: {
      description: "The methods the path answers.",
      required: true,
      schema: { type: "string", const: ALLOWED_METHODS },
    },
  };
}

export const IF_NONE_MATCH = "IfNoneMatch";

export function sharedParameters(): Record<string, Json> {
  return {
    [IF_NONE_MATCH]: {
      name: "If-None-Match",
      in: "header",
      required: false,
      description:
        "The ETag of a response you have: when the response would be the same, the answer is 304 without a body. Allowed from other origins (the CORS preflight allows it).",
      schema: { type: "string" },
    },
  };
}

export function sharedResponses(notServed: readonly NotServedRoute[]): Record<string, Json> {
  const example = notServed[0];
  return {
    NotModified: {
      description: "Not Modified: If-None-Match matched the ETag; no body.",
      headers: { [ETAG_HEADER]: headerRef(ETAG_HEADER) },
    },
    BadRequest: problemResponse(
      "Invalid query string: a parameter out of range, not plain decimal digits, repeated, an unknown format, a parameter that is not served, a missing required filter, a missing, blank or too long searchTerm, a Localities or Streets filter that is not a valid regular expression or uses a construct the linear-time engine does not evaluate (back-references, lookaround, word boundaries, POSIX bracket classes; the problem names the parameter and the construct), a Streets name pattern that would leave too many candidate names (the problem asks for three or more letters in a row, or for postalCode or locality), none of a Localities endpoint's filters, or a street search too broad to count within the index's read budget (the problem names the parameters and says how to narrow them).",
      {
        "page-size-out-of-range": validationProblem(
          { pageSize: ["The field pageSize must be between 1 and 50."] },
          "The query string has invalid parameters; see errors.",
        ),
        ...searchProblems(),
        ...patternProblems(),
      },
    ),
    NotFound: problemResponse(
      "Not Found: the path is not one this build serves. For an endpoint of the original API that this build does not serve (listed under x-not-served), the detail says so and why; for any other path, that there is no resource there.",
      {
        ...(example === undefined
          ? {}
          : { "not-served": notServedProblem(example.path, example.reason) }),
        "no-such-path": notFoundProblem("/de/Strets"),
      },
    ),
    MethodNotAllowed: {
      ...problemResponse(`Method Not Allowed: every path answers ${ALLOWED_METHODS} only.`, {
        post: methodNotAllowedProblem("POST", ALLOWED_METHODS),
      }),
      headers: { Allow: headerRef("Allow") },
    },
    InternalError: problemResponse("The request could not be served.", {
      "internal-error": internalErrorProblem(),
    }),
  };
}

/** The responses every operation has besides its 200. */
export function errorResponses(withBadRequest: boolean): Record<string, Json> {
  return {
    "304": responseRef("NotModified"),
    ...(withBadRequest ? { "400": responseRef("BadRequest") } : {}),
    "404": responseRef("NotFound"),
    "405": responseRef("MethodNotAllowed"),
    "500": responseRef("InternalError"),
  };
}

export function problemSchema(): Json {
  return {
    type: "object",
    title: "Problem",
    description: "RFC 9457 problem details, in the shape ASP.NET (and so the OpenPLZ clients) use.",
    required: ["type", "title", "status", "detail"],
    properties: {
      type: {
        type: "string",
        format: "uri",
        description: "The RFC 9110 section of the status code.",
      },
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

function problemResponse(
  description: string,
  examples: Readonly<Record<string, unknown>>,
): { description: string; content: Record<string, Json> } {
  return {
    description,
    content: {
      [mime(PROBLEM_CONTENT_TYPE)]: {
        schema: schemaRef("Problem"),
        examples: Object.fromEntries(
          Object.entries(examples).map(([name, value]) => [name, { value: value as Json }]),
        ),
      },
    },
  };
}

/** The Localities endpoints' 400s, as the Worker words them. */
function patternProblems(): Record<string, Json> {
  const refused = (parameter: string, pattern: string, ignoreCase: boolean): Json => {
    const compiled = compilePattern(pattern, { ignoreCase });
    const message = compiled.ok ? "" : patternErrorMessage(parameter, compiled.error);
    return validationProblem({ [parameter]: [message] }, message) as unknown as Json;
  };
  return {
    "no-locality-filter": validationProblem(
      { postalCode: [NO_LOCALITY_FILTER], name: [NO_LOCALITY_FILTER] },
      NO_LOCALITY_FILTER,
    ) as unknown as Json,
    "unsupported-pattern": refused("name", "(s)\\1", true),
    "invalid-pattern": refused("postalCode", "^(10", false),
  };
}

/** The search endpoints' 400s, as the Worker words them. */
function searchProblems(): Record<string, Json> {
  const examples: Record<string, Json> = {};
  const add = (name: string, parsed: Parsed<unknown>) => {
    if (!parsed.ok)
      examples[name] = validationProblem(parsed.errors, parsed.detail) as unknown as Json;
  };
  add("missing-search-term", parseSearchRequest(undefined, undefined));
  add(
    "search-term-too-long",
    parseSearchRequest("x".repeat(MAX_SEARCH_TERM_LENGTH + 1), undefined),
  );
  add("no-street-filter", parseStreetFilters(new Map(), "No name, postal code or locality given."));
  add("unsupported-filter-syntax", parseStreetFilters(new Map([["name", "Haupt(?=str)"]]), ""));
  return examples;
}
