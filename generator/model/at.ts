import type { AtDistrict, AtLocality, AtMunicipality, AtStreet, KeyCodeName } from "../resources/at.ts";
import type { AtDistrictList, AtMunicipalityRow, AtStreetRow } from "../sources/at.ts";

/** Display names of the Gemeindeliste's status codes (OpenPLZ's texts); a municipality without one has no status. */
export const AT_STATUS: Readonly<Record<string, string>> = { SR: "Statutarstadt", ST: "Stadtgemeinde", M: "Marktgemeinde" };

export interface AtRegister {
  readonly districts: AtDistrict[];
  readonly municipalities: AtMunicipality[];
  readonly streets: AtStreet[];
  readonly localities: AtLocality[];
  /** Municipality rows whose district code (first three digits of the Gemeindecode) is not in the district list: skipped. */
  readonly municipalitiesWithoutDistrict: number;
  /** Street rows whose district code is not in the district list: skipped. */
  readonly streetsWithoutDistrict: number;
}

/**
 * Joins the Austrian registers. A municipality's (and a street's) district is the one whose code
 * is the first three digits of its Gemeindecode: outside Vienna that is also the key's prefix; the
 * Gemeindeliste lists Vienna as 23 rows (key 90001, one per Bezirk, codes 90101–92301), each under
 * its own Bezirk (codes 901–923, all with the key 900).
 */
export function atRegisterOf(list: AtDistrictList, municipalityRows: readonly AtMunicipalityRow[], streetRows: readonly AtStreetRow[]): AtRegister {
  const provinces = new Map(list.provinces.map((p) => [p.key, p]));
  const districts: AtDistrict[] = list.districts.map((d) => ({ key: d.key, code: d.code, name: d.name, federalProvince: provinces.get(d.provinceKey) ?? { key: d.provinceKey, name: "" } }));
  const byCode = new Map(districts.map((d) => [d.code, d]));
  const ref = (d: AtDistrict): KeyCodeName => ({ key: d.key, code: d.code, name: d.name });

  let municipalitiesWithoutDistrict = 0;
  const municipalities: AtMunicipality[] = [];
  for (const row of municipalityRows) {
    const district = byCode.get(row.code.slice(0, 3));
    if (district === undefined) {
      municipalitiesWithoutDistrict++;
      continue;
    }
    const status = AT_STATUS[row.status];
    municipalities.push({
      key: row.key,
      code: row.code,
      name: row.name,
      postalCode: row.postalCode,
      multiplePostalCodes: row.otherPostalCodes.length > 0,
      ...(status === undefined ? {} : { status }),
      district: ref(district),
      federalProvince: district.federalProvince,
    });
  }

  let streetsWithoutDistrict = 0;
  const streets: AtStreet[] = [];
  const localities = new Map<string, AtLocality>();
  for (const row of streetRows) {
    const district = byCode.get(row.municipalityCode.slice(0, 3));
    if (district === undefined) {
      streetsWithoutDistrict++;
      continue;
    }
    const municipality = { key: row.municipalityKey, code: row.municipalityCode, name: row.municipalityName };
    streets.push({ key: row.key, name: row.name, postalCode: row.postalCode, locality: row.locality, municipality, district: ref(district), federalProvince: district.federalProvince });
    const id = `${row.localityKey}\u0000${row.postalCode}\u0000${row.municipalityCode}`;
    if (!localities.has(id)) localities.set(id, { key: row.localityKey, postalCode: row.postalCode, name: row.locality, municipality, district: ref(district), federalProvince: district.federalProvince });
  }
  return { districts, municipalities, streets, localities: [...localities.values()], municipalitiesWithoutDistrict, streetsWithoutDistrict };
}
