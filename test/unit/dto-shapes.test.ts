import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../generator/resources/index.ts";
import type { JsonSchema } from "../../generator/resources/schema.ts";

/**
 * The JSON shapes against the original's response DTOs (openpotato/openplzapi,
 * src/webservice/Dtos/Responses): property names, camelCased as its serializer writes them, and
 * the properties of the nested summaries. Written out here from the DTOs, not from our code.
 */
const SUMMARY = {
  deState: ["key", "name"],
  deRegion: ["key", "name"],
  deKeyNameType: ["key", "name", "type"],
  atProvince: ["key", "name"],
  atKeyCodeName: ["key", "code", "name"],
  chKeyNameShort: ["key", "name", "shortName"],
  liCommune: ["key", "name"],
} as const;

const DTOS: Record<string, Record<string, readonly string[] | null>> = {
  // GovernmentRegionResponse: the CSV formatter of the current version reads FederalState.Key/Name.
  "de.federalstates.governmentregions": { key: null, name: null, federalState: SUMMARY.deState, administrativeHeadquarters: null },
  "de.federalstates.districts": { key: null, name: null, type: null, governmentRegion: SUMMARY.deRegion, federalState: SUMMARY.deState, administrativeHeadquarters: null },
  "de.districts.municipalassociations": { key: null, name: null, type: null, district: SUMMARY.deKeyNameType, federalState: SUMMARY.deState, administrativeHeadquarters: null },
  "de.districts.municipalities": {
    key: null,
    name: null,
    type: null,
    postalCode: null,
    multiplePostalCodes: null,
    association: SUMMARY.deKeyNameType,
    district: SUMMARY.deKeyNameType,
    governmentRegion: SUMMARY.deRegion,
    federalState: SUMMARY.deState,
  },
  "de.localities": { postalCode: null, name: null, municipality: SUMMARY.deKeyNameType, district: SUMMARY.deKeyNameType, federalState: SUMMARY.deState },
  "at.federalprovinces.districts": { key: null, code: null, name: null, federalProvince: SUMMARY.atProvince },
  "at.districts.municipalities": { key: null, code: null, name: null, postalCode: null, multiplePostalCodes: null, status: null, district: SUMMARY.atKeyCodeName, federalProvince: SUMMARY.atProvince },
  "at.streets": { key: null, name: null, postalCode: null, locality: null, municipality: SUMMARY.atKeyCodeName, district: SUMMARY.atKeyCodeName, federalProvince: SUMMARY.atProvince },
  "at.localities": { key: null, postalCode: null, name: null, municipality: SUMMARY.atKeyCodeName, district: SUMMARY.atKeyCodeName, federalProvince: SUMMARY.atProvince },
  "ch.cantons.districts": { key: null, historicalCode: null, name: null, shortName: null, canton: SUMMARY.chKeyNameShort },
  "ch.cantons.communes": { key: null, historicalCode: null, name: null, shortName: null, district: SUMMARY.chKeyNameShort, canton: SUMMARY.chKeyNameShort },
  "ch.localities": { postalCode: null, name: null, commune: SUMMARY.chKeyNameShort, district: SUMMARY.chKeyNameShort, canton: SUMMARY.chKeyNameShort },
  "li.localities": { postalCode: null, name: null, commune: SUMMARY.liCommune },
};

const sorted = (values: Iterable<string>) => [...values].sort();

describe("JSON shapes follow the original's DTOs", () => {
  it.each(Object.entries(DTOS))("%s", (id, dto) => {
    const resource = RESOURCES.find((r) => r.id === id);
    if (resource === undefined) throw new Error(`no resource ${id}`);
    const properties: Readonly<Record<string, JsonSchema>> = resource.record.json.properties ?? {};
    expect(sorted(Object.keys(properties))).toEqual(sorted(Object.keys(dto)));
    for (const [name, nested] of Object.entries(dto)) {
      const schema = properties[name];
      if (nested === null) expect(schema?.type, `${id}.${name}`).not.toBe("object");
      else expect(sorted(Object.keys(schema?.properties ?? {})), `${id}.${name}`).toEqual(sorted(nested));
    }
  });

  it("covers every parent variant of a child list with the same shape", () => {
    const byRecord = new Map<string, string[]>();
    for (const resource of RESOURCES) byRecord.set(resource.record.name, [...(byRecord.get(resource.record.name) ?? []), resource.id]);
    expect(byRecord.get("Municipality")).toEqual(["de.federalstates.municipalities", "de.governmentregions.municipalities", "de.districts.municipalities"]);
    expect(byRecord.get("ChCommune")).toEqual(["ch.cantons.communes", "ch.districts.communes"]);
  });
});
