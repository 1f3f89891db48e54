import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureStreets } from "./fixture.ts";
import { dataFile } from "./paths.ts";

/** The German sources cut to two states, as files: `--source de-gv100ad=…` and so on. */
export interface GermanCut {
  readonly "de-gv100ad": string;
  readonly "de-postcodes": string;
  readonly "de-streets": string;
}

/** GV100AD's state keys and Open Postal Codes' state names of the cut. */
const STATES: Readonly<Record<string, string>> = { "11": "Berlin", "14": "Sachsen" };

/**
 * The German sources cut to Berlin and Saxony, written into `dir`: GV100AD's records under their
 * keys (748 of 16,000), Open Postal Codes' rows of the two states and the street fixture's rows
 * there (its 600 Berlin streets and the sample's Saxon ones). Every resource keeps records (Saxony
 * has government regions and municipal associations of several members) and every join stays
 * within the guards' limits. For tests whose subject is not the German data (what the CLI prints,
 * where the sources come from): reading, joining and rendering all of Germany is most of a build of
 * the embedded data (a plan of it with the street fixture took 6.9–7.6 s of CPU, of the cut 3.6 s).
 */
export function germanCut(dir: string): GermanCut {
  const cut = (name: string, file: string, keep: (line: string, index: number) => boolean) => {
    const path = join(dir, name);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    writeFileSync(path, `${lines.filter(keep).join("\n")}\n`);
    return path;
  };
  const states = Object.keys(STATES);
  const names = Object.values(STATES);
  const key = new RegExp(`,(?:${states.join("|")})\\d{6},`);
  return {
    "de-gv100ad": cut("GV100AD_30112025.txt", dataFile("de/GV100AD_30112025.txt"), (line) =>
      states.includes(line.slice(10, 12)),
    ),
    "de-postcodes": cut(
      "post_code.csv",
      dataFile("de/post_code.csv"),
      // Open Postal Codes quotes no field: `code,city,country,state,…`.
      (line, i) => i === 0 || names.includes(line.split(",")[3] ?? ""),
    ),
    // The regional key is a row's only field of eight digits
    // (`Name,PostalCode,Locality,RegionalKey,…`).
    "de-streets": cut(
      "streets-cut.csv",
      fixtureStreets(dir),
      (line, i) => i === 0 || key.test(line),
    ),
  };
}
