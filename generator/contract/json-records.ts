/**
 * A compact JSON array of objects (a dataset download, as written) cut into its records without
 * parsing them: the change feed's diff finds where an old record ends that differs from the new
 * one, and parses only the few records that differ; `npm run sync` parses a part record by record,
 * never a whole part's records at once.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Calls `onRecord` with the byte range of each top-level object of the array in `bytes`, in order. */
export function forEachJsonRecord(
  bytes: Uint8Array,
  onRecord: (start: number, end: number) => void,
): void {
  let depth = 0;
  let start = -1;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      // Skip the string: its brackets and commas are text.
      for (i++; i < bytes.length && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === 1) start = i;
      depth++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      if (depth === 1) onRecord(start, i + 1);
    }
  }
  if (depth !== 0) throw new Error("not a complete JSON array (a download cut short?)");
}

/** Where the object that starts at `start` (a `{`) ends: the index just past its closing `}`. */
export function jsonRecordEnd(bytes: Uint8Array, start: number): number {
  let depth = 0;
  for (let i = start; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      for (i++; i < bytes.length && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return i + 1;
  }
  throw new Error("not a complete JSON record (a download cut short?)");
}
