/**
 * The child of bench/fresh-isolate.ts: one new Node process as one new Cloudflare isolate. The
 * parent bundles this file (esbuild) and starts it with the project's Node 24, plain JavaScript,
 * no loader; it reads its orders as JSON on stdin and writes its answer as JSON on fd 3.
 *
 * `time`: Node's own web classes are warmed (in workerd they are native code, not JavaScript
 * compiled on first use), the files the request will fetch are read into memory (the asset
 * service's work is not the Worker's CPU), the Worker's bundle is imported (module evaluation is
 * the isolate's startup, not the request: workerd runs top-level code when it loads the script,
 * too), the event loop turns once, and then `worker.fetch(request, env)` and reading the body are
 * timed on the main thread's CPU clock: code never run in this process, as a new isolate's first
 * request runs it. Then the same request again, `warm` times, each after a turn of the loop: the
 * least of those is the warm figure.
 *
 * `record`: each target on a new instance of the bundle (imported again under another URL, so
 * its module state is new), reading files from disk as asked: the paths a fresh isolate's first
 * request fetches, for the `time` children to preload.
 */
import { mkdirSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { PerformanceObserver, performance, type PerformanceEntry } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { getHeapStatistics } from "node:v8";
import { eventLoopTurn } from "./event-loop-turn.ts";
import { mainCpu } from "./main-cpu.ts";
import type { Assets } from "../generator/edge/assets.ts";
import { buildAssets } from "./search-assets.ts";

interface Worker {
  fetch(request: Request, env: { ASSETS: unknown }): Promise<Response>;
}

export type ChildOrder =
  | {
      readonly mode: "time";
      /** The bundled Worker, or null for a Worker that answers an empty 200 (the harness's own cost). */
      readonly bundle: string | null;
      readonly out: string;
      readonly target: string;
      readonly paths: readonly string[];
      readonly warm: number;
      /** Files other than the index as Node's own Responses rather than light ones (search-assets.ts). */
      readonly nodeResponses: boolean;
    }
  | {
      readonly mode: "record";
      readonly bundle: string;
      readonly out: string;
      readonly targets: readonly string[];
    };

export interface TimedRequest {
  readonly status: number;
  /** Main-thread CPU ms of the first request: fetch and reading the body. */
  readonly first: number;
  /** The least of the `warm` requests after it. */
  readonly warm: number;
  /** Asset fetches and index bytes (`/_s/…`) of the first request. */
  readonly fetches: number;
  readonly bytes: number;
  /** Files the first request fetched that the recording did not name (read from disk inside it). */
  readonly misses: number;
  /** Main-thread CPU ms of importing the bundle (module evaluation: the isolate's startup, not charged). */
  readonly startup: number;
  /** Statuses of the warm requests that differ from the first's. */
  readonly warmStatuses: readonly number[];
}

export interface RecordedRequest {
  readonly status: number;
  readonly paths: readonly string[];
}

/** workerd's FixedLengthStream (native there): here a plain TransformStream, warmed with the rest. */
class FixedLengthStream extends TransformStream<Uint8Array, Uint8Array> {
  constructor(_length: number) {
    super();
  }
}

/**
 * Node's Request, Response, Headers, URL, URLSearchParams, TextEncoder/Decoder and streams,
 * constructed and consumed the ways the Worker uses them, until their JavaScript has run often.
 */
async function warmWebClasses(): Promise<void> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const fatal = new TextDecoder("utf-8", { fatal: true });
  for (let i = 0; i < 30; i++) {
    const url = new URL(`http://warm/de/Streets?name=stra%C3%9Fe${i}&page=${i}&pageSize=50`);
    void [
      url.pathname,
      url.origin,
      url.search,
      url.searchParams.get("name"),
      [...url.searchParams],
    ];
    void new URLSearchParams(`a=${i}&b=c`).toString();
    void new URL("/_s/de/meta.bin", url.origin).href;
    const headers = new Headers({ "content-type": "application/json", etag: `"${i}"` });
    headers.set("x-page", String(i));
    headers.append("vary", "Accept");
    headers.delete("x-none");
    void [headers.get("etag"), headers.has("vary"), [...headers]];
    const request = new Request(url, { headers: { accept: "application/json" } });
    void [request.method, request.url, request.headers.get("accept"), request.headers.get("x")];
    void new Request(new URL("/_routes.json", url.origin));
    const json = encoder.encode(JSON.stringify({ i, name: "Straße", list: [1, 2, 3] }));
    encoder.encodeInto("Straße", new Uint8Array(16));
    void [decoder.decode(json), fatal.decode(json), decoder.decode(json.subarray(0, 3))];
    await new Response(json, { headers }).arrayBuffer();
    await new Response(json, { status: 200, headers }).text();
    await new Response(json).json();
    await new Response(json).bytes();
    await new Response(null, { status: 404 }).arrayBuffer();
    void new Response(null, { status: 304, headers: new Headers(headers) }).headers.get("etag");
    const asset = new Response(json, { headers: { "content-type": "application/octet-stream" } });
    const copied = new Response(asset.body, asset);
    copied.headers.set("x-total-count", String(i));
    copied.headers.delete("cf-cache-status");
    await copied.arrayBuffer();
    const through = new FixedLengthStream(json.byteLength);
    void new Response(json).body?.pipeTo(through.writable).catch(() => undefined);
    await new Response(through.readable, { status: 200, headers }).arrayBuffer();
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(json);
        controller.close();
      },
    });
    await new Response(chunks).arrayBuffer();
  }
}

/**
 * The asset stand-in's own code (this harness's, not the Worker's) run on every file the request
 * will fetch, each way it can be read, so that its first compilation is not charged to the request.
 */
async function warmAssets(assets: Assets, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const read = async (how: (response: Response) => Promise<unknown>) => {
      const response = await assets.fetch(`http://bench${path}`);
      await how(response).catch(() => undefined);
    };
    await read((r) => r.arrayBuffer());
    await read((r) => r.bytes());
    if (!path.startsWith("/_s/")) {
      await read((r) => r.text());
      await read((r) => r.json());
      await read(async (r) => {
        const copy = new Response(r.body, r);
        return copy.arrayBuffer();
      });
    }
  }
}

async function time(order: Extract<ChildOrder, { mode: "time" }>): Promise<TimedRequest> {
  (globalThis as { FixedLengthStream?: unknown }).FixedLengthStream = FixedLengthStream;
  heapMark("start");
  await warmWebClasses();
  heapMark("web classes warmed");
  const { assets, counts, reset, preload, misses } = buildAssets(
    order.out,
    "plain",
    order.nodeResponses ? "response" : "light",
  );
  preload(order.paths);
  await warmAssets(assets, order.paths);
  heapMark("files preloaded");
  const env = { ASSETS: assets };
  const before = mainCpu();
  const worker: Worker =
    order.bundle === null
      ? { fetch: async () => new Response(null) }
      : ((await import(pathToFileURL(order.bundle).href)) as { default: Worker }).default;
  const startup = mainCpu() - before;
  heapMark("bundle imported");
  const run = async (): Promise<{ ms: number; status: number }> => {
    const request = new Request(`http://bench${order.target}`);
    await eventLoopTurn(); // untimed: what V8 posted to the main thread runs here, as between requests
    if (trace) mark(`[timed request starts at ${process.hrtime.bigint() / 1000n} µs]\n`);
    const usage = trace ? process.resourceUsage() : undefined;
    const thread = trace ? process.threadCpuUsage() : undefined;
    const startedAt = performance.now();
    const started = mainCpu();
    const response = await worker.fetch(request, env);
    await response.arrayBuffer();
    const ms = mainCpu() - started;
    if (trace) timedSpans.push([startedAt, performance.now()]);
    if (trace && usage !== undefined && thread !== undefined) {
      const after = process.resourceUsage();
      const threadAfter = process.threadCpuUsage();
      mark(
        `[timed request ends at ${process.hrtime.bigint() / 1000n} µs: ${ms.toFixed(2)} ms (main thread: user ${((threadAfter.user - thread.user) / 1000).toFixed(2)}, system ${((threadAfter.system - thread.system) / 1000).toFixed(2)}); process: user ${((after.userCPUTime - usage.userCPUTime) / 1000).toFixed(2)} ms, system ${((after.systemCPUTime - usage.systemCPUTime) / 1000).toFixed(2)} ms, ${after.minorPageFault - usage.minorPageFault} minor page faults, ${after.involuntaryContextSwitches - usage.involuntaryContextSwitches} involuntary switches]\n`,
      );
    }
    return { ms, status: response.status };
  };
  reset();
  const profiler = profileDir === undefined ? undefined : await startProfiler();
  const first = await run();
  if (profiler !== undefined && profileDir !== undefined) {
    const { profile } = await profiler.post("Profiler.stop");
    mkdirSync(profileDir, { recursive: true });
    const name = `${process.pid}-${order.target.replace(/[^\w=-]+/g, "_").slice(0, 80)}.cpuprofile`;
    writeFileSync(join(profileDir, name), JSON.stringify(profile));
    profiler.disconnect();
  }
  const firstCounts = counts();
  const firstMisses = misses();
  let warm = Infinity;
  const warmStatuses: number[] = [];
  for (let i = 0; i < order.warm; i++) {
    const again = await run();
    warm = Math.min(warm, again.ms);
    if (again.status !== first.status) warmStatuses.push(again.status);
  }
  return {
    status: first.status,
    first: first.ms,
    warm: order.warm > 0 ? warm : NaN,
    ...firstCounts,
    misses: firstMisses,
    startup,
    warmStatuses,
  };
}

async function record(order: Extract<ChildOrder, { mode: "record" }>): Promise<RecordedRequest[]> {
  (globalThis as { FixedLengthStream?: unknown }).FixedLengthStream = FixedLengthStream;
  const { assets, reset, fetched } = buildAssets(order.out, "plain", "light");
  const recorded: RecordedRequest[] = [];
  for (const [i, target] of order.targets.entries()) {
    const url = `${pathToFileURL(order.bundle).href}?instance=${i}`;
    const worker = ((await import(url)) as { default: Worker }).default;
    reset();
    const response = await worker.fetch(new Request(`http://bench${target}`), { ASSETS: assets });
    await response.arrayBuffer();
    recorded.push({ status: response.status, paths: fetched() });
  }
  return recorded;
}

/**
 * FRESH_TRACE=1: marks the timed requests on stdout, and after them the collections that ran inside
 * each (kind and ms, from Node's `gc` performance entries: `--trace-gc`'s lines cannot be placed
 * among the marks, V8 prints them through a buffer of its own). `--trace-deopt`'s lines are
 * flushed as V8 prints them to stdout, so the marks, written straight to the same file
 * descriptor, fall between them in order (bench/deopt-census.ts).
 */
const trace = process.env["FRESH_TRACE"] === "1";
function heapMark(when: string): void {
  if (!trace) return;
  const heap = getHeapStatistics();
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  mark(
    `[heap, ${when}: ${mib(heap.used_heap_size)} MiB used of ${mib(heap.total_heap_size)}, external ${mib(heap.external_memory)}]\n`,
  );
}
/**
 * FRESH_PROFILE=DIR: a CPU profile of each first request (V8's sampling profiler, every 50 µs),
 * written to DIR as PID-TARGET.cpuprofile; bench/profile-summary.ts prints where its time went.
 * The profiler's own cost is inside the timed request: profile with it, time without it.
 */
const profileDir = process.env["FRESH_PROFILE"];

async function startProfiler(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
  return session;
}
const mark = (text: string) => writeSync(1, text);
const timedSpans: [start: number, end: number][] = [];
const collections: PerformanceEntry[] = [];
const GC_KINDS: Record<number, string> = {
  1: "scavenge",
  2: "mark-compact",
  4: "incremental",
  8: "weak callbacks",
  16: "minor mark-sweep",
};
const observer = trace
  ? new PerformanceObserver((list) => collections.push(...list.getEntries()))
  : undefined;
observer?.observe({ entryTypes: ["gc"] });
const order = JSON.parse(readFileSync(0, "utf8")) as ChildOrder;
const answer = order.mode === "time" ? await time(order) : await record(order);
if (observer !== undefined) {
  await eventLoopTurn(); // the last entries are delivered on a later turn
  observer.disconnect();
  timedSpans.forEach(([start, end], k) => {
    const inside = collections.filter((gc) => gc.startTime >= start && gc.startTime < end);
    const kinds = inside.map((gc) => {
      const kind = (gc as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0;
      return `${GC_KINDS[kind] ?? `kind ${kind}`} ${gc.duration.toFixed(2)} ms`;
    });
    mark(
      `[timed request ${k === 0 ? "first" : `warm ${k}`}: ${inside.length} collections inside (${inside.reduce((sum, gc) => sum + gc.duration, 0).toFixed(2)} ms wall)${kinds.length > 0 ? `: ${kinds.join(", ")}` : ""}]\n`,
    );
  });
}
writeFileSync(3, JSON.stringify(answer)); // the parent reads fd 3: stdout may carry Node's own output
