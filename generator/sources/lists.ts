import { parseCsv } from "./csv.ts";
import { SourceError } from "./errors.ts";
import { fromLine, UniqueKeys } from "./keys.ts";
import { decodeLatin1, decodeUtf8 } from "./text.ts";

export interface ChCantonRow {
  readonly key: string;
  readonly name: string;
  readonly shortName: string;
}
export interface LiCommuneRow {
  readonly key: string;
  readonly name: string;
  readonly electoralDistrict: string;
}

/** BFS `GDEHist_KT.txt`: Latin-1, tab-separated, no header: number, abbreviation, name, date of entry. */
export async function readChCantons(bytes: Uint8Array, file: string): Promise<ChCantonRow[]> {
  const numbers = new UniqueKeys(file, "canton number");
  const abbreviations = new UniqueKeys(file, "canton abbreviation");
  return parseCsv(
    decodeLatin1(bytes, file),
    file,
    { header: undefined, columns: 4, delimiter: "\t" },
    ([key = "", shortName = "", name = ""], line) => {
      if (!/^[0-9]{1,2}$/.test(key) || !/^[A-Z]{2}$/.test(shortName) || name.trim() === "") {
        throw new SourceError(
          file,
          line,
          "expected canton number, two-letter abbreviation and name",
        );
      }
      numbers.add(key, line);
      abbreviations.add(shortName, line);
      return { key, name: name.normalize("NFC").trim(), shortName };
    },
  );
}

/** OpenPLZ `li/communes.csv`: `Key,Name,ElectoralDistrict`. */
export async function readLiCommunes(bytes: Uint8Array, file: string): Promise<LiCommuneRow[]> {
  const numbers = new UniqueKeys(file, "commune number (BFS)");
  return parseCsv(
    decodeUtf8(bytes, file),
    file,
    { header: ["Key", "Name", "ElectoralDistrict"] },
    ([key = "", name = "", electoralDistrict = ""], line) => {
      if (!/^70[0-9]{2}$/.test(key) || name.trim() === "")
        throw new SourceError(file, line, "expected a BFS number 70xx and a name");
      numbers.add(key, line);
      return fromLine(
        {
          key,
          name: name.normalize("NFC").trim(),
          electoralDistrict: electoralDistrict.normalize("NFC").trim(),
        },
        line,
      );
    },
  );
}
