import { exceedsLength, maxValueLength, tooLongMessage } from "./limits.ts";
import { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from "./paging.ts";

/** The response formats, in the order the docs list them. */
export const FORMATS = ["json", "csv"] as const;
export type Format = (typeof FORMATS)[number];

/** What a resource accepts in its query string. */
export interface QuerySpec {
  readonly paged: boolean;
  /** Filters served from pre-rendered files, by their canonical parameter name. */
  readonly filters: readonly string[];
  /** Filters the original API has but a static build cannot serve: a 400, never ignored. */
  readonly unservedFilters: readonly string[];
}

export interface ParsedQuery {
  readonly page: number;
  readonly pageSize: number;
  /** `format=` when given; otherwise the format comes from `Accept`. */
  readonly format: Format | undefined;
  /** Filter values as sent (not normalised); empty values count as absent. */
  readonly filters: ReadonlyMap<string, string>;
}

export type ValidationErrors = Record<string, string[]>;

export type QueryResult =
  { ok: true; query: ParsedQuery } | { ok: false; errors: ValidationErrors };

const PAGING = ["page", "pageSize"] as const;

/**
 * Parses a query string against a resource's spec. Parameter names match case-insensitively (as
 * in the original's model binding); a parameter given twice is an error; unknown parameters are
 * ignored; an empty value counts as absent; a value over its length limit (limits.ts) is an error
 * and is read no further. Each distinct message is listed once per parameter, however often the
 * request repeats its cause.
 */
/** Path parameters over their length limit (the same limits as query values), checked before any work. */
export function pathParameterErrors(params: ReadonlyMap<string, string>): ValidationErrors {
  const errors: ValidationErrors = {};
  for (const [name, value] of params) {
    const max = maxValueLength(name);
    if (exceedsLength(value, max)) errors[name] = [tooLongMessage(name, max)];
  }
  return errors;
}

export function parseQuery(params: URLSearchParams, spec: QuerySpec): QueryResult {
  const known = knownNames(spec);
  const errors: ValidationErrors = {};
  const addError = (name: string, message: string) => {
    const messages = (errors[name] ??= []);
    if (!messages.includes(message)) messages.push(message);
  };
  const seen = new Set<string>();
  const values = new Map<string, string>();
  for (const [rawName, value] of params) {
    const name = known.get(rawName.toLowerCase());
    if (name === undefined) continue;
    if (seen.has(name)) {
      addError(name, `The parameter '${name}' must not be given more than once.`);
      continue;
    }
    seen.add(name);
    const max = maxValueLength(name);
    if (exceedsLength(value, max)) addError(name, tooLongMessage(name, max));
    else values.set(name, value);
  }

  const integer = (name: string, fallback: number, max: number): number => {
    const raw = values.get(name) ?? "";
    if (raw === "") return fallback;
    if (!/^[0-9]+$/.test(raw)) {
      addError(
        name,
        `The value '${truncate(raw)}' is not valid for ${name}: use a whole number from 1 to ${max}.`,
      );
      return fallback;
    }
    const digits = raw.replace(/^0+(?=.)/, "");
    const value = digits.length > 10 ? Infinity : Number(digits);
    if (value < 1 || value > max) addError(name, `The field ${name} must be between 1 and ${max}.`);
    return value;
  };
  const page = spec.paged ? integer("page", DEFAULT_PAGE, MAX_PAGE) : DEFAULT_PAGE;
  const pageSize = spec.paged
    ? integer("pageSize", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
    : DEFAULT_PAGE_SIZE;

  let format: Format | undefined;
  const rawFormat = (values.get("format") ?? "").toLowerCase();
  if (rawFormat === "json" || rawFormat === "csv") format = rawFormat;
  else if (rawFormat !== "")
    addError(
      "format",
      `The value '${truncate(rawFormat)}' is not valid for format: use json or csv.`,
    );

  for (const name of spec.unservedFilters) {
    if ((values.get(name) ?? "") !== "") {
      addError(
        name,
        `Filtering by '${name}' is not supported by this API; filter by ${spec.filters.join(" or ")}.`,
      );
    }
  }
  const filters = new Map<string, string>();
  for (const name of spec.filters) {
    const value = values.get(name) ?? "";
    if (value !== "") filters.set(name, value);
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, query: { page, pageSize, format, filters } };
}

/** Lower-cased name → canonical name of every parameter a spec knows; built once per spec (the Worker's hot path). */
const knownBySpec = new WeakMap<QuerySpec, ReadonlyMap<string, string>>();
function knownNames(spec: QuerySpec): ReadonlyMap<string, string> {
  let known = knownBySpec.get(spec);
  if (known === undefined) {
    const names = [
      ...(spec.paged ? PAGING : []),
      "format",
      ...spec.filters,
      ...spec.unservedFilters,
    ];
    known = new Map(names.map((name) => [name.toLowerCase(), name]));
    knownBySpec.set(spec, known);
  }
  return known;
}

function truncate(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
