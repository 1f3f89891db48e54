import { crc32, inflateRawSync } from "node:zlib";
import { READER_LIMIT_BYTES } from "./limits.ts";

/** A zip archive starts with a local file header ("PK\x03\x04"). */
export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    bytes[2] === 0x03 &&
    bytes[3] === 0x04
  );
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes, followed by a comment of at most 65,535. */
const END_RECORD_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;

interface DirectoryEntry {
  readonly name: string;
  readonly flags: number;
  readonly method: number;
  readonly crc: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
}

class ZipError extends Error {}

/**
 * The one entry of a zip archive whose name matches `entry`; fails if none or several do.
 *
 * The archive is read by its central directory, and the entry is chosen there, before anything is
 * inflated: an archive of many matching entries costs nothing. The chosen entry inflates to at
 * most its declared size, which must be within `maxBytes` (what the readers can hold as one
 * string), and its size and CRC-32 must be what the directory declares: a lying or damaged
 * archive fails instead of yielding a silently truncated source.
 */
export function unzipEntry(
  bytes: Uint8Array,
  entry: RegExp,
  maxBytes: number = READER_LIMIT_BYTES,
): { name: string; bytes: Uint8Array } {
  let entries: DirectoryEntry[];
  try {
    entries = readDirectory(bytes);
  } catch (error) {
    throw new Error(
      `not a readable zip archive: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const names = entries.map((e) => e.name);
  const matches = entries.filter((e) => !e.name.endsWith("/") && entry.test(e.name));
  const [chosen] = matches;
  if (chosen === undefined || matches.length > 1) {
    throw new Error(
      `expected one zip entry matching ${entry}, found ${matches.length === 0 ? "none" : matches.map((e) => e.name).join(", ")} (entries: ${names.join(", ") || "none"})`,
    );
  }
  return { name: chosen.name, bytes: inflateEntry(bytes, chosen, maxBytes) };
}

function readDirectory(bytes: Uint8Array): DirectoryEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndRecord(view);
  const count = view.getUint16(end + 10, true);
  const directoryBytes = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || directoryBytes === 0xffffffff || directoryOffset === 0xffffffff)
    throw new ZipError("a zip64 archive (not supported)");
  if (directoryOffset + directoryBytes > end)
    throw new ZipError("the central directory lies outside the archive");
  const entries: DirectoryEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== DIRECTORY_ENTRY)
      throw new ZipError(`central directory entry ${i + 1} of ${count} is damaged`);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > end)
      throw new ZipError(`central directory entry ${i + 1} of ${count} is damaged`);
    entries.push({
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function findEndRecord(view: DataView): number {
  const last = view.byteLength - END_RECORD_BYTES;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT_BYTES; at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  throw new ZipError("no end of central directory record (a truncated archive?)");
}

function inflateEntry(bytes: Uint8Array, entry: DirectoryEntry, maxBytes: number): Uint8Array {
  const fail = (reason: string) => new Error(`zip entry ${entry.name}: ${reason}`);
  if ((entry.flags & 1) !== 0) throw fail("encrypted (not supported)");
  if (entry.method !== 0 && entry.method !== 8)
    throw fail(`compression method ${entry.method} (only stored and deflated entries are read)`);
  if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff)
    throw fail("zip64 sizes (not supported)");
  if (entry.size > maxBytes)
    throw fail(`declares ${entry.size} bytes, more than the limit of ${maxBytes} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localOffset;
  if (local + 30 > bytes.byteLength || view.getUint32(local, true) !== LOCAL_HEADER)
    throw fail("its local header is missing or damaged");
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (start + entry.compressedSize > bytes.byteLength)
    throw fail("its data runs past the end of the archive (a truncated archive?)");
  const data = bytes.subarray(start, start + entry.compressedSize);
  const inflated = entry.method === 0 ? data : inflate(data, entry.size, fail);
  if (inflated.byteLength !== entry.size)
    throw fail(`holds ${inflated.byteLength} bytes, but declares ${entry.size}`);
  const crc = crc32(inflated) >>> 0;
  if (crc !== entry.crc)
    throw fail(
      `CRC-32 ${hex(crc)} does not match the declared ${hex(entry.crc)} (a damaged archive)`,
    );
  return inflated;
}

/** Inflates at most `size` bytes (one more is room to notice that the data goes on). */
function inflate(data: Uint8Array, size: number, fail: (reason: string) => Error): Uint8Array {
  try {
    return new Uint8Array(inflateRawSync(data, { maxOutputLength: size + 1 }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE")
      throw fail(`inflates to more than the declared ${size} bytes`);
    throw fail(`cannot be inflated (${error instanceof Error ? error.message : String(error)})`);
  }
}

const hex = (value: number) => value.toString(16).padStart(8, "0");
