import { previousBuild } from "../io/disk.ts";
import { readBuildManifest } from "../io/read.ts";
import { asManifest, type Predecessor } from "./predecessor.ts";

/** The build in `dir` (the previous output) as a predecessor: its listed files; none when `dir` holds no build. */
export function localPredecessor(dir: string): Predecessor | undefined {
  const previous = previousBuild(dir);
  const manifest = readBuildManifest(dir);
  if (previous === undefined || manifest === undefined) return undefined;
  return {
    where: dir,
    manifest: asManifest(manifest.json, manifest.path),
    read: (path) => Promise.resolve(previous.read(path)),
  };
}
