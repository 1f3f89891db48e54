/**
 * The street list's second half, read on a thread (street-halves.ts): its rows sent back as
 * columns of indices into their distinct values, a few typed arrays instead of 600,000 objects.
 */
import { parentPort, workerData } from "node:worker_threads";
import { readStreets } from "./de-streets.ts";
import type { StreetColumns } from "./street-halves.ts";

const { bytes, file } = workerData as { bytes: Uint8Array; file: string };
try {
  const rows = await readStreets(bytes, file, { header: false, lineByLine: true });
  const index = new Map<string, number>();
  const values: string[] = [];
  const id = (value: string | undefined) => {
    if (value === undefined) return -1;
    let known = index.get(value);
    if (known === undefined) {
      known = values.length;
      values.push(value);
      index.set(value, known);
    }
    return known;
  };
  const columns = Array.from({ length: 6 }, () => new Int32Array(rows.length));
  rows.forEach((row, i) => {
    [row.name, row.postalCode, row.locality, row.regionalKey, row.borough, row.suburb].forEach(
      (value, column) => ((columns[column] as Int32Array)[i] = id(value)),
    );
  });
  parentPort?.postMessage(
    { values, columns } satisfies StreetColumns,
    columns.map((column) => column.buffer),
  );
} catch (error) {
  parentPort?.postMessage({ failed: error instanceof Error ? error.message : String(error) });
}
