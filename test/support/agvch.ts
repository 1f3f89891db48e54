import { readFileSync } from "node:fs";
import { AGVCH_SNAPSHOT_HEADER } from "../../generator/sources/ch-agvch.ts";
import { dataFile } from "./paths.ts";

/**
 * The embedded BFS register (GDEHist, Latin-1, tab-separated) in the format of the BFS snapshot
 * API (`communes/snapshot?date=DD-MM-YYYY`, see data/README.md): the cantons, the districts (type
 * 15) and cantons without districts (type 16, one row for the whole canton) and the political
 * communes (type 11) valid on `date`, each with its parent's historical number, as the publisher's
 * documented fixture has them. A test fixture generated from the real register, row by row.
 */
export function agvchSnapshotOf(date: string): string {
  const day = (value: string) => value.split(".").reverse().join("");
  const validOn = (from: string, to: string) =>
    day(from) <= day(date) && (to === "" || day(to) >= day(date));
  const rows = (name: string) =>
    readFileSync(dataFile(`ch/${name}`))
      .toString("latin1")
      .split(/\r?\n/)
      .filter((line) => line !== "")
      .map((line) => line.split("\t"));
  const cantons = rows("GDEHist_KT.txt").map(([key = "", short = "", name = "", from = ""]) => [
    key,
    key,
    from,
    "",
    "1",
    "",
    name,
    short,
    "",
    "",
    "",
    "",
  ]);
  const districts = rows("GDEHist_BEZ.txt")
    .filter((r) => (r[5] === "15" || r[5] === "16") && validOn(r[8] ?? "", r[11] ?? ""))
    .map(
      ([
        id = "",
        canton = "",
        key = "",
        name = "",
        short = "",
        type = "",
        inscription = "",
        ,
        from = "",
        radiation = "",
        ,
        to = "",
      ]) => {
        const note =
          type === "16"
            ? ["Canton qui n’est pas subdivisé en districts", "Kanton ohne Bezirksunterteilung"]
            : ["", ""];
        return [id, key, from, to, "2", canton, name, short, inscription, radiation, ...note];
      },
    );
  const communes = rows("GDEHist_GDE.txt")
    .filter((r) => r[6] === "11" && validOn(r[10] ?? "", r[13] ?? ""))
    // Communes registered in 1848 carry mutation number 1000 in GDEHist and none in the snapshot.
    .map(
      ([
        id = "",
        district = "",
        ,
        key = "",
        name = "",
        short = "",
        ,
        ,
        inscription = "",
        ,
        from = "",
        radiation = "",
        ,
        to = "",
      ]) => [
        id,
        key,
        from,
        to,
        "3",
        district,
        name,
        short,
        inscription === "1000" ? "" : inscription,
        radiation,
        "",
        "",
      ],
    );
  const csv = (fields: readonly string[]) =>
    fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(",");
  return (
    [AGVCH_SNAPSHOT_HEADER, ...cantons, ...districts, ...communes].map(csv).join("\r\n") + "\r\n"
  );
}
