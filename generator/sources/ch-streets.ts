import { parseCsv } from "./csv.ts";
import { SourceError } from "./errors.ts";
import { FIELD_LIMIT, LIST_FIELD_LIMIT } from "./field-limits.ts";
import { decodeUtf8 } from "./text.ts";

/** One street at one postal locality: a `ZIP_LABEL` list yields one of these per entry. */
export interface SwissStreet {
  /** The federal street identifier (ESID). */
  readonly key: string;
  readonly name: string;
  readonly postalCode: string;
  readonly locality: string;
  /** BFS commune number. */
  readonly communeKey: string;
  readonly communeName: string;
  /** Canton abbreviation; empty for Liechtenstein. */
  readonly canton: string;
  /** `real`, `planned`, `outdated` or empty, as swisstopo writes it. */
  readonly status: SwissStreetStatus;
}

export const SWISS_STREET_STATUSES = ["", "planned", "real", "outdated"] as const;
export type SwissStreetStatus = (typeof SWISS_STREET_STATUSES)[number];
const isStatus = (value: string): value is SwissStreetStatus =>
  (SWISS_STREET_STATUSES as readonly string[]).includes(value);

/** The data file inside swisstopo's zip (`amtliches-strassenverzeichnis_ch_2056.csv.zip`, `…_li_…`). */
export const SWISS_STREETS_ENTRY = /(^|\/)amtliches-strassenverzeichnis_(ch|li)_2056\.csv$/i;

const HEADER = [
  "STR_ESID",
  "STN_LABEL",
  "ZIP_LABEL",
  "COM_FOSNR",
  "COM_NAME",
  "COM_CANTON",
  "STR_TYPE",
  "STR_STATUS",
  "STR_OFFICIAL",
  "STR_VALID",
  "STR_MODIFIED",
  "STR_EASTING",
  "STR_NORTHING",
];

/**
 * swisstopo's official street directory (`amtliches-strassenverzeichnis_{ch,li}_2056.csv`, inside
 * the published zip): UTF-8 with BOM, `;`-separated, one row per street. `ZIP_LABEL` is a list
 * (`1695 Rueyres-St-Laurent, 1695 Villarsel-le-Gibloux`) when a street runs through several postal
 * localities; each entry becomes a street of its own, as OpenPLZ has them.
 */
export async function readSwissStreets(bytes: Uint8Array, file: string): Promise<SwissStreet[]> {
  const rows = await parseCsv(
    decodeUtf8(bytes, file),
    file,
    // ZIP_LABEL lists every postal locality a street runs through.
    { header: HEADER, delimiter: ";", limits: [FIELD_LIMIT, FIELD_LIMIT, LIST_FIELD_LIMIT] },
    (row, line) => {
      const [
        key = "",
        name = "",
        zipLabel = "",
        communeKey = "",
        communeName = "",
        canton = "",
        ,
        status = "",
      ] = row;
      if (!/^[0-9]+$/.test(key))
        throw new SourceError(file, line, `STR_ESID '${key}' is not a number`);
      if (name.trim() === "") throw new SourceError(file, line, "STN_LABEL is empty");
      if (!/^[0-9]{1,5}$/.test(communeKey))
        throw new SourceError(file, line, `COM_FOSNR '${communeKey}' is not a BFS number`);
      const streetStatus = status.trim();
      if (!isStatus(streetStatus))
        throw new SourceError(
          file,
          line,
          `STR_STATUS '${status}' is not one of ${SWISS_STREET_STATUSES.filter((s) => s !== "").join(", ")} or empty`,
        );
      return zipLabels(zipLabel, file, line).map(({ postalCode, locality }): SwissStreet => ({
        key,
        name: name.normalize("NFC").trim(),
        postalCode,
        locality,
        communeKey,
        communeName: communeName.normalize("NFC").trim(),
        canton: canton.trim(),
        status: streetStatus,
      }));
    },
  );
  return rows.flat();
}

/** `8752 Näfels` or `1695 A, 1695 B`: four-digit postal codes with locality names. */
export function zipLabels(
  label: string,
  file: string,
  line: number,
): { postalCode: string; locality: string }[] {
  const entries = label.split(/,\s*(?=[0-9]{4} )/);
  return entries.map((entry) => {
    const match = /^([0-9]{4}) (\S.*)$/.exec(entry.trim());
    if (match?.[1] === undefined || match[2] === undefined)
      throw new SourceError(
        file,
        line,
        `ZIP_LABEL '${label}' is not a list of 'postal code locality'`,
      );
    return { postalCode: match[1], locality: match[2].normalize("NFC").trim() };
  });
}
