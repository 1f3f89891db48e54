import { ASSETS_PLUGIN, buildAssetManifest, type Log } from "miniflare";
import { hash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import {
  ASSETS_IGNORE_PATH,
  FILE_LIST_PATH,
  HEADERS_PATH,
  REDIRECTS_PATH,
} from "../contract/layout.ts";

/**
 * What the server needs to know of a build's files to serve them as Cloudflare's static-asset
 * service does: its `_headers` and `_redirects` rules as Cloudflare's own parsers read them, each
 * file's content type as wrangler's upload gives it, and the file list (`_files.tsv`) instead of
 * a walk that stats and hashes every one of up to 100,000 files before the first answer.
 */

/** Cloudflare's limits (not enforced by the local runtime: a warning keeps a deploy failure from hiding). */
export const MAX_ASSETS = 100_000;

/**
 * The asset worker's CONFIG exactly as Miniflare builds it: `_headers` and `_redirects` parsed by
 * Cloudflare's own parsers (bundled into Miniflare, not exported), run over a scratch directory
 * that holds only those two files. Invalid rules are logged as warnings.
 */
export async function assetConfigFor(
  dir: string,
  assetConfig: Record<string, unknown>,
  compatibilityDate: string,
  log: Log,
): Promise<Record<string, unknown>> {
  const scratch = mkdtempSync(join(tmpdir(), "plz-asset-config-"));
  try {
    for (const name of [HEADERS_PATH, REDIRECTS_PATH])
      if (existsSync(join(dir, name))) copyFileSync(join(dir, name), join(scratch, name));
    const services = await ASSETS_PLUGIN.getServices({
      options: {
        assets: { directory: scratch, workerName: "plz", assetConfig },
        compatibilityDate,
      },
      log,
    } as never);
    const list = (
      Array.isArray(services)
        ? services
        : ((services as { services?: unknown[] } | undefined)?.services ?? [])
    ) as { name?: string; worker?: { bindings?: { name?: string; json?: string }[] } }[];
    const json = list
      .find((s) => s.name?.startsWith("assets:assets-service:"))
      ?.worker?.bindings?.find((b) => b.name === "CONFIG")?.json;
    if (json === undefined)
      throw new Error(
        "miniflare's assets plugin changed: no CONFIG binding on its asset service (check the wrangler version)",
      );
    return JSON.parse(json) as Record<string, unknown>;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Content types exactly as Miniflare (and wrangler's upload) give them, asked once per extension. */
export async function contentTypesFor(
  extensions: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const scratch = mkdtempSync(join(tmpdir(), "plz-content-types-"));
  try {
    for (const ext of extensions) writeFileSync(join(scratch, `f${ext}`), "");
    const { assetsReverseMap } = await buildAssetManifest(scratch);
    return new Map(
      Object.values(assetsReverseMap).map((v) => [extname(v.filePath), v.contentType ?? ""]),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Never assets (Cloudflare's rules), besides what `.assetsignore` lists. */
const NOT_ASSETS = [HEADERS_PATH, REDIRECTS_PATH, ASSETS_IGNORE_PATH];

export interface FileIndex {
  /** A served file's ETag value (without quotes) and content type, by its path (decoded, from `/`). */
  lookup(path: string): { readonly etag: string; readonly type: string | undefined } | undefined;
  readonly count: number;
}

/**
 * The build's assets from `_files.tsv` (path, SHA-256 in base64url, bytes), without reading the
 * files: one string per file, the ETag derived when asked. The ETag is the file's digest hashed
 * with its path: stable across rebuilds of the same bytes, like Cloudflare's, but one per file,
 * so a file changed after the build is never answered with a twin's ETag. A listed file that is
 * gone is found out when it is asked for (no asset: the Worker's 404).
 */
export async function fileIndex(dir: string): Promise<FileIndex> {
  const text = readFileSync(join(dir, FILE_LIST_PATH), "utf8");
  const ignore = existsSync(join(dir, ASSETS_IGNORE_PATH))
    ? readFileSync(join(dir, ASSETS_IGNORE_PATH), "utf8")
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l !== "" && !l.startsWith("#"))
    : [];
  const glob = ignore.find((pattern) => !/^\/[^*?[!]+$/.test(pattern));
  if (glob !== undefined)
    throw new Error(
      `${join(dir, ASSETS_IGNORE_PATH)}: only literal paths are supported by the local server, not ${glob}`,
    );
  const ignored = new Set([...NOT_ASSETS, ...ignore]);
  const digests = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const [path = "", digest = ""] = line.split("\t", 2);
    if (path === "" || digest === "")
      throw new Error(
        `${join(dir, FILE_LIST_PATH)}: not a file list (line "${line.slice(0, 80)}")`,
      );
    if (!ignored.has(path)) digests.set(path, digest);
  }
  const types = await contentTypesFor(new Set([...digests.keys()].map((path) => extname(path))));
  return {
    count: digests.size,
    lookup(path) {
      const digest = digests.get(path);
      if (digest === undefined) return undefined;
      return {
        etag: hash("sha256", `${digest}\t${path}`, "hex").slice(0, 32),
        type: types.get(extname(path)) || undefined,
      };
    },
  };
}
