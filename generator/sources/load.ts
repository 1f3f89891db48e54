import { createHash } from "node:crypto";
import { relative } from "node:path";
import { download, type FetchOptions } from "./fetch.ts";
import { readSource, SOURCE_NAMES, sourceSpec, type SourceLocation, type SourceName } from "./registry.ts";
import { isZip, unzipEntry } from "./unzip.ts";

/** Where a source's bytes came from, recorded in `_build.json` and the downloads manifest. */
export interface SourceProvenance {
  /** A path relative to the project root, or a URL. */
  readonly location: string;
  /** The archive entry read, for a zip. */
  readonly entry?: string;
  readonly sha256: string;
  readonly bytes: number;
  /** The publisher's `Last-Modified`, for a download that had one. */
  readonly lastModified?: string;
}

export interface LoadedSource {
  readonly name: SourceName;
  /** How errors name the source: its path, or `name (url)`. */
  readonly label: string;
  readonly bytes: Uint8Array;
  readonly provenance: SourceProvenance;
}

export type LoadedSources = Readonly<Record<SourceName, LoadedSource>>;

export interface LoadEvent {
  readonly name: SourceName;
  readonly location: string;
  readonly origin: "file" | "network" | "cache" | "stale";
  readonly bytes: number;
  readonly fetchedAt?: number;
}

/** Reads or downloads every source (downloads in parallel) and unpacks archives. */
export async function loadSources(
  locations: Readonly<Record<SourceName, SourceLocation>>,
  root: string,
  fetchOptions: FetchOptions,
  onLoad?: (event: LoadEvent) => void,
): Promise<LoadedSources> {
  const loaded = await Promise.all(SOURCE_NAMES.map((name) => loadSource(name, locations[name], root, fetchOptions, onLoad)));
  return Object.fromEntries(loaded.map((source) => [source.name, source])) as Record<SourceName, LoadedSource>;
}

async function loadSource(name: SourceName, location: SourceLocation, root: string, fetchOptions: FetchOptions, onLoad?: (event: LoadEvent) => void): Promise<LoadedSource> {
  const where = location.kind === "file" ? relative(root, location.path) || location.path : location.url;
  const fail = (reason: string): never => {
    throw new Error(location.kind === "file" ? reason : `source ${name} (${location.url}): ${reason}`);
  };
  let raw: Uint8Array;
  let lastModified: string | undefined;
  if (location.kind === "file") {
    raw = await readSource(location.path);
    onLoad?.({ name, location: where, origin: "file", bytes: raw.byteLength });
  } else {
    const got = await download(location.url, fetchOptions).catch((error: unknown) => fail(`download failed: ${error instanceof Error ? error.message : String(error)}`));
    raw = got.bytes;
    lastModified = got.lastModified;
    onLoad?.({ name, location: where, origin: got.origin, bytes: raw.byteLength, fetchedAt: got.fetchedAt });
  }
  const pattern = sourceSpec(name).archiveEntry;
  let bytes = raw;
  let entry: string | undefined;
  if (isZip(raw)) {
    if (pattern === undefined) fail("is a zip archive, but this source is a plain file");
    else {
      try {
        ({ name: entry, bytes } = unzipEntry(raw, pattern));
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
      }
    }
  } else if (pattern !== undefined && location.kind === "url") {
    fail("expected a zip archive (the publisher ships this source zipped)");
  }
  const label = location.kind === "file" ? where : `${name} (${location.url}${entry === undefined ? "" : ` → ${entry}`})`;
  const provenance: SourceProvenance = {
    location: where,
    ...(entry === undefined ? {} : { entry }),
    sha256: createHash("sha256").update(bytes).digest("hex"),
    bytes: bytes.byteLength,
    ...(lastModified === undefined ? {} : { lastModified }),
  };
  return { name, label, bytes, provenance };
}
