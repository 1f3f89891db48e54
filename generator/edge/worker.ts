import { createHandler, type Handler } from "./handler.ts";
import type { Assets } from "./assets.ts";
import { warmUp } from "./warm-up.ts";

interface Env {
  readonly ASSETS: Assets;
}

// At startup, not in a request: compiles what requests run (warm-up.ts says why and what it costs).
await warmUp();

let handler: Handler | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    handler ??= createHandler(env.ASSETS);
    return handler(request);
  },
};
