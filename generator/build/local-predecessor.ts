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
  };
}
