import { createHash } from "node:crypto";
import { relative } from "node:path";
import { newestEdition } from "./editions.ts";
import { download, type Download, type FetchOptions } from "./fetch.ts";
import { checkSourceFile, readSourceFile } from "../io/read.ts";
import { READER_LIMIT_BYTES } from "./limits.ts";
import { publicUrl, withPublicUrls } from "./public-url.ts";
import {
  SOURCE_NAMES,
  sourceSpec,
  type OptionalSourceName,
  type RequiredSourceName,
  type SourceLocation,
  type SourceName,
} from "./registry.ts";
import { isZip, unzipEntry } from "./unzip.ts";

/** Where a source's bytes came from, recorded in `_build.json` and the downloads manifest. */
export interface SourceProvenance {
  /** A path relative to the project root, or a URL (as published: see `publicUrl`). */
  readonly location: string;
  /** The archive entry read, for a zip. */
  readonly entry?: string;
  readonly sha256: string;
  readonly bytes: number;
  /** The publisher's `Last-Modified`, for a download that had one. */
  readonly lastModified?: string;
  /** For a source released in editions: the edition's reference day, and the listing page it was found on. */
  readonly edition?: string;
  readonly listing?: string;
  /** A remote build read the embedded copy instead of the publisher's file (`--allow-embedded`). */
  readonly allowEmbedded?: true;
}

/** One file of a source (most sources are one file; a publisher may split one, e.g. by province). */
export interface SourcePart {
  /** How errors name it: its path, or `name (url)`. */
  readonly label: string;
  readonly bytes: Uint8Array;
  readonly provenance: SourceProvenance;
}

export interface LoadedSource extends SourcePart {
  readonly name: SourceName;
  /** Every file of the source; the source itself (label, bytes) is the first. */
  readonly parts: readonly SourcePart[];
}

/** Every source a build reads: each required one, and each optional one that was given or fetched. */
export type LoadedSources = { readonly [K in RequiredSourceName]: LoadedSource } & {
  readonly [K in OptionalSourceName]?: LoadedSource;
};

export interface LoadEvent {
  readonly name: SourceName;
  readonly location: string;
  readonly origin: "file" | "network" | "cache" | "stale";
  readonly bytes: number;
  readonly fetchedAt?: number;
  /** The embedded copy read by a remote build (`--allow-embedded`). */
  readonly allowEmbedded?: true;
  /** The edition found on the publisher's listing page. */
  readonly edition?: { readonly date: string; readonly listing: string };
}

/** Downloads a URL once per build, however many sources it holds (the BFS snapshot holds three). */
type Downloader = (url: string) => Promise<Download>;

/** Reads or downloads every source that has a location (downloads in parallel) and unpacks archives. */
export async function loadSources(
  locations: Readonly<Partial<Record<SourceName, SourceLocation>>>,
  root: string,
  fetchOptions: FetchOptions,
  onLoad?: (event: LoadEvent) => void,
): Promise<LoadedSources> {
  const maxBytes = fetchOptions.maxBytes ?? READER_LIMIT_BYTES;
  const downloads = new Map<string, Promise<Download>>();
  const fetchOnce: Downloader = (url) => {
    const pending = downloads.get(url) ?? download(url, fetchOptions);
    downloads.set(url, pending);
    return pending;
  };
  const located = SOURCE_NAMES.flatMap((name) => {
    const location = locations[name];
    return location === undefined ? [] : [{ name, location }];
  });
  for (const { name, location } of located)
    if (location.kind === "file")
      await checkSourceFile(location.path, maxBytes).catch((error: unknown) => {
        throw new Error(
          `source ${name}: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
  const loaded = await Promise.all(
    located.map(async ({ name, location }): Promise<LoadedSource> => {
      const parts =
        location.kind === "file"
          ? [
              await readPart(
                name,
                location.path,
                { root, maxBytes, allowEmbedded: location.embedded === true },
                onLoad,
              ),
            ]
          : location.kind === "listing"
            ? [await downloadEdition(name, location, fetchOnce, maxBytes, onLoad)]
            : await Promise.all(
                location.urls.map((url) => downloadPart(name, url, fetchOnce, maxBytes, onLoad)),
              );
      const [first] = parts;
      if (first === undefined) throw new Error(`source ${name}: no location`);
      return { name, ...first, parts };
    }),
  );
  const byName = Object.fromEntries(loaded.map((source) => [source.name, source])) as Partial<
    Record<SourceName, LoadedSource>
  >;
  const missing = SOURCE_NAMES.filter(
    (name) => sourceSpec(name).embedded !== undefined && byName[name] === undefined,
  );
  if (missing.length > 0)
    throw new Error(
      `no location for the source${missing.length === 1 ? "" : "s"} ${missing.join(", ")}`,
    );
  return byName as LoadedSources;
}

async function readPart(
  name: SourceName,
  path: string,
  how: { root: string; maxBytes: number; allowEmbedded: boolean },
  onLoad?: (event: LoadEvent) => void,
): Promise<SourcePart> {
  const { root, maxBytes, allowEmbedded } = how;
  const where = relative(root, path) || path;
  const raw = await readSourceFile(path, maxBytes).catch((error: unknown) => {
    throw new Error(`source ${name}: ${error instanceof Error ? error.message : String(error)}`);
  });
  onLoad?.({
    name,
    location: where,
    origin: "file",
    bytes: raw.byteLength,
    ...(allowEmbedded ? { allowEmbedded } : {}),
  });
  const part = unpack(name, raw, {
    where,
    maxBytes,
    label: (entry) => (entry === undefined ? where : `${where} → ${entry}`),
    fail: (reason) => new Error(`source ${name} (${where}): ${reason}`),
  });
  return allowEmbedded ? { ...part, provenance: { ...part.provenance, allowEmbedded } } : part;
}

async function downloadPart(
  name: SourceName,
  url: string,
  fetchOnce: Downloader,
  maxBytes: number,
  onLoad?: (event: LoadEvent) => void,
  edition?: LoadEvent["edition"],
): Promise<SourcePart> {
  const shown = publicUrl(url);
  const fail = (reason: string) =>
    new Error(`source ${name} (${shown}): ${withPublicUrls(reason)}`);
  const got = await fetchOnce(url).catch((error: unknown) => {
    throw fail(`download failed: ${error instanceof Error ? error.message : String(error)}`);
  });
  onLoad?.({
    name,
    location: shown,
    origin: got.origin,
    bytes: got.bytes.byteLength,
    fetchedAt: got.fetchedAt,
    ...(edition === undefined ? {} : { edition }),
  });
  if (sourceSpec(name).archiveEntry !== undefined && !isZip(got.bytes))
    throw fail("expected a zip archive (the publisher ships this source zipped)");
  return unpack(name, got.bytes, {
    where: shown,
    maxBytes,
    label: (entry) => `${name} (${shown}${entry === undefined ? "" : ` → ${entry}`})`,
    fail,
    ...(got.lastModified === undefined ? {} : { lastModified: got.lastModified }),
  });
}

/**
 * The newest edition on the publisher's listing page: the page is read, the newest edition's file
 * downloaded, and its data must be of that edition's day (never silently an older one).
 */
async function downloadEdition(
  name: SourceName,
  location: Extract<SourceLocation, { kind: "listing" }>,
  fetchOnce: Downloader,
  maxBytes: number,
  onLoad?: (event: LoadEvent) => void,
): Promise<SourcePart> {
  const { listing, today, mirror } = location;
  const page = mirror(listing.listing);
  const shownPage = publicUrl(page);
  const fail = (reason: string) =>
    new Error(`source ${name} (${shownPage}): ${withPublicUrls(reason)}`);
  const listed = await fetchOnce(page).catch((error: unknown) => {
    throw fail(
      `download of the listing page failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  onLoad?.({
    name,
    location: shownPage,
    origin: listed.origin,
    bytes: listed.bytes.byteLength,
    fetchedAt: listed.fetchedAt,
  });
  const html = new TextDecoder().decode(listed.bytes);
  const newest = newestEdition(listing.editions(html, listing.listing), today);
  if (newest === undefined)
    throw fail(
      `the listing page names no ${listing.what} edition (links to the editions with their day DD.MM.YYYY); has the page changed?`,
    );
  const url = mirror(newest.url);
  const part = await downloadPart(name, url, fetchOnce, maxBytes, onLoad, {
    date: newest.date,
    listing: shownPage,
  });
  const held = listing.dateOf(part.bytes);
  if (held !== newest.date)
    throw fail(
      `the newest ${listing.what} edition listed is ${newest.date}, but ${publicUrl(url)} holds the edition of ${held ?? "an unknown day"}`,
    );
  return { ...part, provenance: { ...part.provenance, edition: newest.date, listing: shownPage } };
}

/** A zip is recognised by its bytes: the one entry the source names is read from it. */
function unpack(
  name: SourceName,
  raw: Uint8Array,
  how: {
    where: string;
    maxBytes: number;
    label: (entry?: string) => string;
    fail: (reason: string) => Error;
    lastModified?: string;
  },
): SourcePart {
  const pattern = sourceSpec(name).archiveEntry;
  let bytes = raw;
  let entry: string | undefined;
  if (isZip(raw)) {
    if (pattern === undefined) throw how.fail("is a zip archive, but this source is a plain file");
    try {
      ({ name: entry, bytes } = unzipEntry(raw, pattern, how.maxBytes));
    } catch (error) {
      throw how.fail(error instanceof Error ? error.message : String(error));
    }
  }
  const provenance: SourceProvenance = {
    location: how.where,
    ...(entry === undefined ? {} : { entry }),
    sha256: createHash("sha256").update(bytes).digest("hex"),
    bytes: bytes.byteLength,
    ...(how.lastModified === undefined ? {} : { lastModified: how.lastModified }),
  };
  return { label: how.label(entry), bytes, provenance };
}
