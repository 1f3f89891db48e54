import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the loopback "publisher" answers for a path: bytes, or an HTTP error status. */
export type Upstream = Map<string, Uint8Array | number>;

/** A loopback HTTP server standing in for the publishers; it counts the requests per path. */
export class UpstreamServer {
  readonly requests = new Map<string, number>();
  /** Every request's path and query, in order. */
  readonly urls: string[] = [];
  /** How many connections the requests came on. */
  connections = 0;
  private constructor(
    private readonly server: Server,
    readonly files: Upstream,
  ) {}

  static async start(files: Upstream): Promise<UpstreamServer> {
    let self: UpstreamServer | undefined;
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      self?.requests.set(path, (self.requests.get(path) ?? 0) + 1);
      self?.urls.push(request.url ?? "/");
      const body = self?.files.get(path) ?? 404;
      if (typeof body === "number") response.writeHead(body).end();
      else
        response
          .writeHead(200, {
            "Content-Type": "application/octet-stream",
            "Last-Modified": "Sun, 30 Nov 2025 00:00:00 GMT",
          })
          .end(body);
    });
    server.on("connection", () => {
      if (self !== undefined) self.connections++;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    self = new UpstreamServer(server, files);
    return self;
  }

  /** The server as a mirror of every publisher: `https://host/path` is served at `/host/path`. */
  get mirror(): string {
    return this.url("");
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  count(path: string): number {
    return this.requests.get(path) ?? 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
