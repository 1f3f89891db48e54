import { join } from "node:path";
import { PROJECT_ROOT as ROOT } from "../io/read.ts";
import {
  freePort,
  originOf,
  spawnServer,
  type RunningServer,
  type ServerOptions,
} from "./child.ts";

export type { RunningServer, ServerOptions };

/**
 * Serves a built directory with `wrangler dev` (the development proxy with hot reload, for people
 * changing the Worker; `npm run dev`); resolves when it answers. `config`: another wrangler
 * configuration than the project's `wrangler.jsonc` (tests of the configuration).
 */
export async function startWranglerDev(
  dir: string,
  options: ServerOptions & { config?: string } = {},
): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const [port, inspectorPort] = [options.port ?? (await freePort()), await freePort()];
  const args = [
    "dev",
    "--config",
    options.config ?? join(ROOT, "wrangler.jsonc"),
    "--assets",
    dir,
    "--port",
    String(port),
    "--ip",
    host,
    "--inspector-port",
    String(inspectorPort),
    "--show-interactive-dev-session=false",
  ];
  // The docs page (/) is in every build.
  return spawnServer(
    "wrangler dev",
    join(ROOT, "node_modules/.bin/wrangler"),
    [...args, ...(options.inheritOutput === true ? [] : ["--log-level", "error"])],
    originOf(host, port),
    "/",
    {
      ...(options.inheritOutput === undefined ? {} : { inheritOutput: options.inheritOutput }),
      timeoutMs: options.startTimeoutMs ?? 120_000,
    },
  );
}
