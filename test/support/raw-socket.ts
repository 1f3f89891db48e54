import { connect } from "node:net";

/** What came back on one connection, byte for byte, and whether the body arrived whole. */
export interface RawExchange {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as framed on the wire (chunk sizes included when chunked). */
  readonly body: Buffer;
  /** Content-Length bytes arrived, or a chunked body's last chunk did. */
  readonly complete: boolean;
}

/**
 * Sends `head` (a request line and headers, without the blank line) on a fresh connection and
 * reads until the server closes it: what a client that trusts the framing would have stored.
 * No HTTP client in between, so a broken-off body is seen as it is, and any request line can be sent.
 */
export function exchange(origin: string, head: string): Promise<RawExchange> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) }, () =>
      socket.end(`${head}\r\nConnection: close\r\n\r\n`),
    );
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    // A reset is how a server breaks a response off: what came until then is the answer.
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      const bytes = Buffer.concat(chunks);
      const end = bytes.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`no response head in ${bytes.length} bytes`));
      const [statusLine = "", ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = bytes.subarray(end + 4);
      const length = headers["content-length"];
      const complete =
        headers["transfer-encoding"] === "chunked"
          ? body.toString("latin1").endsWith("0\r\n\r\n")
          : length === undefined || body.length >= Number(length);
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body, complete });
    });
  });
}
