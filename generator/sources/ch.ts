import { parseCsv } from "./csv.ts";
import { SourceError } from "./errors.ts";
import { fromLine, UniqueKeys } from "./keys.ts";
import { decodeLatin1, decodeUtf8 } from "./text.ts";

/**
 * BFS historicised commune register (GDEHist), Latin-1, tab-separated, no header. Only entries in
 * force are returned: those without an abolition (the abolition mutation number is empty).
 */
export interface ChDistrictRow {
  /** Historical number (BZHISTID): what communes refer to. */
  readonly historicalCode: string;
  readonly cantonKey: string;
  /** District number (BFS). */
  readonly key: string;
  readonly name: string;
  readonly shortName: string;
}

export interface ChCommuneRow {
  /** Historical number (GDEHISTID). */
  readonly historicalCode: string;
  /** The district's historical number. */
  readonly districtHistoricalCode: string;
  readonly cantonShortName: string;
  /** Commune number (BFS). */
  readonly key: string;
  readonly name: string;
  readonly shortName: string;
  /** 11 political commune, 12 area without commune, 13 cantonal share of a lake. */
  readonly type: number;
}

const number = (value: string, what: string, file: string, line: number): string => {
  if (!/^[0-9]{1,6}$/.test(value))
    throw new SourceError(file, line, `${what} '${value}' is not a number`);
  return value;
};
const text = (value: string, what: string, file: string, line: number): string => {
  const trimmed = value.normalize("NFC").trim();
  if (trimmed === "") throw new SourceError(file, line, `${what} is empty`);
  return trimmed;
};

/** `GDEHist_BEZ.txt`: BZHISTID, KTNR, BZNR, BZNAME, BZNAMK, BZARTHNR, ADMNR, ADMART, ADMDAT, ABNR, ABART, ABDAT, MUTDAT. */
export async function readChDistricts(bytes: Uint8Array, file: string): Promise<ChDistrictRow[]> {
  const historical = new UniqueKeys(file, "historical district number (BZHISTID)");
  const numbers = new UniqueKeys(file, "number of a district in force (BZNR)");
  const rows = await parseCsv(
    decodeLatin1(bytes, file),
    file,
    { header: undefined, columns: 13, delimiter: "\t", quote: null },
    (row, line) => {
      const [
        historicalCode = "",
        cantonKey = "",
        key = "",
        name = "",
        shortName = "",
        ,
        ,
        ,
        ,
        abolished = "",
      ] = row;
      const inForce = abolished.trim() === "";
      historical.add(historicalCode, line);
      if (inForce) numbers.add(key, line);
      return {
        inForce,
        row: {
          historicalCode: number(historicalCode, "BZHISTID", file, line),
          cantonKey: number(cantonKey, "KTNR", file, line),
          key: number(key, "BZNR", file, line),
          name: text(name, "BZNAME", file, line),
          shortName: text(shortName, "BZNAMK", file, line),
        },
      };
    },
  );
  return rows.filter((r) => r.inForce).map((r) => r.row);
}

/** `GDEHist_GDE.txt`: GDEHISTID, GDEBZNR, GDEKT, GDEBFSNR, GDENAME, GDENAMK, GDEARTHNR, GDESTATUS, ADMNR, ADMART, ADMDAT, ABNR, ABART, ABDAT, MUTDAT. */
export async function readChCommunes(bytes: Uint8Array, file: string): Promise<ChCommuneRow[]> {
  const historical = new UniqueKeys(file, "historical commune number (GDEHISTID)");
  const numbers = new UniqueKeys(file, "number of a commune in force (GDEBFSNR)");
  const rows = await parseCsv(
    decodeLatin1(bytes, file),
    file,
    { header: undefined, columns: 15, delimiter: "\t", quote: null },
    (row, line) => {
      const [
        historicalCode = "",
        districtHistoricalCode = "",
        cantonShortName = "",
        key = "",
        name = "",
        shortName = "",
        type = "",
        ,
        ,
        ,
        ,
        abolished = "",
      ] = row;
      if (!/^[A-Z]{2}$/.test(cantonShortName))
        throw new SourceError(
          file,
          line,
          `canton '${cantonShortName}' is not a two-letter abbreviation`,
        );
      const inForce = abolished.trim() === "";
      historical.add(historicalCode, line);
      if (inForce) numbers.add(key, line);
      return {
        inForce,
        row: fromLine(
          {
            historicalCode: number(historicalCode, "GDEHISTID", file, line),
            districtHistoricalCode: number(districtHistoricalCode, "GDEBZNR", file, line),
            cantonShortName,
            key: number(key, "GDEBFSNR", file, line),
            name: text(name, "GDENAME", file, line),
            shortName: text(shortName, "GDENAMK", file, line),
            type: Number(number(type, "GDEARTHNR", file, line)),
          },
          line,
        ),
      };
    },
  );
  return rows.filter((r) => r.inForce).map((r) => r.row);
}

/** One row of swisstopo's official register of localities (Ortschaftenverzeichnis), CH and LI. */
export interface LocalityRow {
  readonly name: string;
  readonly postalCode: string;
  /** BFS commune number (7001–7011 in Liechtenstein). */
  readonly communeKey: string;
  /** Canton abbreviation; empty in Liechtenstein. */
  readonly canton: string;
  /** The locality's point in LV95 (metres). */
  readonly east: number;
  readonly north: number;
}

export const LOCALITY_REGISTER_HEADER = [
  "Ortschaftsname",
  "PLZ4",
  "Zusatzziffer",
  "ZIP_ID",
  "Gemeindename",
  "BFS-Nr",
  "Kantonskürzel",
  "Adressenanteil",
  "E",
  "N",
  "Sprache",
  "Validity",
] as const;

/** An LV95 coordinate in metres, within Switzerland's and Liechtenstein's range. */
function coordinate(
  value: string,
  what: string,
  min: number,
  max: number,
  file: string,
  line: number,
): number {
  const metres = Number(value);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || metres < min || metres > max)
    throw new SourceError(file, line, `${what} '${value}' is no LV95 coordinate`);
  return metres;
}

/** `AMTOVZ_CSV_LV95.csv`: UTF-8 (BOM), `;`-separated, with header. */
export async function readLocalityRegister(
  bytes: Uint8Array,
  file: string,
): Promise<LocalityRow[]> {
  return parseCsv(
    decodeUtf8(bytes, file),
    file,
    { header: LOCALITY_REGISTER_HEADER, delimiter: ";" },
    (row, line) => {
      const [
        name = "",
        postalCode = "",
        ,
        ,
        ,
        communeKey = "",
        canton = "",
        ,
        east = "",
        north = "",
      ] = row.map((field) => field.normalize("NFC").trim());
      if (!/^[0-9]{4}$/.test(postalCode))
        throw new SourceError(file, line, `PLZ4 '${postalCode}' is not four digits`);
      if (!/^[0-9]{1,4}$/.test(communeKey))
        throw new SourceError(file, line, `BFS-Nr '${communeKey}' is not a number`);
      if (name === "") throw new SourceError(file, line, "Ortschaftsname is empty");
      return {
        name,
        postalCode,
        communeKey,
        canton,
        east: coordinate(east, "E", 2_400_000, 2_900_000, file, line),
        north: coordinate(north, "N", 1_000_000, 1_350_000, file, line),
      };
    },
  );
}
