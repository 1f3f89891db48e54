import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../generator/resources/index.ts";
import type { JsonSchema } from "../../generator/resources/schema.ts";

/**
 * The JSON shapes against the original's response DTOs (openpotato/openplzapi v1.2.0,
 * src/webservice/Dtos/Responses/{at,ch,de,li}/), field by field: names (camelCased, as its
 * serializer writes them), order (`JsonPropertyOrder`), nesting, and which properties may be
 * absent (the original omits nulls: a nested summary built as `x != null ? new … : null`, a
 * display name that is null). Written out here from the DTOs, not from our code; the deliberate
 * differences are listed below and in docs/DIFFERENCES.md.
 */
type Shape = readonly (readonly [name: string, field: Field])[];
/** A scalar (`"1"` present, `"?"` may be absent) or a nested summary (`?` may be absent). */
type Field = "1" | "?" | { readonly optional?: true; readonly shape: Shape };

const fields = (spec: string): Shape =>
  spec.split(" ").map((name) => (name.endsWith("?") ? [name.slice(0, -1), "?"] : [name, "1"]));
const nested = (spec: string, optional = false): Field => ({
  shape: fields(spec),
  ...(optional ? { optional: true } : {}),
});

const DE_STATE = nested("key name");
const DE_KNT = (optional = false) => nested("key name type", optional);
const AT_PROVINCE = nested("key name");
const AT_DISTRICT = nested("key code name");
const AT_MUNICIPALITY_SUMMARY = nested("key code name status?");
const CH_SUMMARY = nested("key name shortName");
const LI_COMMUNE = nested("key name");

const DE_LOCALITY: Shape = [
  ...fields("postalCode name"),
  ["municipality", DE_KNT()],
  ["district", DE_KNT(true)],
  ["federalState", DE_STATE],
];
const DE_MUNICIPALITY: Shape = [
  ...fields("key name type postalCode? multiplePostalCodes"),
  ["association", DE_KNT(true)],
  ["district", DE_KNT(true)],
  ["governmentRegion", nested("key name", true)],
  ["federalState", DE_STATE],
];
const AT_LOCALITY: Shape = [
  ...fields("key postalCode name"),
  ["municipality", AT_MUNICIPALITY_SUMMARY],
  ["district", AT_DISTRICT],
  ["federalProvince", AT_PROVINCE],
];
/** Original order: Key 4, Code 5, Name 6, District 7, FederalProvince 7, PostalCode 8, MultiplePostalCodes 9, Status 10. */
const AT_MUNICIPALITY_ORIGINAL: Shape = [
  ...fields("key code name"),
  ["district", AT_DISTRICT],
  ["federalProvince", AT_PROVINCE],
  ...fields("postalCode multiplePostalCodes status?"),
];
const CH_LOCALITY: Shape = [
  ...fields("postalCode name"),
  ["commune", CH_SUMMARY],
  ["district", CH_SUMMARY],
  ["canton", CH_SUMMARY],
];
const CH_COMMUNE: Shape = [
  ...fields("key historicalCode name shortName"),
  ["district", CH_SUMMARY],
  ["canton", CH_SUMMARY],
];

/** Each DTO and the resources that answer with it. */
const DTOS: readonly (readonly [dto: string, ids: readonly string[], shape: Shape])[] = [
  [
    "de/StreetResponse",
    ["de.streets", "de.fulltextsearch", "de.suggestions", "de.addresscheck"],
    [
      ...fields("name postalCode locality borough? suburb?"),
      ["municipality", DE_KNT()],
      ["district", DE_KNT(true)],
      ["federalState", DE_STATE],
    ],
  ],
  ["de/FederalStateResponse", ["de.federalstates"], fields("key name seatOfGovernment")],
  [
    "de/GovernmentRegionResponse",
    ["de.federalstates.governmentregions"],
    [...fields("key name"), ["federalState", DE_STATE], ...fields("administrativeHeadquarters")],
  ],
  [
    "de/DistrictResponse",
    ["de.federalstates.districts", "de.governmentregions.districts"],
    [
      ...fields("key name type"),
      ["governmentRegion", nested("key name", true)],
      ["federalState", DE_STATE],
      ...fields("administrativeHeadquarters"),
    ],
  ],
  [
    "de/MunicipalAssociationResponse",
    [
      "de.federalstates.municipalassociations",
      "de.governmentregions.municipalassociations",
      "de.districts.municipalassociations",
    ],
    [
      ...fields("key name type"),
      ["district", DE_KNT()],
      ["federalState", DE_STATE],
      ...fields("administrativeHeadquarters"),
    ],
  ],
  [
    "de/MunicipalityResponse",
    [
      "de.federalstates.municipalities",
      "de.governmentregions.municipalities",
      "de.districts.municipalities",
    ],
    DE_MUNICIPALITY,
  ],
  [
    "de/LocalityResponse",
    [
      "de.localities",
      "de.federalstates.localities",
      "de.governmentregions.localities",
      "de.districts.localities",
    ],
    DE_LOCALITY,
  ],
  ["at/FederalProvinceResponse", ["at.federalprovinces"], fields("key name")],
  [
    "at/DistrictResponse",
    ["at.federalprovinces.districts"],
    [...fields("key code name"), ["federalProvince", AT_PROVINCE]],
  ],
  [
    "at/MunicipalityResponse",
    ["at.federalprovinces.municipalities", "at.districts.municipalities"],
    AT_MUNICIPALITY_ORIGINAL,
  ],
  [
    "at/StreetResponse",
    ["at.streets", "at.fulltextsearch", "at.suggestions", "at.addresscheck"],
    [
      ...fields("key name postalCode locality"),
      ["municipality", AT_MUNICIPALITY_SUMMARY],
      ["district", AT_DISTRICT],
      ["federalProvince", AT_PROVINCE],
    ],
  ],
  [
    "at/LocalityResponse",
    ["at.localities", "at.federalprovinces.localities", "at.districts.localities"],
    AT_LOCALITY,
  ],
  ["ch/CantonResponse", ["ch.cantons"], fields("key historicalCode name shortName")],
  [
    "ch/DistrictResponse",
    ["ch.cantons.districts"],
    [...fields("key historicalCode name shortName"), ["canton", CH_SUMMARY]],
  ],
  ["ch/CommuneResponse", ["ch.cantons.communes", "ch.districts.communes"], CH_COMMUNE],
  [
    "ch/LocalityResponse",
    ["ch.localities", "ch.cantons.localities", "ch.districts.localities"],
    CH_LOCALITY,
  ],
  [
    "ch/StreetResponse",
    ["ch.streets", "ch.fulltextsearch", "ch.suggestions", "ch.addresscheck"],
    [
      ...fields("key name postalCode locality"),
      ["commune", CH_SUMMARY],
      ["district", CH_SUMMARY],
      ["canton", CH_SUMMARY],
      ...fields("status"),
    ],
  ],
  ["li/CommuneResponse", ["li.communes"], fields("key name electoralDistrict")],
  [
    "li/LocalityResponse",
    ["li.localities"],
    [...fields("postalCode name"), ["commune", LI_COMMUNE]],
  ],
  [
    "li/StreetResponse",
    ["li.streets", "li.fulltextsearch", "li.suggestions", "li.addresscheck"],
    [...fields("key name postalCode locality"), ["commune", LI_COMMUNE], ...fields("status")],
  ],
];

/** Where we differ on purpose (docs/DIFFERENCES.md): the shape we serve instead. */
const DELIBERATE: Readonly<Record<string, (original: Shape) => Shape>> = {
  // The CSV column order the original's formatter writes (its JSON order is ambiguous: two properties have order 7).
  "at/MunicipalityResponse": () => [
    ...fields("key code name postalCode multiplePostalCodes status?"),
    ["district", AT_DISTRICT],
    ["federalProvince", AT_PROVINCE],
  ],
  // WGS84 coordinates from the register's LV95 point: additive, at the end.
  "ch/LocalityResponse": (original) => [...original, ...fields("latitude longitude")],
  "li/LocalityResponse": (original) => [...original, ...fields("latitude longitude")],
};

/** Our schema in the same notation: properties in order, `?` for those not required. */
function shapeOf(schema: JsonSchema): Shape {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(
    ([name, property]): readonly [string, Field] => {
      const optional = !required.has(name);
      if (property.type !== "object") return [name, optional ? "?" : "1"];
      return [name, { shape: shapeOf(property), ...(optional ? { optional: true } : {}) }];
    },
  );
}

describe("JSON shapes follow the original's DTOs", () => {
  it.each(DTOS.flatMap(([dto, ids, shape]) => ids.map((id) => [id, dto, shape] as const)))(
    "%s answers with %s",
    (id, dto, original) => {
      const resource = RESOURCES.find((r) => r.id === id);
      if (resource === undefined) throw new Error(`no resource ${id}`);
      const expected = DELIBERATE[dto]?.(original) ?? original;
      expect(shapeOf(resource.record.json)).toEqual(expected);
    },
  );

  it("covers every resource", () => {
    expect(DTOS.flatMap(([, ids]) => ids).sort()).toEqual(RESOURCES.map((r) => r.id).sort());
    expect(Object.keys(DELIBERATE).every((dto) => DTOS.some(([name]) => name === dto))).toBe(true);
  });

  it("the CSV columns follow the JSON properties, so additive fields are the last columns too", () => {
    const localities = RESOURCES.filter(
      (r) => r.id === "ch.localities" || r.id === "li.localities",
    );
    for (const resource of localities)
      expect(resource.record.columns.slice(-2).map((c) => c.header)).toEqual([
        "Latitude",
        "Longitude",
      ]);
  });
});
