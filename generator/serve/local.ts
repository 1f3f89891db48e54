import { join } from "node:path";
import { PROJECT_ROOT as ROOT } from "../io/read.ts";
import {
  freePort,
  HEALTH_PATH,
  originOf,
  spawnServer,
  type RunningServer,
  type ServerOptions,
} from "./child.ts";

export type { RunningServer, ServerOptions };

/**
 * Node's flags for the server, as `npm run serve` and `npm start` give them (package.json): a young
 * generation of fixed size (16 MiB semi-spaces) from the start, so the heap does not grow into it
 * under load; and the old generation collected once it grew by a fifth over what the last full
 * collection kept. Left to itself, V8 lets a fast-allocating process's old generation grow up to
 * four times its live size before a full collection: the server's live heap of about 40 MiB then
 * swung between 40 and 170 MiB, and resident memory with it.
 */
export const SERVE_NODE_FLAGS = [
  "--min-semi-space-size=16",
  "--max-semi-space-size=16",
  "--heap-growing-percent=20",
];

/**
 * The CLI's `serve` (server.ts) as a child process group, for tests, benchmarks and verify: its
 * memory is its own, and stopping it is what a user's Ctrl-C does. Resolves when it answers.
 * `compiled`: the CLI as `npm start` runs it (cli/compiled.mjs) instead of main.ts through tsx,
 * which loads tsx and transforms every module first; by default compiled when this module is
 * itself (the compiled CLI's verify), through tsx when it runs as TypeScript (`npm run verify`).
 */
export async function startLocalServer(
  dir: string,
  options: ServerOptions & { readonly compiled?: boolean } = {},
): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? (await freePort());
  const cli =
    (options.compiled ?? !import.meta.url.endsWith(".ts"))
      ? [join(ROOT, "generator/cli/compiled.mjs")]
      : ["--import", "tsx", join(ROOT, "generator/cli/main.ts")];
  const args = [
    ...SERVE_NODE_FLAGS,
    ...cli,
    "serve",
    "--dir",
    dir,
    "--host",
    host,
    "--port",
    String(port),
    ...(options.workers === undefined ? [] : ["--workers", String(options.workers)]),
  ];
  return spawnServer("the server", process.execPath, args, originOf(host, port), HEALTH_PATH, {
    ...(options.inheritOutput === undefined ? {} : { inheritOutput: options.inheritOutput }),
    timeoutMs: options.startTimeoutMs ?? 60_000,
  });
}
