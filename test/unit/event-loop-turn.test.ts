import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eventLoopTurn } from "../../bench/event-loop-turn.ts";
import type { Assets } from "../../generator/edge/assets.ts";
import { createHandler } from "../../generator/edge/handler.ts";

/**
 * An asset binding answered from memory, as the benches' stand-ins are: a promise, no I/O. Every
 * file is missing, so each request is the Worker's logged 500: the log is kept out of the output.
 */
const assets: Assets = { fetch: async () => new Response(null, { status: 404 }) };

/** How many times the event loop turned while `requests` requests ran back to back. */
async function turnsDuring(requests: number, turnBeforeEach: boolean): Promise<number> {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const handler = createHandler(assets);
  for (let i = 0; i < requests; i++) {
    if (turnBeforeEach) await eventLoopTurn();
    for (const path of ["/ch/Cantons", "/de/Streets?locality=Berlin", "/nowhere"])
      await (await handler(new Request(`https://bench${path}`))).arrayBuffer();
  }
  running = false;
  return turns;
}

beforeEach(() => void vi.spyOn(console, "error").mockImplementation(() => undefined));
afterEach(() => vi.restoreAllMocks());

describe("bench/event-loop-turn.ts", () => {
  it.each([
    { turnBeforeEach: false, atLeast: 0, atMost: 0 },
    { turnBeforeEach: true, atLeast: 50, atMost: Infinity },
  ])(
    "in-process requests turn the event loop only with the turn: %o",
    async ({ turnBeforeEach, atLeast, atMost }) => {
      const turns = await turnsDuring(50, turnBeforeEach);
      expect(turns).toBeGreaterThanOrEqual(atLeast);
      expect(turns).toBeLessThanOrEqual(atMost);
    },
  );
});
