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
 * The CLI's `serve` (server.ts) as a child process group, for tests, benchmarks and verify: its
 * memory is its own, and stopping it is what a user's Ctrl-C does. Resolves when it answers.
 */
export async function startLocalServer(
  dir: string,
  options: ServerOptions = {},
): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? (await freePort());
  const args = [
    "--import",
    "tsx",
    join(ROOT, "generator/cli/main.ts"),
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
    timeoutMs: 60_000,
  });
}
