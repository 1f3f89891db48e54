import { SourceError } from "./errors.ts";
import { checkRecordLength } from "./field-limits.ts";
import { UniqueKeys } from "./keys.ts";
import { decodeUtf8 } from "./text.ts";

/**
 * Destatis GV100AD (fixed width, 1-based character columns as in the Destatis record layout).
 * Record types: 10 federal state, 20 government region, 30 region (BW), 40 district,
 * 50 municipal association, 60 municipality.
 */
export interface Gv100ad {
  readonly federalStates: readonly GvFederalState[];
  readonly governmentRegions: readonly GvArea[];
  readonly districts: readonly GvTypedArea[];
  readonly associations: readonly GvTypedArea[];
  readonly municipalities: readonly GvMunicipality[];
}

export interface GvFederalState {
  readonly key: string;
  readonly name: string;
  readonly seatOfGovernment: string;
}
export interface GvArea {
  readonly key: string;
  readonly name: string;
  readonly administrativeHeadquarters: string;
}
export interface GvTypedArea extends GvArea {
  readonly type: number;
}
export interface GvMunicipality {
  /** Eight-digit regional key (Land, Regierungsbezirk, Kreis, Gemeinde). */
  readonly key: string;
  /** Four-digit association part of the nine-digit association key. */
  readonly associationKey: string;
  readonly name: string;
  readonly type: number;
  /** Postal code of the administrative seat ("" for uninhabited areas). */
  readonly postalCode: string;
  /** The municipality has further postal codes (`*****` after the postal code). */
  readonly multiplePostalCodes: boolean;
}

export function readGv100ad(bytes: Uint8Array, file: string): Gv100ad {
  const federalStates: GvFederalState[] = [];
  const governmentRegions: GvArea[] = [];
  const districts: GvTypedArea[] = [];
  const associations: GvTypedArea[] = [];
  const municipalities: GvMunicipality[] = [];
  const keys = {
    "10": new UniqueKeys(file, "federal state key"),
    "20": new UniqueKeys(file, "government region key"),
    "40": new UniqueKeys(file, "district key"),
    "50": new UniqueKeys(file, "municipal association key"),
    "60": new UniqueKeys(file, "municipality key"),
  };
  const unique = (type: keyof typeof keys, key: string, line: number) => {
    keys[type].add(key, line);
    return key;
  };
  const lines = decodeUtf8(bytes, file).split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    checkRecordLength(raw, index + 1, file);
    if (raw.trim() === "") continue;
    const line = raw.normalize("NFC");
    const at = (from: number, to: number) => line.slice(from - 1, to).trim();
    const fail = (reason: string): never => {
      throw new SourceError(file, index + 1, reason);
    };
    const recordType = at(1, 2);
    if (line.length < 128) fail(`record is ${line.length} characters long, expected at least 128`);
    const name = at(23, 72);
    const seat = at(73, 122);
    const type = () => {
      const code = at(123, 124);
      return /^[0-9]{1,2}$/.test(code) ? Number(code) : fail(`type code '${code}' is not a number`);
    };
    if (name === "") fail("name is empty");
    switch (recordType) {
      case "10":
        federalStates.push({
          key: unique("10", digits(at(11, 12), 2, fail), index + 1),
          name,
          seatOfGovernment: seat,
        });
        break;
      case "20":
        governmentRegions.push({
          key: unique("20", digits(at(11, 13), 3, fail), index + 1),
          name,
          administrativeHeadquarters: seat,
        });
        break;
      case "30":
        break; // regions (Baden-Württemberg only) are not part of the API
      case "40":
        districts.push({
          key: unique("40", digits(at(11, 15), 5, fail), index + 1),
          name,
          administrativeHeadquarters: seat,
          type: type(),
        });
        break;
      case "50":
        associations.push({
          key: unique("50", digits(at(11, 15) + at(19, 22), 9, fail), index + 1),
          name,
          administrativeHeadquarters: seat,
          type: type(),
        });
        break;
      case "60":
        municipalities.push({
          key: unique("60", digits(at(11, 18), 8, fail), index + 1),
          associationKey: digits(at(19, 22), 4, fail),
          name,
          type: type(),
          postalCode: at(166, 170),
          multiplePostalCodes: at(171, 175) !== "",
        });
        break;
      default:
        fail(`unknown record type '${recordType}'`);
    }
  }
  if (federalStates.length === 0)
    throw new SourceError(file, undefined, "no federal state records (type 10)");
  return { federalStates, governmentRegions, districts, associations, municipalities };
}

function digits(value: string, length: number, fail: (reason: string) => never): string {
  return new RegExp(`^[0-9]{${length}}$`).test(value)
    ? value
    : fail(`key '${value}' is not ${length} digits`);
}
