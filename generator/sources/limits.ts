import { constants } from "node:buffer";

/**
 * The largest source the readers can take: they decode a source into one string, and a string
 * holds at most this many UTF-16 code units (about 512 MiB on 64-bit V8). A UTF-8 or Latin-1 file
 * never decodes to more code units than it has bytes, so a source within this many bytes fits.
 * Every source, read from disk, downloaded or inflated out of an archive, is held to it, so one
 * that is too large fails with one line naming it instead of deep inside a reader.
 */
export const READER_LIMIT_BYTES: number = constants.MAX_STRING_LENGTH;

/** `536870888 bytes (512.0 MiB)`: a limit or a size as messages give it. */
export function describeBytes(bytes: number): string {
  return `${bytes} bytes (${(bytes / 1024 / 1024).toFixed(1)} MiB)`;
}
