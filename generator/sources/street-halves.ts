import { Worker } from "node:worker_threads";
import { threadArgs } from "../io/thread-args.ts";
import { readStreets, type StreetRow } from "./de-streets.ts";
import { interner } from "./text.ts";

/** The second half of a street list as the thread sends it: its distinct values, and per column each row's (-1: none). */
export interface StreetColumns {
  readonly values: readonly string[];
  readonly columns: readonly Int32Array[];
}

/** Below this many bytes, a street list is read on one thread. */
export const SPLIT_OVER = 8 * 1024 * 1024;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * The national street list (tens of MB) read on two threads: the lines of its first half here, the
 * second half's on a thread of its own (street-worker.ts), at the same time; the same rows as
 * `readStreets` of the whole file. A half either thread cannot read line by line (a field that
 * spans lines, a defect): the whole file is read here instead, one line after the other, so that
 * what fails is what a plain read reports.
 */
export async function readStreetsInHalves(
  bytes: Uint8Array,
  file: string,
  /** Tests only: a smaller list than the default takes the same path. */
  splitOver = SPLIT_OVER,
): Promise<StreetRow[]> {
  const split = bytes.length < splitOver ? -1 : bytes.indexOf(0x0a, bytes.length >> 1);
  const startsWithBom = UTF8_BOM.every((byte, i) => bytes[split + 1 + i] === byte);
  if (split === -1 || split === bytes.length - 1 || startsWithBom) return readStreets(bytes, file);
  const second = onThread(new Uint8Array(bytes.subarray(split + 1)), file);
  second.catch(() => undefined); // awaited below; a failure there means a plain read
  const intern = interner();
  let rows: StreetRow[];
  try {
    rows = await readStreets(bytes.subarray(0, split + 1), file, { intern, lineByLine: true });
  } catch {
    return readStreets(bytes, file);
  }
  const half = await second.catch(() => undefined);
  if (half === undefined) return readStreets(bytes, file);
  const values = half.values.map(intern);
  const [name, postalCode, locality, regionalKey, borough, suburb] = half.columns;
  const at = (column: Int32Array | undefined, i: number) => {
    const index = column?.[i] ?? -1;
    return index < 0 ? undefined : values[index];
  };
  const count = name?.length ?? 0;
  for (let i = 0; i < count; i++)
    rows.push({
      name: at(name, i) ?? "",
      postalCode: at(postalCode, i) ?? "",
      locality: at(locality, i) ?? "",
      regionalKey: at(regionalKey, i) ?? "",
      borough: at(borough, i),
      suburb: at(suburb, i),
    });
  return rows;
}

/** The rows of a street list's second half (no header), read on a thread. */
function onThread(bytes: Uint8Array, file: string): Promise<StreetColumns> {
  const script = new URL("./street-worker.ts", import.meta.url);
  const worker = new Worker(script, {
    workerData: { bytes, file },
    transferList: [bytes.buffer as ArrayBuffer],
    execArgv: threadArgs(script),
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
  });
  return new Promise((resolve, reject) => {
    worker.once("message", (message: StreetColumns | { failed: string }) =>
      "failed" in message ? reject(new Error(message.failed)) : resolve(message),
    );
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the street list's thread exited (${code})`)));
  });
}
