import { SourceError } from "./errors.ts";
import {
  fieldLengthCheck,
  checkRecordLength,
  FIELD_LIMIT,
  LIST_FIELD_LIMIT,
} from "./field-limits.ts";
import { UniqueKeys } from "./keys.ts";
import { decodeUtf8 } from "./text.ts";

/**
 * Statistik Austria's register files. Upstream they are `;`-separated UTF-8 with a BOM: a title
 * line, an "Erstellt am:" line, the header, the rows and a "Quelle: STATISTIK AUSTRIA…" footer.
 * The embedded copies drop parts of that (the Gemeindeliste has no title and footer, the street
 * sample no header, the district list is an older plain-text list); every reader takes both.
 */
interface Row {
  readonly line: number;
  readonly fields: readonly string[];
}

/**
 * The data rows of a Statistik Austria table: after `header` (when the file has it; lines before
 * it are the title and "Erstellt am"), up to the "Quelle:" footer. Each row must have one of
 * `widths` fields (trailing empty fields of the export count).
 */
function tableRows(
  text: string,
  file: string,
  header: readonly string[],
  widths: readonly number[],
  headerOptional: boolean,
  limits?: readonly number[],
): Row[] {
  const lines = text.split(/\r?\n/);
  const checkLengths = fieldLengthCheck(file, {
    delimiter: ";",
    quote: null,
    names: header,
    ...(limits === undefined ? {} : { columns: limits }),
  });
  lines.forEach((line, i) => checkLengths(line, i + 1));
  const isHeader = (line: string) =>
    header.every((name, i) => (line.split(";")[i] ?? "").trim() === name);
  const headerAt = lines.findIndex(isHeader);
  if (headerAt === -1 && !headerOptional)
    throw new SourceError(file, 1, `expected the header '${header.join(";")}'`);
  if (headerAt > 2)
    throw new SourceError(
      file,
      1,
      `expected at most a title and an 'Erstellt am' line before the header, found ${headerAt} lines`,
    );
  const rows: Row[] = [];
  let footer = false;
  for (let i = headerAt + 1; i < lines.length; i++) {
    const raw = lines[i] ?? "";
    const line = i + 1;
    if (raw.trim() === "") continue;
    if (footer) throw new SourceError(file, line, "text after the 'Quelle:' footer");
    if (raw.startsWith("Quelle:")) {
      footer = true;
      continue;
    }
    if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(raw))
      throw new SourceError(file, line, "a field holds a control character");
    const fields = raw.split(";").map((field) => field.normalize("NFC").trim());
    if (!widths.includes(fields.length))
      throw new SourceError(
        file,
        line,
        `expected ${widths.join(" or ")} columns, found ${fields.length}`,
      );
    rows.push({ line, fields });
  }
  if (rows.length === 0) throw new SourceError(file, headerAt + 2, "the file has no data rows");
  return rows;
}

function digits(value: string, length: number, what: string, file: string, line: number): string {
  if (!new RegExp(`^[0-9]{${length}}$`).test(value))
    throw new SourceError(file, line, `${what} '${value}' is not ${length} digits`);
  return value;
}
function nonEmpty(value: string, what: string, file: string, line: number): string {
  if (value === "") throw new SourceError(file, line, `${what} is empty`);
  return value;
}

export interface AtDistrictRow {
  /** District key (Kennziffer pol. Bezirk): the first three digits of its municipalities' keys; 900 for all of Vienna's. */
  readonly key: string;
  /** District code (Politischer Bez. Code): equal to the key outside Vienna, 901–923 for Vienna's districts. */
  readonly code: string;
  readonly name: string;
  readonly provinceKey: string;
}

export interface AtProvinceRow {
  readonly key: string;
  readonly name: string;
}

export interface AtDistrictList {
  readonly provinces: AtProvinceRow[];
  readonly districts: AtDistrictRow[];
}

export const POLBEZIRKE_HEADER = [
  "Bundeslandkennziffer",
  "Bundesland",
  "Kennziffer pol. Bezirk",
  "Politischer Bezirk",
  "Politischer Bez. Code",
] as const;

/** Vienna's districts share the key 900 (one municipality, 23 Bezirke); the old list only has their codes. */
const VIENNA = "9";

/**
 * Austrian political districts with their federal provinces, from either Statistik Austria's
 * `polbezirke.csv` or the older openmundi text list (`1   Burgenland` headings, `101 .. Eisenstadt
 * (Stadt)` district lines, `#` comments).
 */
export function readAtDistricts(bytes: Uint8Array, file: string): AtDistrictList {
  const text = decodeUtf8(bytes, file);
  const provinces = new Map<string, string>();
  const districts: AtDistrictRow[] = [];
  const codes = new UniqueKeys(file, "district code");
  // Vienna's 23 Bezirke share the key 900; every other district has a key of its own.
  const keys = new UniqueKeys(file, "district key");
  if (text.split(/\r?\n/, 3).some((line) => line.startsWith(`${POLBEZIRKE_HEADER[0]};`))) {
    const provinceLines = new Map<string, number>();
    for (const { line, fields } of tableRows(text, file, POLBEZIRKE_HEADER, [5], false)) {
      const [provinceKey = "", province = "", key = "", name = "", code = ""] = fields;
      digits(provinceKey, 1, "Bundeslandkennziffer", file, line);
      const named = provinces.get(provinceKey);
      if (named !== undefined && named !== province)
        throw new SourceError(
          file,
          line,
          `federal province ${provinceKey} is '${province}' here and '${named}' on line ${provinceLines.get(provinceKey)}`,
        );
      provinces.set(provinceKey, nonEmpty(province, "Bundesland", file, line));
      if (!provinceLines.has(provinceKey)) provinceLines.set(provinceKey, line);
      codes.add(code, line);
      if (provinceKey !== VIENNA) keys.add(key, line);
      districts.push({
        key: digits(key, 3, "Kennziffer pol. Bezirk", file, line),
        code: digits(code, 3, "Politischer Bez. Code", file, line),
        name: nonEmpty(name, "Politischer Bezirk", file, line),
        provinceKey,
      });
    }
  } else {
    let province: string | undefined;
    const headings = new UniqueKeys(file, "federal province");
    for (const [index, raw] of text.split(/\r?\n/).entries()) {
      checkRecordLength(raw, index + 1, file);
      const line = raw.normalize("NFC").trim();
      if (line === "" || line.startsWith("#")) continue;
      const heading = /^([1-9])\s+(\S.*)$/.exec(line);
      const district = /^([1-9][0-9]{2})\s+\.\.\s+(\S.*)$/.exec(line);
      if (heading?.[1] !== undefined && heading[2] !== undefined) {
        province = heading[1];
        headings.add(province, index + 1);
        provinces.set(province, heading[2]);
      } else if (district?.[1] !== undefined && district[2] !== undefined) {
        const code = district[1];
        if (province === undefined || !code.startsWith(province))
          throw new SourceError(
            file,
            index + 1,
            `district ${code} is not under its federal province's heading`,
          );
        codes.add(code, index + 1);
        districts.push({
          key: province === VIENNA ? "900" : code,
          code,
          name: district[2],
          provinceKey: province,
        });
      } else
        throw new SourceError(
          file,
          index + 1,
          `neither a province heading nor a district line: '${line}'`,
        );
    }
  }
  if (provinces.size === 0) throw new SourceError(file, undefined, "no federal provinces");
  return { provinces: [...provinces].map(([key, name]) => ({ key, name })), districts };
}

export interface AtMunicipalityRow {
  /** Gemeindekennziffer (90001 for every row of Vienna). */
  readonly key: string;
  readonly name: string;
  /** Gemeindecode: unique per row; its first three digits are the district code. */
  readonly code: string;
  /** SR Statutarstadt, ST Stadtgemeinde, M Marktgemeinde, "" none. */
  readonly status: string;
  readonly postalCode: string;
  readonly otherPostalCodes: readonly string[];
}

export const GEMLISTE_HEADER = [
  "Gemeindekennziffer",
  "Gemeindename",
  "Gemeindecode",
  "Status",
  "PLZ des Gem.Amtes",
  "weitere Postleitzahlen",
] as const;

/** Statistik Austria's Gemeindeliste (`gemliste_knz.csv`), upstream or without title and footer. */
export function readAtMunicipalities(bytes: Uint8Array, file: string): AtMunicipalityRow[] {
  // "weitere Postleitzahlen" lists the municipality's further postal codes.
  const limits = [...Array<number>(5).fill(FIELD_LIMIT), LIST_FIELD_LIMIT];
  const codes = new UniqueKeys(file, "Gemeindecode");
  // Vienna is one municipality (90001) listed once per Bezirk; every other key is one row's.
  const keys = new UniqueKeys(file, "Gemeindekennziffer");
  return tableRows(decodeUtf8(bytes, file), file, GEMLISTE_HEADER, [6], false, limits).map(
    ({ line, fields }) => {
      const [key = "", name = "", code = "", status = "", postalCode = "", others = ""] = fields;
      if (!["SR", "ST", "M", ""].includes(status))
        throw new SourceError(file, line, `Status '${status}' is not SR, ST, M or empty`);
      codes.add(code, line);
      if (!key.startsWith(VIENNA)) keys.add(key, line);
      return {
        key: digits(key, 5, "Gemeindekennziffer", file, line),
        name: nonEmpty(name, "Gemeindename", file, line),
        code: digits(code, 5, "Gemeindecode", file, line),
        status,
        postalCode: digits(postalCode, 4, "PLZ des Gem.Amtes", file, line),
        otherPostalCodes:
          others === ""
            ? []
            : others
                .split(/\s+/)
                .map((plz) => digits(plz, 4, "weitere Postleitzahlen", file, line)),
      };
    },
  );
}

export interface AtStreetRow {
  readonly municipalityKey: string;
  readonly municipalityName: string;
  /** Ortschaftskennziffer. */
  readonly localityKey: string;
  readonly locality: string;
  /** Straßenkennziffer. */
  readonly key: string;
  readonly name: string;
  readonly postalCode: string;
  readonly municipalityCode: string;
}

export const GEMPLZSTR_HEADER = [
  "Gemeindekennziffer",
  "Politische Gemeinde",
  "Ortschaftskennziffer",
  "Ortschaftsname",
  "Straßenkennziffer",
  "Straßenname",
  "Postleitzahl",
  "Gemeindecode",
  "Zustellort",
] as const;

/** Statistik Austria's street directory (`gemplzstr_N.csv`), upstream (9 columns) or as the embedded sample (no header, without `Zustellort`). */
export function readAtStreets(bytes: Uint8Array, file: string): AtStreetRow[] {
  return tableRows(decodeUtf8(bytes, file), file, GEMPLZSTR_HEADER, [8, 9], true).map(
    ({ line, fields }) => {
      const [
        municipalityKey = "",
        municipalityName = "",
        localityKey = "",
        locality = "",
        key = "",
        name = "",
        postalCode = "",
        municipalityCode = "",
      ] = fields;
      return {
        municipalityKey: digits(municipalityKey, 5, "Gemeindekennziffer", file, line),
        municipalityName: nonEmpty(municipalityName, "Politische Gemeinde", file, line),
        localityKey: digits(localityKey, 5, "Ortschaftskennziffer", file, line),
        locality: nonEmpty(locality, "Ortschaftsname", file, line),
        key: digits(key, 6, "Straßenkennziffer", file, line),
        name: nonEmpty(name, "Straßenname", file, line),
        postalCode: digits(postalCode, 4, "Postleitzahl", file, line),
        municipalityCode: digits(municipalityCode, 5, "Gemeindecode", file, line),
      };
    },
  );
}
