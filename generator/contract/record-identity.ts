/**
 * Which records of two builds are "the same record", chosen from the data: a record with a key of
 * its own (a municipality, district, Austrian street or locality) is its key, and its code where it
 * has one (Vienna's districts share the municipality key 90001 and differ by code); a German, Swiss or
 * Liechtenstein locality, which has none, is its postal code, name and municipality (commune); a
 * street without a key is its name, postal code and locality (and in Germany borough, suburb and
 * municipality, which tell apart the streets of one name in one postal code of Berlin). Renaming
 * changes the identity: a renamed street is removed and added, not changed.
 */
const STREET = [
  "name",
  "postalCode",
  "locality",
  "borough",
  "suburb",
  "municipality.key",
  "commune.key",
];
const LOCALITY = ["postalCode", "name", "municipality.key", "commune.key"];

/** The identities in words, for the docs page and the OpenAPI document (docs/CHANGES.md has them as a table). */
export const IDENTITY_IN_WORDS =
  "a key where the record has one, with its code where it has one too; a German, Swiss or Liechtenstein locality by its postal code, name and municipality (commune) key; a German street by its name, postal code, locality, borough, suburb and municipality key";

/** The identity fields (dotted JSON paths) of a resource's records; `sample` is one of its records. */
export function identityFields(
  resourceId: string,
  sample: Readonly<Record<string, unknown>>,
): readonly string[] {
  if (typeof sample["key"] === "string")
    return typeof sample["code"] === "string" ? ["key", "code"] : ["key"];
  const kind = resourceId.split(".").at(-1);
  if (kind === "streets") return STREET;
  if (kind === "localities") return LOCALITY;
  throw new Error(
    `${resourceId}: no record identity (records have no key, and are neither streets nor localities)`,
  );
}

/** A record's identity as one string (absent fields empty). */
export function identityOf(
  record: Readonly<Record<string, unknown>>,
  fields: readonly string[],
): string {
  return JSON.stringify(fields.map((field) => valueAt(record, field)));
}

function valueAt(record: unknown, dotted: string): unknown {
  let value = record;
  for (const name of dotted.split("."))
    value =
      typeof value === "object" && value !== null
        ? (value as Record<string, unknown>)[name]
        : undefined;
  return value ?? null;
}
