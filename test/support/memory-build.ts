import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  buildInto,
  buildToDirectory,
  type BuildOptions,
  type BuildSummary,
} from "../../generator/build/build.ts";
import { ASSETS_IGNORE_PATH, FILE_LIST_PATH } from "../../generator/contract/layout.ts";
import { createHandler, type Handler } from "../../generator/edge/handler.ts";
import { EMBEDDED_RESOURCES, RESOURCES } from "../../generator/resources/index.ts";
import type { AnyResource } from "../../generator/resources/resource.ts";
import { viewKey } from "../../generator/contract/address.ts";
import { parseCsvRows } from "../../generator/contract/csv.ts";
import { MemorySink } from "../../generator/io/sink.ts";
import { localAssets, memoryAssets } from "./local-assets.ts";
import { sharedBuild } from "./shared-build.ts";
import { ROOT } from "./paths.ts";

export type { Handler };

export interface MemoryBuild {
  /** The build's text files (not the packed chunks and gzip copies), every one read when first asked for. */
  readonly files: ReadonlyMap<string, string>;
  /** Every file's path from `/`, listed (not read) when first asked for. */
  readonly paths: readonly string[];
  /** One file's text, read alone (undefined when the build has no such file). */
  file(path: string): string | undefined;
  readonly summary: BuildSummary;
  readonly handler: Handler;
}

type BuildExtra = Partial<Pick<BuildOptions, "sources" | "only" | "inlineShardBytes">>;

/**
 * The build of the embedded data (or `sources`) at `maxFiles`, on disk and shared by the whole run
 * (shared-build.ts: the same arguments, one build; read-only, copy it to change it), with its
 * summary.
 */
export async function sharedDataBuild(
  maxFiles: number,
  extra: BuildExtra = {},
): Promise<{ dir: string; summary: BuildSummary }> {
  const { dir, value: summary } = await sharedBuild(
    { memory: 1, maxFiles, extra },
    async (out) =>
      (await buildToDirectory(
        {
          root: ROOT,
          maxFiles,
          headersTemplate: readFileSync(join(ROOT, "_headers"), "utf8"),
          builtAt: "2026-11-22T03:00:00.000Z",
          ...extra,
          sources: extra.sources ?? {},
        },
        out,
      )) as BuildSummary,
  );
  return { dir, summary };
}

/** The file budget of `embeddedBuild` (a suite that reads the build's directory asks sharedDataBuild for it). */
export const EMBEDDED_BUDGET = 8_000;

/**
 * The embedded data at 8,000 files, served in-process: the build the suites of single endpoints,
 * of the published counts, the OpenAPI client, the guards and verify share. A budget decides only
 * which pages are files, and the other resources change no answer of an endpoint, so one build of
 * everything serves them all (built once per run).
 */
export const embeddedBuild = (): Promise<MemoryBuild> => memoryBuild(EMBEDDED_BUDGET);

/**
 * The shared build of the embedded data (or `sources`, see sharedDataBuild) served with the
 * Worker's handler in-process: its text files in `files`, every file as the handler asks for it.
 */
export async function memoryBuild(maxFiles: number, extra: BuildExtra = {}): Promise<MemoryBuild> {
  const { dir, summary } = await sharedDataBuild(maxFiles, extra);
  return servedBuild(dir, summary);
}

/** A build on disk (a shared one: read-only) served with the Worker's handler in-process. */
export function servedBuild(dir: string, summary: BuildSummary): MemoryBuild {
  const handler = createHandler(localAssets(dir));
  // Read when first asked for: most suites only ask the handler, and a build of 90,000 files took
  // seconds of system time to read whole (resources.test.ts needs only its index shards).
  let files: ReadonlyMap<string, string> | undefined;
  let paths: readonly string[] | undefined;
  return {
    get files() {
      return (files ??= textFiles(dir));
    },
    get paths() {
      return (paths ??= listFiles(dir));
    },
    file: (path) => {
      const file = join(dir, path);
      return file.startsWith(`${dir}/`) && existsSync(file)
        ? readFileSync(file, "utf8")
        : undefined;
    },
    summary,
    handler,
  };
}

/**
 * A build into memory, for this suite alone (not shared, never on disk), served with the Worker's
 * handler in-process: for a build no other suite asks for, where writing its files and reading them
 * back was most of the work (resources.test.ts's 89,497 files: 38.8 s of CPU to a directory, 24.6 s
 * of it system time, and 15.2 s into memory, load 3.4–5).
 */
export async function unsharedMemoryBuild(options: BuildOptions): Promise<MemoryBuild> {
  const sink = new MemorySink();
  const summary = await buildInto(options, sink);
  const text = (data: string | Uint8Array) =>
    typeof data === "string" ? data : Buffer.from(data).toString("utf8");
  let files: ReadonlyMap<string, string> | undefined;
  return {
    get files() {
      return (files ??= new Map(
        [...sink.files].flatMap(([path, data]) => (isText(path) ? [[path, text(data)]] : [])),
      ));
    },
    get paths() {
      return [...sink.files.keys()];
    },
    file: (path) => {
      const data = sink.files.get(path);
      return data === undefined ? undefined : text(data);
    },
    summary,
    handler: createHandler(memoryAssets(sink.files)),
  };
}

/**
 * Whether a build's file is text. Chunks of packed records may end inside a character, and gzip
 * copies are binary: those stay out, as do the file list and .assetsignore (a directory build's
 * own, not the build's files).
 */
const isText = (path: string) =>
  !path.startsWith("/_c/") &&
  !path.endsWith(".bin") &&
  !path.endsWith(".gz") &&
  path !== FILE_LIST_PATH &&
  path !== ASSETS_IGNORE_PATH;

/** The build's text files by path (`isText`). */
function textFiles(dir: string): ReadonlyMap<string, string> {
  return new Map(
    listFiles(dir).flatMap((path) =>
      isText(path) ? [[path, readFileSync(join(dir, path), "utf8")] as const] : [],
    ),
  );
}

/** Every file under `root`, as a path from `/`. */
function listFiles(root: string, under = ""): string[] {
  return readdirSync(join(root, under), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(root, `${under}/${entry.name}`) : [`${under}/${entry.name}`],
  );
}

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

export async function ask(
  handler: Handler,
  target: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await handler(new Request(`http://localhost${target}`, { headers }));
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    text: await response.text(),
  };
}

/** Every record of a paged request, page by page (size 50). */
export async function allRecords(
  handler: Handler,
  path: string,
): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  const separator = path.includes("?") ? "&" : "?";
  for (let page = 1; ; page++) {
    const answer = await ask(handler, `${path}${separator}page=${page}`);
    if (answer.status !== 200)
      throw new Error(`${path} page ${page}: HTTP ${answer.status} ${answer.text}`);
    records.push(...(JSON.parse(answer.text) as Record<string, unknown>[]));
    if (page >= Number(answer.headers["x-total-pages"])) return records;
  }
}

/** The request path of a view: its index key turned back into the path parameter and query filters (for pattern filters, one that selects every record). */
export function viewTarget(resource: AnyResource, key: string): string {
  const selectors = resource.selectors ?? [];
  const values: (string | null)[] =
    selectors.length <= 1 ? [key === "" ? null : key] : (JSON.parse(key) as (string | null)[]);
  if (viewKey(values.map((v) => v ?? undefined)) !== key)
    throw new Error(`key ${key} does not round-trip`);
  let path = resource.path;
  const query = new URLSearchParams();
  selectors.forEach((selector, i) => {
    const value = values[i];
    if (value === null || value === undefined) return;
    if (selector.in === "path")
      path = path.replace(`{${selector.param}}`, encodeURIComponent(value));
    else query.set(selector.param, value);
  });
  // Pattern filters (Localities): the one view of all records is what '^' selects.
  const everything = resource.patterns?.filters[0];
  if (everything !== undefined) query.set(everything.param, "^");
  const text = query.toString();
  return text === "" ? path : `${path}?${text}`;
}

/** The CSV body's rows as objects keyed by header (RFC 4180 as the generator writes it). */
export function parseCsvBody(text: string): Record<string, string>[] {
  const [header = [], ...data] = parseCsvRows(text);
  return data.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ""])));
}

/** A JSON record's value at a CSV column's dotted path (`Municipality.Key` → record.municipality.key), as CSV text. */
export function valueAt(record: unknown, header: string): string {
  let value: unknown = record;
  for (const part of header.split(".")) {
    const name = part.charAt(0).toLowerCase() + part.slice(1);
    value =
      typeof value === "object" && value !== null
        ? (value as Record<string, unknown>)[name]
        : undefined;
  }
  return value === undefined ? "" : String(value);
}

export { EMBEDDED_RESOURCES, RESOURCES };
