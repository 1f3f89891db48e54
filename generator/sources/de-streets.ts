import { parseCsv } from "./csv.ts";
import { SourceError } from "./errors.ts";
import { decodeUtf8, interner } from "./text.ts";

/** One row of the OpenPLZ OSM street export. */
export interface StreetRow {
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
  readonly regionalKey: string;
  readonly borough: string | undefined;
  readonly suburb: string | undefined;
}

export const STREETS_HEADER = [
  "Name",
  "PostalCode",
  "Locality",
  "RegionalKey",
  "Borough",
  "Suburb",
] as const;

/** Reads `Name,PostalCode,Locality,RegionalKey,Borough,Suburb` (the Berlin extract or the national file). */
export async function readStreets(bytes: Uint8Array, file: string): Promise<StreetRow[]> {
  const intern = interner();
  return parseCsv(decodeUtf8(bytes, file), file, { header: STREETS_HEADER }, (row, line) => {
    const [name = "", postalCode = "", locality = "", regionalKey = "", borough = "", suburb = ""] =
      row.map((field) => field.normalize("NFC").trim());
    if (name === "") throw new SourceError(file, line, "Name is empty");
    if (locality === "") throw new SourceError(file, line, "Locality is empty");
    if (!/^[0-9]{5}$/.test(postalCode))
      throw new SourceError(file, line, `PostalCode '${postalCode}' is not five digits`);
    if (!/^[0-9]{8}$/.test(regionalKey))
      throw new SourceError(file, line, `RegionalKey '${regionalKey}' is not eight digits`);
    return {
      name: intern(name),
      postalCode: intern(postalCode),
      locality: intern(locality),
      regionalKey,
      borough: borough === "" ? undefined : intern(borough),
      suburb: suburb === "" ? undefined : intern(suburb),
    };
  });
}
