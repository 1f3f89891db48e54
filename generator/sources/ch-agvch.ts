import type { ChCommuneRow, ChDistrictRow } from "./ch.ts";
import { parseCsv } from "./csv.ts";
import { SourceError } from "./errors.ts";
import { fromLine } from "./keys.ts";
import type { ChCantonRow } from "./lists.ts";
import { decodeUtf8 } from "./text.ts";

/**
 * The BFS register of communes (Amtliches Gemeindeverzeichnis, AGVCH) as its snapshot API answers
 * `https://www.agvchapp.bfs.admin.ch/api/communes/snapshot?date=DD-MM-YYYY`: every canton (level
 * 1), district (level 2) and political commune (level 3) valid on that date, as UTF-8 CSV with a
 * header (a BOM and CRLF are accepted). `Parent` is the historical number of the unit one level
 * up; historical and BFS numbers are unique only within a level (district 101 Affoltern, commune
 * 101 Steinmaur). A canton without districts has one level-2 row for the whole canton. A unit
 * whose end is already recorded keeps its row until then (`ValidTo` on or after the date).
 */
export const AGVCH_SNAPSHOT_HEADER = [
  "HistoricalCode",
  "BfsCode",
  "ValidFrom",
  "ValidTo",
  "Level",
  "Parent",
  "Name",
  "ShortName",
  "Inscription",
  "Radiation",
  "Rec_Type_fr",
  "Rec_Type_de",
] as const;

export const AGVCH_SNAPSHOT = "https://www.agvchapp.bfs.admin.ch/api/communes/snapshot";

/** The snapshot of the build's day (the API takes `DD-MM-YYYY`). */
export function agvchSnapshotUrl(today: Date): string {
  const [year, month, day] = today.toISOString().slice(0, 10).split("-");
  return `${AGVCH_SNAPSHOT}?date=${day}-${month}-${year}`;
}

/** Whether the bytes are a snapshot (its header), rather than the GDEHist files. */
export function isAgvchSnapshot(bytes: Uint8Array): boolean {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return new TextDecoder()
    .decode(bytes.subarray(start, start + 32))
    .startsWith(`${AGVCH_SNAPSHOT_HEADER[0]},${AGVCH_SNAPSHOT_HEADER[1]},`);
}

export interface AgvchSnapshot {
  readonly cantons: ChCantonRow[];
  readonly districts: ChDistrictRow[];
  readonly communes: ChCommuneRow[];
}

interface Unit {
  readonly line: number;
  readonly historicalCode: string;
  readonly bfsCode: string;
  readonly level: 1 | 2 | 3;
  readonly parent: string;
  readonly name: string;
  readonly shortName: string;
}

/** A political commune, as GDEHist types it (the snapshot has no other kind of commune). */
const POLITICAL_COMMUNE = 11;

/**
 * Reads a snapshot into the rows of the three registers. A district's canton and a commune's
 * district are found by `Parent` among the rows one level up; one whose parent is not there gets
 * no canton (the join counts and reports it). A duplicate number within a level fails.
 */
export async function readAgvchSnapshot(bytes: Uint8Array, file: string): Promise<AgvchSnapshot> {
  const units = await parseCsv(
    decodeUtf8(bytes, file),
    file,
    { header: AGVCH_SNAPSHOT_HEADER },
    (row, line): Unit => {
      const [
        historicalCode = "",
        bfsCode = "",
        validFrom = "",
        validTo = "",
        level = "",
        parent = "",
        name = "",
        shortName = "",
      ] = row.map((field) => field.normalize("NFC").trim());
      const fail = (reason: string): never => {
        throw new SourceError(file, line, reason);
      };
      if (!/^[0-9]{1,6}$/.test(historicalCode))
        fail(`HistoricalCode '${historicalCode}' is not a number`);
      if (!/^[0-9]{1,4}$/.test(bfsCode)) fail(`BfsCode '${bfsCode}' is not a number`);
      for (const [what, date] of [
        ["ValidFrom", validFrom],
        ["ValidTo", validTo],
      ] as const) {
        if (date !== "" && !/^[0-9]{2}\.[0-9]{2}\.[0-9]{4}$/.test(date))
          fail(`${what} '${date}' is not a date DD.MM.YYYY`);
      }
      if (level !== "1" && level !== "2" && level !== "3")
        fail(`Level '${level}' is not 1, 2 or 3`);
      if (level === "1" ? parent !== "" : !/^[0-9]{1,6}$/.test(parent))
        fail(level === "1" ? "a canton has a Parent" : `Parent '${parent}' is not a number`);
      if (name === "") fail("Name is empty");
      if (level === "1" && !/^[A-Z]{2}$/.test(shortName))
        fail(`a canton's ShortName '${shortName}' is not its two-letter abbreviation`);
      if (shortName === "") fail("ShortName is empty");
      return {
        line,
        historicalCode,
        bfsCode,
        level: Number(level) as Unit["level"],
        parent,
        name,
        shortName,
      };
    },
  );
  const levels = [1, 2, 3].map((level) =>
    byHistoricalCode(
      units.filter((u) => u.level === level),
      file,
    ),
  );
  const [
    cantons = new Map<string, Unit>(),
    districts = new Map<string, Unit>(),
    communes = new Map<string, Unit>(),
  ] = levels;
  const cantonOf = (district: Unit | undefined) =>
    district === undefined ? undefined : cantons.get(district.parent);
  return {
    cantons: [...cantons.values()].map((c) => ({
      key: c.bfsCode,
      name: c.name,
      shortName: c.shortName,
    })),
    districts: [...districts.values()].map((d) => ({
      historicalCode: d.historicalCode,
      cantonKey: cantonOf(d)?.bfsCode ?? "",
      key: d.bfsCode,
      name: d.name,
      shortName: d.shortName,
    })),
    communes: [...communes.values()].map((c) =>
      fromLine(
        {
          historicalCode: c.historicalCode,
          districtHistoricalCode: c.parent,
          cantonShortName: cantonOf(districts.get(c.parent))?.shortName ?? "",
          key: c.bfsCode,
          name: c.name,
          shortName: c.shortName,
          type: POLITICAL_COMMUNE,
        },
        c.line,
      ),
    ),
  };
}

/** One level's units by historical number; a number given twice in a level (historical or BFS) fails. */
function byHistoricalCode(units: readonly Unit[], file: string): Map<string, Unit> {
  const byCode = new Map<string, Unit>();
  const bfsCodes = new Map<string, Unit>();
  for (const unit of units) {
    const twin = byCode.get(unit.historicalCode) ?? bfsCodes.get(unit.bfsCode);
    if (twin !== undefined)
      throw new SourceError(
        file,
        unit.line,
        `level ${unit.level} has HistoricalCode ${unit.historicalCode} / BfsCode ${unit.bfsCode} twice (line ${twin.line} too)`,
      );
    byCode.set(unit.historicalCode, unit);
    bfsCodes.set(unit.bfsCode, unit);
  }
  return byCode;
}
