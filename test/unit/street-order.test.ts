import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderStreets } from "../../generator/build/street-order.ts";
import { tailClasses, type Street } from "../../generator/build/street-tails.ts";
import { sortRecords } from "../../generator/build/views.ts";
import { streets as deStreets } from "../../generator/resources/de.ts";
import type { AnyResource } from "../../generator/resources/resource.ts";
import { collationKey } from "../../generator/resources/collation.ts";

// Shared objects, as the model makes them: one per municipality.
const municipalities = [
  { key: "11000000", name: "Berlin, Stadt" },
  { key: "08335001", name: "Aach, Stadt" },
];
const names = ["Hauptstraße", "hauptstraße", "Am Markt", "Äußere Str.", "Aussere Str.", "Zeile"];

const street = fc
  .record({
    name: fc.constantFrom(...names),
    postalCode: fc.constantFrom("10117", "78267", "10115"),
    locality: fc.constantFrom("Berlin", "Aach"),
    borough: fc.option(fc.constantFrom("Mitte", "Wedding", "wedding"), { nil: undefined }),
    municipality: fc.constantFrom(...municipalities),
  })
  .map(({ borough, municipality, ...rest }) => ({
    ...rest,
    ...(borough === undefined ? {} : { borough }),
    municipality,
  }));

/** The order every street keyed in full gives: a stable sort by the resource's key. */
const keyed = (resource: AnyResource, records: readonly Street[]) =>
  sortRecords(
    records.map((_, index) => index),
    (index) => (resource.sortKey as (s: Street) => readonly string[])(records[index] as Street),
  );

describe("a name's streets ordered by their tails' ranks", () => {
  it("gives the order of every street keyed (fast-check)", () => {
    fc.assert(
      fc.property(fc.array(street, { maxLength: 60 }), (records) => {
        const streets = records as unknown as Street[];
        const tails = tailClasses(streets, ["name"], deStreets.id);
        const resource = deStreets as unknown as AnyResource;
        expect(orderStreets(resource, streets, tails)).toEqual(keyed(resource, streets));
        expect(orderStreets(resource, streets)).toEqual(keyed(resource, streets));
      }),
    );
  });

  it("keys every street when the key after the name depends on the name", () => {
    const resource = {
      ...deStreets,
      sortKey: (s: Street) => [collationKey(s.name), s.name.length > 10 ? "b" : "a", s.postalCode],
    } as unknown as AnyResource;
    const records = [
      { name: "Am Markt", postalCode: "10117", locality: "Berlin" },
      { name: "Hauptstraße", postalCode: "10115", locality: "Berlin" },
      { name: "Am Markt", postalCode: "10115", locality: "Berlin" },
      { name: "Hauptstraße", postalCode: "10117", locality: "Berlin" },
    ] as Street[];
    const tails = tailClasses(records, ["name"], deStreets.id);
    expect(orderStreets(resource, records, tails)).toEqual(keyed(resource, records));
  });
});
