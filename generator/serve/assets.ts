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
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import {
  ASSETS_IGNORE_PATH,
  FILE_LIST_PATH,
  HEADERS_PATH,
  REDIRECTS_PATH,
} from "../contract/layout.ts";

/**
 * Cloudflare's static-asset service as Miniflare runs it (the asset worker and the router worker of
 * workers-shared, which Miniflare ships), fed from the build's own file list (`_files.tsv`) instead
 * of Miniflare's walk, which stats and hashes every one of up to 100,000 files before the first
 * answer, though the build's list has their hashes already (docs/OPERATIONS.md, "Scale").
 */

const WORKERS = join(createRequire(import.meta.url).resolve("miniflare"), "../workers/assets");
export const ASSET_WORKER_SCRIPT = join(WORKERS, "assets.worker.js");
export const ROUTER_WORKER_SCRIPT = join(WORKERS, "router.worker.js");

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
async function contentTypesFor(extensions: ReadonlySet<string>): Promise<Map<string, string>> {
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

const HEADER_SIZE = 20;
const ENTRY_SIZE = 40;
const HASH_SIZE = 16;
/** Never assets (Cloudflare's rules), besides what `.assetsignore` lists. */
const NOT_ASSETS = [HEADERS_PATH, REDIRECTS_PATH, ASSETS_IGNORE_PATH];

export interface AssetManifest {
  /** The asset worker's ASSETS_MANIFEST: a 20-byte header, then (path hash, content hash) entries sorted by path hash. */
  readonly manifest: Uint8Array;
  /** "content hash (hex) \t path \t content type" lines: what the KV shim serves for a content hash. */
  readonly reverse: Uint8Array;
  readonly count: number;
  /** Files the list names that are not in the directory (not served: a 404, as after a deploy of the directory). */
  readonly missing: number;
}

/**
 * The manifest from `_files.tsv` (path, SHA-256 in base64url, bytes), without reading the files; a
 * listed file that is gone is left out (one stat each, no file is read).
 * The content hash (the asset's key and its ETag) is the file's digest with its path: stable across
 * rebuilds of the same bytes, like Cloudflare's (which is the digest with the extension), but one
 * key per file, so that a file changed after the build is served as it is now, not as a twin that
 * had its bytes. Flat buffers, no object per file: this keeps Node's memory low after the start.
 */
export async function manifestFromFileList(dir: string): Promise<AssetManifest> {
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
  const paths: string[] = [];
  const digests: string[] = [];
  let missing = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const [path = "", digest = ""] = line.split("\t", 2);
    if (path === "" || digest === "")
      throw new Error(
        `${join(dir, FILE_LIST_PATH)}: not a file list (line "${line.slice(0, 80)}")`,
      );
    if (ignored.has(path)) continue;
    if (!existsSync(join(dir, path))) {
      missing++;
      continue;
    }
    paths.push(path);
    digests.push(digest);
  }
  const n = paths.length;
  const types = await contentTypesFor(new Set(paths.map((path) => extname(path))));
  const pathHashes = Buffer.allocUnsafe(n * HASH_SIZE);
  const contentHashes = Buffer.allocUnsafe(n * HASH_SIZE);
  for (let i = 0; i < n; i++) {
    const path = paths[i] ?? "";
    hash("sha256", path, "buffer").copy(pathHashes, i * HASH_SIZE, 0, HASH_SIZE);
    hash("sha256", `${digests[i] ?? ""}\t${path}`, "buffer").copy(
      contentHashes,
      i * HASH_SIZE,
      0,
      HASH_SIZE,
    );
  }
  const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) =>
    pathHashes.compare(
      pathHashes,
      b * HASH_SIZE,
      (b + 1) * HASH_SIZE,
      a * HASH_SIZE,
      (a + 1) * HASH_SIZE,
    ),
  );
  const manifest = new Uint8Array(HEADER_SIZE + n * ENTRY_SIZE); // header and padding: zeros
  const reverse: string[] = [];
  order.forEach((i, k) => {
    const at = HEADER_SIZE + k * ENTRY_SIZE;
    pathHashes.copy(manifest, at, i * HASH_SIZE, (i + 1) * HASH_SIZE);
    contentHashes.copy(manifest, at + HASH_SIZE, i * HASH_SIZE, (i + 1) * HASH_SIZE);
    const path = paths[i] ?? "";
    reverse.push(
      `${contentHashes.toString("hex", i * HASH_SIZE, (i + 1) * HASH_SIZE)}\t${path}\t${types.get(extname(path)) ?? ""}\n`,
    );
  });
  return { manifest, reverse: new Uint8Array(Buffer.from(reverse.join(""))), count: n, missing };
}

/**
 * Stands in for the KV namespace the asset worker reads (`getWithMetadata(contentHash)`, its only
 * call): the file behind a content hash, from the build directory (a disk service).
 */
export const KV_SHIM = String.raw`
import { WorkerEntrypoint } from "cloudflare:workers";
// Files up to 1 MiB are handed over as bytes: a stream passed from isolate to isolate costs workerd
// more than copying a small file (docs/OPERATIONS.md, "Scale").
const SMALL = 1 << 20;
let byHash; // content hash → [path, content type]; immutable, built once per isolate
function lookup(env, key) {
  if (byHash === undefined) {
    byHash = new Map();
    for (const line of new TextDecoder().decode(env.REVERSE).split("\n")) {
      if (line === "") continue;
      const [hash, path, type] = line.split("\t");
      byHash.set(hash, [path, type === "" ? null : type]);
    }
  }
  return byHash.get(key);
}
export class Kv extends WorkerEntrypoint {
  async getWithMetadata(key) {
    const entry = lookup(this.env, key);
    if (entry === undefined) return { value: null, metadata: null };
    const response = await this.env.FILES.fetch(new URL(entry[0].split("/").map(encodeURIComponent).join("/"), "http://files"));
    if (!response.ok) { await response.body?.cancel(); return { value: null, metadata: null }; }
    const length = Number(response.headers.get("content-length") ?? Infinity);
    const value = length <= SMALL ? await response.arrayBuffer() : response.body;
    return { value, metadata: entry[1] === null ? null : { contentType: entry[1] } };
  }
}
export default { fetch() { return new Response(null, { status: 404 }); } };
`;
