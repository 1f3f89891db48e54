import { withRootCause } from "./errors.ts";
import { publicUrl, withPublicUrls } from "./public-url.ts";

/**
 * The deployed build's public files, read over HTTPS: the nightly compares with what is deployed
 * (its downloads manifest, datasets and change feed), not with whatever the runner holds. Each
 * read is fresh, past the source cache: a deployment changes under the same URLs.
 */
export interface DeployedFiles {
  /** The deployed downloads manifest's URL. */
  readonly where: string;
  readonly manifest: unknown;
  /** A public file by its path (`/downloads/…`); undefined when the deployment answers 404. */
  read(path: string): Promise<Uint8Array | undefined>;
}

/** Reads the deployed manifest at `manifestUrl` (…/downloads/index.json); other paths resolve against its origin. */
export async function deployedFiles(
  manifestUrl: string,
  timeoutMs: number,
): Promise<DeployedFiles> {
  const read = async (path: string): Promise<Uint8Array | undefined> => {
    const url = new URL(path, manifestUrl).href;
    let response: Response;
    try {
      // A fresh connection per read: a build works for many seconds between reads, and a kept-alive
      // connection the server closes just as the next request goes out fails it with ECONNRESET.
      response = await fetch(url, {
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "follow",
        headers: { connection: "close" },
      });
    } catch (error) {
      throw new Error(`cannot fetch ${publicUrl(url)}: ${withPublicUrls(withRootCause(error))}`);
    }
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`cannot fetch ${publicUrl(url)}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
  const bytes = await read(new URL(manifestUrl).pathname);
  if (bytes === undefined) throw new Error(`cannot fetch ${publicUrl(manifestUrl)}: HTTP 404`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    throw new Error(`${publicUrl(manifestUrl)} is not JSON`);
  }
  return { where: publicUrl(manifestUrl), manifest, read };
}
