import { parseCsv } from "./csv.ts";
import { SourceError } from "./errors.ts";
import { decodeLatin1, decodeUtf8 } from "./text.ts";

export interface AtFederalProvince {
  readonly key: string;
  readonly name: string;
}
export interface ChCanton {
  readonly key: string;
  readonly name: string;
  readonly shortName: string;
}
export interface LiCommune {
  readonly key: string;
  readonly name: string;
  readonly electoralDistrict: string;
}

/**
 * The federal-province headings of the openmundi district list (`1   Burgenland`); district lines
 * (`101 .. Eisenstadt (Stadt)`) and `#` comments are skipped here.
 */
export function readAtFederalProvinces(bytes: Uint8Array, file: string): AtFederalProvince[] {
  const provinces: AtFederalProvince[] = [];
  for (const [index, raw] of decodeUtf8(bytes, file).split(/\r?\n/).entries()) {
    const line = raw.normalize("NFC").trim();
    if (line === "" || line.startsWith("#")) continue;
    const heading = /^([1-9])\s+(\S.*)$/.exec(line);
    if (heading?.[1] !== undefined && heading[2] !== undefined) provinces.push({ key: heading[1], name: heading[2] });
    else if (!/^[1-9][0-9]{2}\s+\.\.\s+\S/.test(line)) throw new SourceError(file, index + 1, `neither a province heading nor a district line: '${line}'`);
  }
  if (provinces.length === 0) throw new SourceError(file, undefined, "no federal province headings");
  return provinces;
}

/** BFS `GDEHist_KT.txt`: Latin-1, tab-separated, no header: number, abbreviation, name, date of entry. */
export async function readChCantons(bytes: Uint8Array, file: string): Promise<ChCanton[]> {
  return parseCsv(decodeLatin1(bytes), file, { header: undefined, columns: 4, delimiter: "\t" }, ([key = "", shortName = "", name = ""], line) => {
    if (!/^[0-9]{1,2}$/.test(key) || !/^[A-Z]{2}$/.test(shortName) || name.trim() === "") {
      throw new SourceError(file, line, "expected canton number, two-letter abbreviation and name");
    }
    return { key, name: name.normalize("NFC").trim(), shortName };
  });
}

/** OpenPLZ `li/communes.csv`: `Key,Name,ElectoralDistrict`. */
export async function readLiCommunes(bytes: Uint8Array, file: string): Promise<LiCommune[]> {
  return parseCsv(decodeUtf8(bytes, file), file, { header: ["Key", "Name", "ElectoralDistrict"] }, ([key = "", name = "", electoralDistrict = ""], line) => {
    if (!/^70[0-9]{2}$/.test(key) || name.trim() === "") throw new SourceError(file, line, "expected a BFS number 70xx and a name");
    return { key, name: name.normalize("NFC").trim(), electoralDistrict: electoralDistrict.normalize("NFC").trim() };
  });
}
