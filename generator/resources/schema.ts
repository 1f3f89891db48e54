import type { CsvColumn } from "../contract/csv.ts";

/**
 * The JSON shape of a resource's records, written once next to the resource and checked against
 * its TypeScript record type: every property of the type must be described (nested objects too),
 * nothing else may be, and a property is `optional` exactly when the type makes it optional. The
 * OpenAPI document and the docs page are rendered from the JSON Schema this produces.
 */

/** The JSON Schema subset the record schemas use (valid JSON Schema 2020-12, as OpenAPI 3.1 takes it). */
export interface JsonSchema {
  readonly type: "object" | "string" | "boolean" | "number";
  readonly title?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: false;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly examples?: readonly (string | number)[];
}

export interface StringField {
  readonly description: string;
  /** A regular expression every value matches (anchored). */
  readonly pattern?: string;
  readonly example?: string;
}
export interface BooleanField {
  readonly description: string;
  readonly boolean: true;
}
export interface NumberField {
  readonly description: string;
  readonly number: true;
  readonly minimum: number;
  readonly maximum: number;
  readonly example?: number;
}
export interface ObjectField<T> {
  readonly description: string;
  readonly properties: Fields<T>;
}

type Optionality<R, K extends keyof R> =
  object extends Pick<R, K> ? { readonly optional: true } : { readonly optional?: false };
type Field<T> = T extends string
  ? StringField
  : T extends boolean
    ? BooleanField
    : T extends number
      ? NumberField
      : ObjectField<T>;

/** One description per property of `R`, no more, no less. */
export type Fields<R> = {
  readonly [K in keyof R]-?: Field<Exclude<R[K], undefined>> & Optionality<R, K>;
};

/** A record's JSON Schema and CSV columns, tagged with the record type it was checked against. */
export interface RecordSchema<R> {
  /** The schema's name in the OpenAPI components, e.g. `Street`. */
  readonly name: string;
  readonly json: JsonSchema;
  /** One CSV column per leaf property, in property order: `municipality.key` is `Municipality.Key`. */
  readonly columns: readonly CsvColumn[];
  /** Type-level only: makes a `RecordSchema<FederalState>` unusable where a street's is expected. */
  readonly checkedAgainst?: (record: R) => void;
}

/**
 * Names a group of fields that records nest (OpenPLZ's `…Summary` DTOs, e.g. a street's
 * `municipality`): the nested object's schema carries the name as its `title`, and the OpenAPI
 * document gives it a schema of its own by that name, so generated client types have names. Use
 * one group per name: two different schemas with one name fail the build.
 */
export function summary<T>(name: string, fields: Fields<T>): Fields<T> {
  SUMMARY_NAMES.set(fields, name);
  return fields;
}
const SUMMARY_NAMES = new WeakMap<object, string>();

export function recordSchema<R>(
  name: string,
  description: string,
  fields: Fields<R>,
): RecordSchema<R> {
  const anyFields = fields as unknown as Readonly<Record<string, AnyField>>;
  return {
    name,
    json: { title: name, ...objectSchema(description, anyFields) },
    columns: columnsOf(anyFields, []),
  };
}

interface AnyField {
  readonly description: string;
  readonly boolean?: true;
  readonly number?: true;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly optional?: boolean;
  readonly pattern?: string;
  readonly example?: string | number;
  readonly properties?: Readonly<Record<string, AnyField>>;
}

function columnsOf(
  fields: Readonly<Record<string, AnyField>>,
  parent: readonly string[],
): CsvColumn[] {
  return Object.entries(fields).flatMap(([name, field]) => {
    const path = [...parent, name];
    if (field.properties !== undefined) return columnsOf(field.properties, path);
    return [
      { header: path.map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("."), path },
    ];
  });
}

function objectSchema(description: string, fields: Readonly<Record<string, AnyField>>): JsonSchema {
  const entries = Object.entries(fields);
  return {
    type: "object",
    description,
    properties: Object.fromEntries(entries.map(([name, field]) => [name, fieldSchema(field)])),
    required: entries.filter(([, field]) => field.optional !== true).map(([name]) => name),
    additionalProperties: false,
  };
}

function fieldSchema(field: AnyField): JsonSchema {
  if (field.properties !== undefined) {
    const name = SUMMARY_NAMES.get(field.properties);
    return {
      ...(name === undefined ? {} : { title: name }),
      ...objectSchema(field.description, field.properties),
    };
  }
  if (field.boolean === true) return { type: "boolean", description: field.description };
  if (field.number === true) {
    return {
      type: "number",
      description: field.description,
      ...(field.minimum === undefined ? {} : { minimum: field.minimum }),
      ...(field.maximum === undefined ? {} : { maximum: field.maximum }),
      ...(field.example === undefined ? {} : { examples: [field.example] }),
    };
  }
  return {
    type: "string",
    description: field.description,
    ...(field.pattern === undefined ? {} : { pattern: field.pattern }),
    ...(field.example === undefined ? {} : { examples: [field.example] }),
  };
}
