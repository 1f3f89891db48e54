import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildInto, type BuildOptions, type BuildSummary } from "../../generator/build/build.ts";
import { createHandler, type Handler } from "../../generator/edge/handler.ts";
import { EMBEDDED_RESOURCES, RESOURCES } from "../../generator/resources/index.ts";
import type { AnyResource } from "../../generator/resources/resource.ts";
import { viewKey } from "../../generator/contract/address.ts";
import { parseCsvRows } from "../../generator/contract/csv.ts";
import { MemorySink } from "../../generator/io/sink.ts";
import { fixtureSwissStreets, tempDir } from "./fixture.ts";
import { memoryAssets } from "./local-assets.ts";
import { ROOT } from "./paths.ts";

export type { Handler };

export interface MemoryBuild {
  /** The build's text files (not the packed chunks and gzip copies). */
  readonly files: ReadonlyMap<string, string>;
  readonly summary: BuildSummary;
  readonly handler: Handler;
}

/**
 * Builds the embedded data (or `sources`) into memory and serves it with the Worker's handler
 * in-process; `swissStreets` adds the street directory generated from the register of localities.
 */
export async function memoryBuild(
  maxFiles: number,
  extra: Partial<Pick<BuildOptions, "sources" | "only" | "inlineShardBytes">> & {
    swissStreets?: boolean;
  } = {},
): Promise<MemoryBuild> {
  const sink = new MemorySink();
  const headersTemplate = readFileSync(join(ROOT, "_headers"), "utf8");
  const { swissStreets, ...options } = extra;
  const sources =
    swissStreets === true
      ? { ...options.sources, "ch-streets": fixtureSwissStreets(tempDir("swiss-streets")) }
      : (options.sources ?? {});
  const summary = await buildInto(
    {
      root: ROOT,
      maxFiles,
      headersTemplate,
      builtAt: "2026-11-22T03:00:00.000Z",
      ...options,
      sources,
    },
    sink,
  );
  const handler = createHandler(memoryAssets(sink.files));
  // Chunks of packed records may end inside a character, and gzip copies are binary: those stay out.
  const files = new Map(
    [...sink.files].flatMap(([path, data]) =>
      path.startsWith("/_c/") || path.endsWith(".bin") || path.endsWith(".gz")
        ? []
        : [[path, typeof data === "string" ? data : Buffer.from(data).toString("utf8")] as const],
    ),
  );
  return { files, summary, handler };
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
