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

/** What came back for bytes sent as they are: the whole reply, until the server closed the connection. */
export interface RawReply {
  /** Every byte the server sent. */
  readonly bytes: Buffer;
  /** The status of each response in it, in order. */
  readonly statuses: readonly number[];
  /** The first response's header block and body, as `exchange` gives them. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Sends `bytes` exactly (no Connection header added, any request line, pipelined requests) on a
 * fresh connection, from `localAddress` when given (127.0.0.2 is another client on loopback), and
 * reads until the server closes the connection.
 */
export function sendRaw(
  origin: string,
  bytes: string | Buffer,
  localAddress?: string,
): Promise<RawReply> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(
      {
        host: hostname,
        port: Number(port),
        ...(localAddress === undefined ? {} : { localAddress }),
      },
      () => socket.write(bytes),
    );
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      const all = Buffer.concat(chunks);
      const text = all.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      const headers: Record<string, string> = {};
      for (const line of text.slice(0, Math.max(end, 0)).split("\r\n").slice(1)) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers["content-length"] ?? all.length);
      resolve({
        bytes: all,
        statuses: [...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1])),
        headers,
        body: all.subarray(end + 4, end + 4 + length).toString("utf8"),
      });
    });
  });
}
