/**
 * `npx tsx bench/tail-layouts.ts --out DIST --targets FILE [--country de]`: what the page's tails
 * (contract/search/tails.ts) would cost the given requests under other tail-shard layouts, without
 * building them. Each request is answered in process over DIST; its rows' tails name the places
 * they render; each layout (TAIL_LAYOUTS: so many places a shard, or shards cut when their encoded
 * bytes pass a target) is the build's own tails re-encoded with encodeTailShard, and a request's
 * figure is the distinct shards its places lie in, their bytes, and what workerd's thread spends
 * on them by `bench:workerd --calibrate`'s quiet-machine fit (per file and per KiB; TESTING.md).
 * FILE: one request path a line (bench:fresh's and bench:workerd's targets).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { placesPath, tailsPath } from "../generator/contract/layout.ts";
import { decodePlaceTable } from "../generator/contract/search/meta.ts";
import { TailShard, encodeTailShard, type Tail } from "../generator/contract/search/tails.ts";
import { gallop } from "../generator/contract/search/kernels.ts";
import { createHandler } from "../generator/edge/handler.ts";
import { memoryAssets } from "./memory-assets.ts";

/** bench:workerd --calibrate on a quiet machine (TESTING.md): ms per file fetched and per KiB read. */
const MS_PER_FILE = 0.152;
const MS_PER_KIB = 0.0068;

const TAIL_LAYOUTS: readonly (readonly [name: string, cut: Cut])[] = [
  ["16 places (the build)", { places: 16 }],
  ["32 places", { places: 32 }],
  ["64 places", { places: 64 }],
  ["4 KiB", { bytes: 4096 }],
  ["8 KiB", { bytes: 8192 }],
  ["16 KiB", { bytes: 16384 }],
];

type Cut = { readonly places: number } | { readonly bytes: number };

const { values: args } = parseArgs({
  options: {
    out: { type: "string" },
    targets: { type: "string" },
    country: { type: "string", default: "de" },
  },
});
if (args.out === undefined || args.targets === undefined) {
  console.error("usage: npx tsx bench/tail-layouts.ts --out DIST --targets FILE [--country de]");
  process.exit(1);
}
const dist = args.out;
const country = args.country;
const file = (path: string) => new Uint8Array(readFileSync(join(dist, path)));

const places = decodePlaceTable(file(placesPath(country))).size;
const shardCount = readdirSync(join(dist, `_s/${country}/t`)).length;
const tails: Tail[] = [];
for (let n = 0; n < shardCount; n++) {
  const shard = new TailShard(file(tailsPath(country, n)));
  for (let i = 0; i < shard.size; i++) tails.push([shard.tail(i, 0), shard.tail(i, 1)]);
}
if (tails.length !== places) throw new Error(`${tails.length} tails for ${places} places`);
const placeOfTail = new Map<string, number>();
tails.forEach(([json], place) => {
  if (!placeOfTail.has(json)) placeOfTail.set(json, place);
});

/** Where each shard of a layout starts (a place), and each shard's encoded bytes. */
function layout(cut: Cut): { starts: Int32Array; bytes: number[] } {
  const starts = [0];
  if ("places" in cut) for (let p = cut.places; p < places; p += cut.places) starts.push(p);
  else
    for (let p = 1, from = 0; p < places; p++)
      if (encodeTailShard(tails.slice(from, p + 1)).length > cut.bytes) starts.push((from = p));
  const bytes = starts.map(
    (start, i) => encodeTailShard(tails.slice(start, starts[i + 1] ?? places)).length,
  );
  return { starts: Int32Array.from(starts), bytes };
}

/** The shard a place's tail lies in: the last one starting at or before it. */
const shardOf = (starts: Int32Array, place: number): number => gallop(starts, place + 1) - 1;

/** Requests whose rows are streets, rendered with a place's tail. */
const STREET_PAGES = /^\/[a-z]{2}\/(Streets|FullTextSearch|Suggestions)\?/;

/** The places whose tails a request's page renders (JSON rows: the tail follows the name). */
async function placesOf(path: string): Promise<Set<number> | undefined> {
  if (!STREET_PAGES.test(path)) return undefined;
  const response = await handler(new Request(`https://bench${path}`));
  if (response.status !== 200) return undefined;
  const found = new Set<number>();
  for (const row of (await response.json()) as Record<string, unknown>[]) {
    const text = JSON.stringify(row);
    const place = placeOfTail.get(text.slice(text.indexOf(',"postalCode"')));
    if (place === undefined) throw new Error(`${path}: a row whose tail is no place's`);
    found.add(place);
  }
  return found;
}

const handler = createHandler(memoryAssets(dist));
const targets = readFileSync(args.targets, "utf8").split("\n").filter(Boolean);
const layouts = TAIL_LAYOUTS.map(([name, cut]) => ({ name, ...layout(cut), files: 0, kib: 0 }));
let answered = 0;
for (const target of targets) {
  const found = await placesOf(target);
  if (found === undefined) continue;
  answered++;
  for (const l of layouts) {
    const shards = new Set(Array.from(found, (place) => shardOf(l.starts, place)));
    l.files += shards.size;
    for (const n of shards) l.kib += (l.bytes[n] ?? 0) / 1024;
  }
}
console.log(
  `${answered} of ${targets.length} requests answered with streets (200) over ${dist}; ${places} places`,
);
console.log("layout                   shards  mean KiB   per request: files    KiB   workerd ms");
for (const l of layouts) {
  const mean = l.bytes.reduce((a, b) => a + b, 0) / l.bytes.length / 1024;
  const [files, kib] = [l.files / answered, l.kib / answered];
  console.log(
    `${l.name.padEnd(24)} ${String(l.starts.length).padStart(6)} ${mean.toFixed(1).padStart(9)}` +
      `   ${files.toFixed(1).padStart(18)} ${kib.toFixed(1).padStart(6)} ${(files * MS_PER_FILE + kib * MS_PER_KIB).toFixed(2).padStart(12)}`,
  );
}
