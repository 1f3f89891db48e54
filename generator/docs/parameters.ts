import { isSearchedStreets } from "../contract/routes.ts";
import { PAGING_HEADERS } from "../contract/headers.ts";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from "../contract/paging.ts";
import { maxValueLength } from "../contract/limits.ts";
import { FORMATS } from "../contract/query.ts";
import type { AnyResource } from "../resources/resource.ts";

/**
 * What a resource's query string takes, derived from its definition and the paging constants the
 * Worker validates with: the docs page and the OpenAPI document both render this.
 */
export interface ParameterDoc {
  readonly name: string;
  readonly in: "path" | "query";
  readonly required: boolean;
  readonly description: string;
  readonly schema: IntegerParameter | StringParameter;
}
export interface IntegerParameter {
  readonly type: "integer";
  readonly minimum: number;
  readonly maximum: number;
  readonly default: number;
}
export interface StringParameter {
  readonly type: "string";
  readonly enum?: readonly string[];
  readonly minLength?: number;
  /** In characters (code points), as the Worker counts them (contract/limits.ts). */
  readonly maxLength?: number;
}

export function parametersOf(resource: AnyResource): ParameterDoc[] {
  // On a Streets resource with search, locality is one of three filters (at least one), not required.
  const required = (s: { readonly in: string; readonly required: boolean }) =>
    s.in === "path" || (s.required && !isSearchedStreets(resource));
  const filters: ParameterDoc[] = (resource.selectors ?? []).map((s) => ({
    name: s.param,
    in: s.in,
    required: required(s),
    description: s.description,
    schema: textSchema(s.param, required(s)),
  }));
  const extra: ParameterDoc[] = (resource.queryParameters ?? []).map((p) => ({
    name: p.name,
    in: "query",
    required: p.required === true,
    description: p.description,
    schema: p.schema ?? textSchema(p.name, p.required === true),
  }));
  const paging: ParameterDoc[] = resource.query.paged
    ? [
        {
          name: "page",
          in: "query",
          required: false,
          description: `Page number, ${DEFAULT_PAGE} to ${MAX_PAGE} in plain decimal digits (at most ${maxValueLength("page")}, leading zeros included). A page past the end is 200 with an empty list and the real totals.`,
          schema: { type: "integer", minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE },
        },
        {
          name: "pageSize",
          in: "query",
          required: false,
          description: `Records per page, 1 to ${MAX_PAGE_SIZE} in plain decimal digits (at most ${maxValueLength("pageSize")}, leading zeros included).`,
          schema: {
            type: "integer",
            minimum: 1,
            maximum: MAX_PAGE_SIZE,
            default: DEFAULT_PAGE_SIZE,
          },
        },
      ]
    : [];
  const format: ParameterDoc = {
    name: "format",
    in: "query",
    required: false,
    description:
      "Response format; overrides the Accept header (without it, Accept: text/csv selects CSV and anything else JSON).",
    // The address check answers a JSON object: no CSV.
    schema: { type: "string", enum: resource.search?.role === "addressCheck" ? ["json"] : FORMATS },
  };
  return [...filters, ...extra, ...paging, format];
}

/** A free-text parameter (path or query): its length limit, and for a required one at least a character. */
function textSchema(name: string, required: boolean): StringParameter {
  return required
    ? { type: "string", minLength: 1, maxLength: maxValueLength(name) }
    : { type: "string", maxLength: maxValueLength(name) };
}

/** Said of the filters the original API has and this one answers with 400 (a filter is never silently ignored). */
export const REJECTED_NOTE =
  "which the original OpenPLZ API accepts here, are not served: a non-empty value is a 400 problem naming the parameter.";

export const PAGING_HEADER_DOCS: Readonly<Record<(typeof PAGING_HEADERS)[number], string>> = {
  "x-page": "The page served.",
  "x-page-size": "The page size served.",
  "x-total-count": "Number of records the filter selects, over all pages.",
  "x-total-pages": "ceil(x-total-count / x-page-size); 0 when nothing matches.",
};
