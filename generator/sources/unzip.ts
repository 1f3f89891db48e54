import { unzipSync } from "fflate";

/** A zip archive starts with a local file header ("PK\x03\x04"). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Refuses entries that would inflate beyond this (a broken or hostile archive). */
const MAX_ENTRY_BYTES = 1024 * 1024 * 1024;

/** The one entry of a zip archive whose name matches `entry`; fails if none or several do. */
export function unzipEntry(bytes: Uint8Array, entry: RegExp): { name: string; bytes: Uint8Array } {
  const names: string[] = [];
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        names.push(file.name);
        if (!entry.test(file.name)) return false;
        if (file.originalSize > MAX_ENTRY_BYTES) throw new Error(`zip entry ${file.name} is too large (${file.originalSize} bytes)`);
        return true;
      },
    });
  } catch (error) {
    throw new Error(`not a readable zip archive: ${error instanceof Error ? error.message : String(error)}`);
  }
  const matches = Object.keys(files);
  const [name] = matches;
  if (name === undefined || matches.length > 1) {
    throw new Error(`expected one zip entry matching ${entry}, found ${matches.length === 0 ? "none" : matches.join(", ")} (entries: ${names.join(", ") || "none"})`);
  }
  return { name, bytes: files[name] ?? new Uint8Array() };
}
