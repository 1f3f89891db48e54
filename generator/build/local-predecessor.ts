import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { previousBuild, type PreviousBuild } from "../io/disk.ts";
import { readBuildManifest } from "../io/read.ts";
import { asManifest, type Predecessor } from "./predecessor.ts";

/**
 * The build in `dir` (the previous output) as a predecessor: its listed files; none when `dir`
 * holds no build. `previous`: its file list, when the caller has read it already.
 */
export function localPredecessor(
  dir: string,
  previous: PreviousBuild | undefined = previousBuild(dir),
): Predecessor | undefined {
  const manifest = readBuildManifest(dir);
  if (previous === undefined || manifest === undefined) return undefined;
  return {
    where: dir,
    manifest: asManifest(manifest.json, manifest.path),
    read: (path) => Promise.resolve(previous.read(path)),
    readInto: (path, into) => Promise.resolve(readListedInto(previous, path, into)),
  };
}

/** A listed file's bytes in `into`, or in a fresh buffer when they do not fit there. */
function readListedInto(previous: PreviousBuild, path: string, into: Buffer): Buffer | undefined {
  if (!previous.files.has(path)) return undefined;
  let fd: number;
  try {
    fd = openSync(join(previous.root, path), "r");
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (size > into.length) return previous.read(path);
    let length = 0;
    for (let n = 1; n > 0 && length < size; length += n)
      n = readSync(fd, into, length, size - length, length);
    return into.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
