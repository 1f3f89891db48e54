import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * Zip archives written byte by byte, so a test can make them lie: declared sizes and CRCs are
 * whatever the entry says, not what its data holds. Layout as in PKWARE's APPNOTE (local headers,
 * central directory, end record), no zip64, no data descriptors.
 */
export interface CraftedEntry {
  readonly name: string;
  /** The entry's data as stored in the archive (already deflated for method 8). */
  readonly data: Uint8Array;
  readonly method: 0 | 8;
  readonly crc: number;
  /** The declared inflated size. */
  readonly size: number;
  /** General purpose flags besides UTF-8 names (bit 0: encrypted). */
  readonly flags?: number;
}

/** An entry whose declarations are true: `text` deflated (or stored), with its real size and CRC. */
export function honestEntry(name: string, bytes: Uint8Array, method: 0 | 8 = 8): CraftedEntry {
  return {
    name,
    data: method === 8 ? new Uint8Array(deflateRawSync(bytes)) : bytes,
    method,
    crc: crc32(bytes) >>> 0,
    size: bytes.byteLength,
  };
}

/**
 * `mib` MiB of zero bytes deflated: one 1 MiB block, flushed so that it stands alone, repeated
 * (about 1 KB per MiB), then an empty final block. True size and CRC: a small archive that
 * inflates to a lot.
 */
export function zeroBombEntry(name: string, mib: number): CraftedEntry {
  const zeros = new Uint8Array(1024 * 1024);
  const block = deflateRawSync(zeros, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const end = deflateRawSync(new Uint8Array(0));
  const data = new Uint8Array(block.byteLength * mib + end.byteLength);
  let crc = 0;
  for (let i = 0; i < mib; i++) {
    data.set(block, i * block.byteLength);
    crc = crc32(zeros, crc);
  }
  data.set(end, block.byteLength * mib);
  return { name, data, method: 8, crc: crc >>> 0, size: mib * 1024 * 1024 };
}

export function craftZip(entries: readonly CraftedEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const directory: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = new TextEncoder().encode(entry.name);
    const local = header(30 + name.byteLength, (view) => {
      view.setUint32(0, 0x04034b50, true);
      view.setUint16(4, 20, true);
      fields(view, 6, entry);
      view.setUint16(26, name.byteLength, true);
    });
    local.set(name, 30);
    const central = header(46 + name.byteLength, (view) => {
      view.setUint32(0, 0x02014b50, true);
      view.setUint16(4, 20, true);
      view.setUint16(6, 20, true);
      fields(view, 8, entry);
      view.setUint16(28, name.byteLength, true);
      view.setUint32(42, offset, true);
    });
    central.set(name, 46);
    parts.push(local, entry.data);
    directory.push(central);
    offset += local.byteLength + entry.data.byteLength;
  }
  const directoryBytes = directory.reduce((sum, d) => sum + d.byteLength, 0);
  const end = header(22, (view) => {
    view.setUint32(0, 0x06054b50, true);
    view.setUint16(8, entries.length, true);
    view.setUint16(10, entries.length, true);
    view.setUint32(12, directoryBytes, true);
    view.setUint32(16, offset, true);
  });
  return Buffer.concat([...parts, ...directory, end]);
}

/** Flags, method, time, date, CRC, sizes: the same fields at `at` in both headers. */
function fields(view: DataView, at: number, entry: CraftedEntry): void {
  view.setUint16(at, 0x0800 | (entry.flags ?? 0), true); // bit 11: names in UTF-8
  view.setUint16(at + 2, entry.method, true);
  view.setUint32(at + 8, entry.crc, true);
  view.setUint32(at + 12, entry.data.byteLength, true);
  view.setUint32(at + 16, entry.size, true);
}

function header(bytes: number, write: (view: DataView) => void): Uint8Array {
  const out = new Uint8Array(bytes);
  write(new DataView(out.buffer));
  return out;
}
