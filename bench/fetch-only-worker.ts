/**
 * bench:workerd's calibration Worker (`--calibrate`): fetches the files named in `f`
 * (comma-separated paths) from its ASSETS binding one after another, reads each body whole, as
 * the Worker does, and answers their total size. Its cost is the runtime's per request and per
 * file, with none of the project's code.
 */
interface Env {
  readonly ASSETS: { fetch(input: string): Promise<Response> };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const files = (url.searchParams.get("f") ?? "").split(",").filter(Boolean);
    let bytes = 0;
    for (const path of files) {
      const response = await env.ASSETS.fetch(`${url.origin}${path}`);
      bytes += (await response.arrayBuffer()).byteLength;
    }
    return new Response(String(bytes), { headers: { "content-type": "text/plain" } });
  },
};
