import { csvHeader, type CsvColumn } from "../contract/csv.ts";
import type { RecordChange } from "./record-diff.ts";

/**
 * A resource's change file in each format. JSON: an array of `{"change":"removed","old":{…}}`,
 * `{"change":"changed","old":{…},"new":{…}}` and `{"change":"added","new":{…}}`, the records as
 * in the download. CSV: the download's columns after a first column `Change`; a changed record is
 * two rows, `changed-from` with its old values, then `changed-to` with its new ones.
 */
export function changeFileTexts(
  changes: readonly RecordChange[],
  columns: readonly CsvColumn[],
): { json: string; csv: string } {
  const json = changes.map((change) => {
    if (change.kind === "added") return `{"change":"added","new":${change.json}}`;
    if (change.kind === "removed") return `{"change":"removed","old":${change.old}}`;
    return `{"change":"changed","old":${change.old},"new":${change.json}}`;
  });
  const rows = changes.map((change) => {
    if (change.kind === "added") return `added,${change.csv}`;
    if (change.kind === "removed") return `removed,${change.oldCsv}`;
    return `changed-from,${change.oldCsv}changed-to,${change.csv}`;
  });
  return { json: `[${json.join(",")}]`, csv: `Change,${csvHeader(columns)}${rows.join("")}` };
}

export function countChanges(changes: readonly RecordChange[]): {
  added: number;
  removed: number;
  changed: number;
} {
  const counts = { added: 0, removed: 0, changed: 0 };
  for (const change of changes) counts[change.kind]++;
  return counts;
}
