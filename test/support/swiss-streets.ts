import { readFileSync, writeFileSync } from "node:fs";
import { dataFile } from "./paths.ts";

/**
 * A street directory in swisstopo's upstream format (`amtliches-strassenverzeichnis_*_2056.csv`:
 * BOM, `;`, the 13 upstream columns), generated from the real register of localities: every
 * locality row gets a few streets named for test purposes (the same few names everywhere, so the
 * locality filter has work to do; a dozen in Liechtenstein), with the row's postal code, locality, commune, canton and
 * point. Every seventh street runs on into the next row's locality of the same commune (a
 * `ZIP_LABEL` list); statuses cycle through real, planned, outdated and empty. Liechtenstein's
 * rows are in it too, and so are the two rows whose commune is not in force. Written to a
 * temporary file by the tests; never shipped as data.
 */
export const SWISS_STREETS_HEADER =
  "STR_ESID;STN_LABEL;ZIP_LABEL;COM_FOSNR;COM_NAME;COM_CANTON;STR_TYPE;STR_STATUS;STR_OFFICIAL;STR_VALID;STR_MODIFIED;STR_EASTING;STR_NORTHING";

const NAMES = [
  "Dorfstrasse",
  "Bahnhofstrasse",
  "Route de l'Église",
  "Via Cantonale",
  "Schulweg",
  "Chemin des Écoliers",
];
const STATUSES = ["real", "real", "planned", "outdated", ""];

export interface GeneratedStreet {
  readonly key: string;
  readonly name: string;
  /** `PLZ4 name` of each locality the street runs through. */
  readonly zipLabels: readonly string[];
  readonly communeKey: string;
  readonly status: string;
}

export function generateSwissStreets(file: string): GeneratedStreet[] {
  const register = readFileSync(dataFile("ch/AMTOVZ_CSV_LV95.csv"), "utf8")
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line !== "")
    .map((line) => line.split(";"));
  const streets: (GeneratedStreet & {
    communeName: string;
    canton: string;
    east: string;
    north: string;
  })[] = [];
  register.forEach(
    (
      [
        name = "",
        postalCode = "",
        ,
        ,
        communeName = "",
        communeKey = "",
        canton = "",
        ,
        east = "",
        north = "",
      ],
      i,
    ) => {
      const next = register[i + 1];
      // Liechtenstein's few localities get a dozen streets each, so its example requests have a page 2.
      const count = /^70(0[1-9]|1[01])$/.test(communeKey) ? 12 : 1 + (i % 4);
      for (let n = 0; n < count; n++) {
        const key = String(10_000_000 + streets.length);
        const zipLabels = [`${postalCode} ${name}`];
        if (
          Number(key) % 7 === 0 &&
          next !== undefined &&
          next[5] === communeKey &&
          next[0] !== name
        )
          zipLabels.push(`${next[1]} ${next[0]}`);
        streets.push({
          key,
          name: NAMES[(i + n) % NAMES.length] ?? "",
          zipLabels,
          communeKey,
          communeName,
          canton,
          status: STATUSES[streets.length % STATUSES.length] ?? "",
          east: east.split(".")[0] ?? "",
          north: north.split(".")[0] ?? "",
        });
      }
    },
  );
  const lines = streets.map((s) =>
    [
      s.key,
      s.name,
      s.zipLabels.join(", "),
      s.communeKey,
      s.communeName,
      s.canton,
      "Street",
      s.status,
      "true",
      "true",
      "01.01.2026",
      s.east,
      s.north,
    ].join(";"),
  );
  writeFileSync(file, `\uFEFF${SWISS_STREETS_HEADER}\r\n${lines.join("\r\n")}\r\n`);
  return streets.map(({ key, name, zipLabels, communeKey, status }) => ({
    key,
    name,
    zipLabels,
    communeKey,
    status,
  }));
}
