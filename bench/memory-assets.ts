import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { urlOf, type Assets } from "../generator/edge/assets.ts";

/**
 * A built directory as the Worker's asset binding, each file read from disk once and then served
 * from memory: what the benches time is the Worker's work, not the asset server's.
 */
export function memoryAssets(root: string, headers: Record<string, string> = {}): Assets {
  const files = new Map<string, Buffer | null>();
  return {
    fetch: async (input) => {
      const path = decodeURIComponent(new URL(urlOf(input)).pathname);
      if (!files.has(path)) {
        const file = join(root, path);
        files.set(path, file.startsWith(root) && existsSync(file) ? readFileSync(file) : null);
      }
      const body = files.get(path);
      return body === null || body === undefined
        ? new Response(null, { status: 404 })
        : new Response(body, { headers });
    },
  };
}
