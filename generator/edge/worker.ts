import headersTemplate from "../../_headers";
import { commonHeaders } from "../routes/headers.ts";
import { RESOURCES } from "../resources/index.ts";
import { createHandler, type Assets } from "./handler.ts";

interface Env {
  readonly ASSETS: Assets;
}

const common = commonHeaders(headersTemplate);
let handler: ((request: Request) => Promise<Response>) | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    handler ??= createHandler(RESOURCES, common, env.ASSETS);
    return handler(request);
  },
};
