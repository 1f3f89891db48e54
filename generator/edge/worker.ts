import { createHandler, type Handler } from "./handler.ts";
import type { Assets } from "./assets.ts";

interface Env {
  readonly ASSETS: Assets;
}

let handler: Handler | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    handler ??= createHandler(env.ASSETS);
    return handler(request);
  },
};
