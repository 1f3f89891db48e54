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

/** How `readStreets` reads a part of a street list (street-halves.ts). */
export interface StreetReading {
  /** Whether the text starts with the header (default true). */
  readonly header?: boolean;
  /** Keeps each distinct value once (shared by the parts of one list). */
  readonly intern?: (value: string) => string;
  /** Fail where a row would have to be read across lines (see `CsvOptions.lineByLine`). */
  readonly lineByLine?: boolean;
}

/** Reads `Name,PostalCode,Locality,RegionalKey,Borough,Suburb` (the Berlin extract or the national file). */
export async function readStreets(
  bytes: Uint8Array,
  file: string,
  reading: StreetReading = {},
): Promise<StreetRow[]> {
  const intern = reading.intern ?? interner();
  const options = {
    ...(reading.header === false
      ? { header: undefined, columns: STREETS_HEADER.length }
      : { header: STREETS_HEADER }),
    ...(reading.lineByLine === true ? { lineByLine: true } : {}),
  };
  return parseCsv(decodeUtf8(bytes, file), file, options, (row, line) => {
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
