import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DOWNLOADS_INDEX, type DownloadsManifest } from "../contract/downloads.ts";
import { readDownloadFile } from "../io/read.ts";
import { deployedFiles } from "../sources/deployed.ts";

/** How long one file may take to arrive (a dataset part is up to 24 MiB). */
const FETCH_TIMEOUT_MS = 120_000;

/**
 * Where a copy is synced from: a deployment or a local server (`http(s)://…`), or a build
 * directory (a path or a `file://` URL). Only the public download files are read.
 */
export interface SyncSource {
  /** For messages: the URL or the directory. */
  readonly where: string;
  /** Over the network, where a dataset's gzip copy (a fifth of its bytes) is worth reading instead. */
  readonly remote: boolean;
  readonly manifest: DownloadsManifest;
  /** A file by its public path (`/downloads/…`); undefined when there is none. */
  read(path: string): Promise<Uint8Array | undefined>;
}

export async function openSource(from: string): Promise<SyncSource> {
  if (/^https?:\/\//i.test(from)) {
    const base = new URL(from);
    const manifestUrl = base.pathname.endsWith(DOWNLOADS_INDEX)
      ? base.href
      : new URL(DOWNLOADS_INDEX, base).href;
    const deployed = await deployedFiles(manifestUrl, FETCH_TIMEOUT_MS);
    return {
      where: new URL(deployed.where).origin,
      remote: true,
      manifest: manifestOf(deployed.manifest, deployed.where),
      read: deployed.read,
    };
  }
  const dir = from.startsWith("file:") ? fileURLToPath(from) : resolve(from);
  const bytes = await readDownloadFile(dir, DOWNLOADS_INDEX);
  if (bytes === undefined)
    throw new Error(`${dir} is not a build (no ${DOWNLOADS_INDEX.slice(1)}); run npm run build`);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    throw new Error(`${dir}${DOWNLOADS_INDEX} is not JSON`);
  }
  return {
    where: dir,
    remote: false,
    manifest: manifestOf(json, `${dir}${DOWNLOADS_INDEX}`),
    read: (path) => readDownloadFile(dir, path),
  };
}

/** The manifest's build, feed and complete datasets: not the views' files (two per locality nationally). */
function manifestOf(json: unknown, where: string): DownloadsManifest {
  const manifest = json as Partial<DownloadsManifest> | null;
  if (typeof manifest?.builtAt !== "string" || !Array.isArray(manifest.files))
    throw new Error(`${where}: not a downloads manifest (no builtAt or files)`);
  return {
    ...(manifest as DownloadsManifest),
    files: manifest.files.filter((file) => file.filter === undefined),
  };
}
