import type {
  AtDistrict,
  AtLocality,
  AtMunicipality,
  AtMunicipalitySummary,
  AtStreet,
  KeyCodeName,
} from "../resources/at.ts";
import type { AtDistrictList, AtMunicipalityRow, AtStreetRow } from "../sources/at.ts";
import { JoinCounter, type JoinReport } from "./join-report.ts";

/** Display names of the Gemeindeliste's status codes (OpenPLZ's texts); a municipality without one has no status. */
export const AT_STATUS: Readonly<Record<string, string>> = {
  SR: "Statutarstadt",
  ST: "Stadtgemeinde",
  M: "Marktgemeinde",
};

export interface AtRegister {
  readonly districts: AtDistrict[];
  readonly municipalities: AtMunicipality[];
  readonly streets: AtStreet[];
  readonly localities: AtLocality[];
  /** The Gemeindeliste's rows and the street directory's, joined to the district list by district code: unmatched rows have a code that is not in it. */
  readonly reports: readonly JoinReport[];
}

/**
 * Joins the Austrian registers. A municipality's (and a street's) district is the one whose code
 * is the first three digits of its Gemeindecode: outside Vienna that is also the key's prefix; the
 * Gemeindeliste lists Vienna as 23 rows (key 90001, one per Bezirk, codes 90101–92301), each under
 * its own Bezirk (codes 901–923, all with the key 900). A street's municipality carries the
 * Gemeindeliste's status of the municipality with its code, as the original's summary does.
 */
export function atRegisterOf(
  list: AtDistrictList,
  municipalityRows: readonly AtMunicipalityRow[],
  streetRows: readonly AtStreetRow[],
): AtRegister {
  const provinces = new Map(list.provinces.map((p) => [p.key, p]));
  const districts: AtDistrict[] = list.districts.map((d) => ({
    key: d.key,
    code: d.code,
    name: d.name,
    federalProvince: provinces.get(d.provinceKey) ?? { key: d.provinceKey, name: "" },
  }));
  const byCode = new Map(districts.map((d) => [d.code, d]));
  const ref = (d: AtDistrict): KeyCodeName => ({ key: d.key, code: d.code, name: d.name });

  const joinedTo = "districts by the first three digits of the Gemeindecode";
  const municipalityJoin = new JoinCounter("at-municipalities", joinedTo);
  const municipalities: AtMunicipality[] = [];
  const statusByCode = new Map<string, string>();
  for (const row of municipalityRows) {
    const district = byCode.get(row.code.slice(0, 3));
    if (district === undefined) {
      municipalityJoin.skip("unmatched");
      continue;
    }
    municipalityJoin.join();
    const status = AT_STATUS[row.status];
    if (status !== undefined) statusByCode.set(row.code, status);
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

  const streetJoin = new JoinCounter("at-streets", joinedTo);
  const streets: AtStreet[] = [];
  const localities = new Map<string, AtLocality>();
  for (const row of streetRows) {
    const district = byCode.get(row.municipalityCode.slice(0, 3));
    if (district === undefined) {
      streetJoin.skip("unmatched");
      continue;
    }
    streetJoin.join();
    const status = statusByCode.get(row.municipalityCode);
    const municipality: AtMunicipalitySummary = {
      key: row.municipalityKey,
      code: row.municipalityCode,
      name: row.municipalityName,
      ...(status === undefined ? {} : { status }),
    };
    streets.push({
      key: row.key,
      name: row.name,
      postalCode: row.postalCode,
      locality: row.locality,
      municipality,
      district: ref(district),
      federalProvince: district.federalProvince,
    });
    const id = `${row.localityKey}\u0000${row.postalCode}\u0000${row.municipalityCode}`;
    if (!localities.has(id))
      localities.set(id, {
        key: row.localityKey,
        postalCode: row.postalCode,
        name: row.locality,
        municipality,
        district: ref(district),
        federalProvince: district.federalProvince,
      });
  }
  return {
    districts,
    municipalities,
    streets,
    localities: [...localities.values()],
    reports: [municipalityJoin.report(), streetJoin.report()],
  };
}
