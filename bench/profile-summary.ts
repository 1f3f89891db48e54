/**
 * Where the time of profiled requests went: V8 CPU profiles (`.cpuprofile`, as FRESH_PROFILE=DIR
 * makes bench:fresh's children write them) summed over every file given, printed as the functions
 * with the most self time and the most inclusive time (a function counted once per sample, however
 * often it is on the stack), each as a share of all samples. Samples inside the profiler's own
 * start and stop (a `node:inspector` frame on the stack) are left out.
 *
 *   npx tsx bench/profile-summary.ts [--top N] FILE.cpuprofile …
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileTimes {
  /** µs per function, where the sample was taken. */
  readonly self: Map<string, number>;
  /** µs per function, anywhere on the sample's stack. */
  readonly inclusive: Map<string, number>;
  totalMicros: number;
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.split("/").slice(-2).join("/");
  return `${functionName || "(anonymous)"}${file === "" ? "" : ` ${file}:${lineNumber + 1}`}`;
}

/** Adds one profile's samples to `into`. */
export function addProfile(profile: Profile, into: ProfileTimes): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(id);
    if (leaf === undefined) return;
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const node = byId.get(at);
      if (node === undefined) continue;
      if (node.callFrame.url === "node:inspector") return;
      onStack.add(frameName(node));
    }
    into.totalMicros += micros;
    const leafName = frameName(leaf);
    into.self.set(leafName, (into.self.get(leafName) ?? 0) + micros);
    for (const name of onStack) into.inclusive.set(name, (into.inclusive.get(name) ?? 0) + micros);
  });
}

function table(times: Map<string, number>, total: number, top: number): string {
  return [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => `${((100 * micros) / total).toFixed(1).padStart(6)}%  ${name}`)
    .join("\n");
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { top: { type: "string", default: "30" } },
    allowPositionals: true,
  });
  if (positionals.length === 0) throw new Error("name one or more .cpuprofile files");
  const times: ProfileTimes = { self: new Map(), inclusive: new Map(), totalMicros: 0 };
  for (const file of positionals)
    addProfile(JSON.parse(readFileSync(file, "utf8")) as Profile, times);
  const top = Number(values.top);
  console.log(
    `${positionals.length} profiles, ${(times.totalMicros / 1000).toFixed(1)} ms sampled\n` +
      `--- self\n${table(times.self, times.totalMicros, top)}\n` +
      `--- inclusive\n${table(times.inclusive, times.totalMicros, top)}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
