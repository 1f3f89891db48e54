import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * What one process answers at once: at most `max` answers in production or on their way out, and
 * at most `perClient` of them for one client address, so that one address (a host that opens a
 * thousand connections and never reads) cannot take every slot. An answer holds its slot until its
 * response is done or its connection closed (a client that stops reading is closed after the send
 * timeout, http.ts).
 */
export class Slots {
  private taken = 0;
  private readonly byClient = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly perClient: number,
  ) {}

  /** Takes a slot for `client`; false when none is free for it. */
  take(client: string): boolean {
    const held = this.byClient.get(client) ?? 0;
    if (this.taken >= this.max || held >= this.perClient) return false;
    this.taken++;
    this.byClient.set(client, held + 1);
    return true;
  }

  release(client: string): void {
    this.taken--;
    const held = (this.byClient.get(client) ?? 1) - 1;
    if (held > 0) this.byClient.set(client, held);
    else this.byClient.delete(client);
  }
}

/** The client a connection comes from: its address (an IPv4 address mapped into IPv6 as IPv4). */
export function clientOf(socket: Socket): string {
  const address = socket.remoteAddress ?? "";
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}

interface Turns {
  busy: boolean;
  readonly waiting: (() => void)[];
}
const TURNS = Symbol("turns");

/**
 * Runs `answer` once every answer before it on the same connection is done: a connection's
 * answers are made one at a time, in order, so that requests a client pipelines cost their
 * request objects only until their turn, not a body each. At most `maxWaiting` wait behind the
 * one being answered: a request beyond that closes the connection at once (HTTP/1.1 lets a
 * server close a connection with requests unanswered; the client sends them again), which frees
 * everything the client queued.
 */
export function inTurn(res: ServerResponse, maxWaiting: number, answer: () => void): void {
  const socket = res.req.socket as Socket & { [TURNS]?: Turns };
  const turns = (socket[TURNS] ??= { busy: false, waiting: [] });
  const start = () => {
    if (res.destroyed) return next(turns); // the connection closed while it waited
    res.once("close", () => next(turns));
    answer();
  };
  if (!turns.busy) {
    turns.busy = true;
    start();
  } else if (turns.waiting.length >= maxWaiting) socket.destroy();
  else turns.waiting.push(start);
}

function next(turns: Turns): void {
  const start = turns.waiting.shift();
  if (start === undefined) turns.busy = false;
  else start();
}
