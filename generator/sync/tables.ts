import { identityFields } from "../contract/record-identity.ts";
import type { AnyResource } from "../resources/resource.ts";
import type { JsonSchema } from "../resources/schema.ts";

/**
 * A dataset's table in the copy: one column per column of the CSV download (`Municipality.Key`
 * is `Municipality_Key`; the table of `de.streets` is `de_streets`), typed by the record schema.
 * A text value the record lacks is '' (as in the CSV), a number or boolean it lacks NULL; a
 * boolean is 1 or 0. The record identity of docs/CHANGES.md is a unique index, and a few columns
 * a user looks records up by are indexed too.
 */
export interface TableSpec {
  readonly resource: string;
  readonly table: string;
  readonly columns: readonly ColumnSpec[];
  /** The identity's columns (docs/CHANGES.md), in its order. */
  readonly identity: readonly string[];
  /** Further single-column indexes. */
  readonly indexed: readonly string[];
}

export interface ColumnSpec {
  readonly name: string;
  readonly path: readonly string[];
  readonly type: "TEXT" | "REAL" | "INTEGER";
}

/**
 * Columns worth an index of their own (what the API filters by), where a table has them and its
 * identity does not start with them. Each index costs the national street list seconds to load
 * and a share of every change: a key of a municipality is left to the user's own index.
 */
const LOOKUP_COLUMNS = ["PostalCode", "Name", "Locality"];

export function tableSpec(resource: AnyResource): TableSpec {
  const schema = resource.record.json;
  const columns = resource.record.columns.map((column) => ({
    name: column.header.replaceAll(".", "_"),
    path: column.path,
    type: sqlType(leafOf(schema, column.path)),
  }));
  // The identity is chosen from a record's properties: the schema's own stand for any record.
  const sample = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, field]) => [
      name,
      field.type === "string" ? "" : {},
    ]),
  );
  const byPath = new Map(columns.map((column) => [column.path.join("."), column.name]));
  const identity = identityFields(resource.id, sample).flatMap((field) => byPath.get(field) ?? []);
  if (identity.length === 0) throw new Error(`${resource.id}: no identity columns`);
  return {
    resource: resource.id,
    table: tableName(resource.id),
    columns,
    identity,
    indexed: LOOKUP_COLUMNS.filter(
      (name) => name !== identity[0] && columns.some((column) => column.name === name),
    ),
  };
}

export const tableName = (resource: string) => resource.replaceAll(".", "_");

function leafOf(schema: JsonSchema, path: readonly string[]): JsonSchema {
  let field = schema;
  for (const name of path) {
    const next = field.properties?.[name];
    if (next === undefined) throw new Error(`the record schema has no ${path.join(".")}`);
    field = next;
  }
  return field;
}

function sqlType(field: JsonSchema): ColumnSpec["type"] {
  return field.type === "number" ? "REAL" : field.type === "boolean" ? "INTEGER" : "TEXT";
}

/** A record's row: one value per column, in the table's order. */
export function rowOf(spec: TableSpec, record: unknown): (string | number | null)[] {
  return spec.columns.map((column) => {
    let value = record;
    for (const name of column.path)
      value =
        typeof value === "object" && value !== null
          ? (value as Readonly<Record<string, unknown>>)[name]
          : undefined;
    if (value === undefined || value === null) return column.type === "TEXT" ? "" : null;
    if (typeof value === "boolean") return value ? 1 : 0;
    if (typeof value === "string" || typeof value === "number") return value;
    throw new Error(
      `${spec.resource}: ${column.path.join(".")} is not a value: ${JSON.stringify(value)}`,
    );
  });
}

/** What a copy's table must match to be synced as it is: its columns, types and identity. */
export function layoutOf(spec: TableSpec): string {
  return JSON.stringify({
    columns: spec.columns.map((column) => `${column.name} ${column.type}`),
    identity: spec.identity,
  });
}
