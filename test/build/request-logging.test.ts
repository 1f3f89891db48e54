import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createHandler } from "../../generator/edge/handler.ts";
import { ask, embeddedBuild, type Handler } from "../support/memory-build.ts";

/**
 * What a hostile request writes to the Worker's log: nothing for a refused value (a 400 is not a
 * failure), and at most a clipped line when something does fail, however long the request.
 */
let handler: Handler;
beforeAll(async () => {
  ({ handler } = await embeddedBuild());
});
afterEach(() => vi.restoreAllMocks());

const logged = () => {
  const lines: string[] = [];
  vi.spyOn(console, "error").mockImplementation(
    (...args: unknown[]) => void lines.push(args.map(String).join(" ")),
  );
  vi.spyOn(console, "log").mockImplementation(
    (...args: unknown[]) => void lines.push(args.map(String).join(" ")),
  );
  return lines;
};

describe("the log of hostile requests", () => {
  it.each([
    "/de/Streets?locality=",
    "/at/Streets?locality=",
    "/de/Streets?name=",
    "/de/Streets?postalCode=",
  ])("%s and 32,767 characters: a 400, nothing logged", async (path) => {
    const lines = logged();
    const answer = await ask(handler, `${path}${"x".repeat(32_767)}`);
    expect(answer.status).toBe(400);
    expect(lines).toEqual([]);
  });

  it("a failure is logged in one clipped line, without the request's values", async () => {
    const lines = logged();
    const failing = createHandler({
      fetch: () => Promise.reject(new Error(`no route table for ${"v".repeat(50_000)}`)),
    });
    expect((await ask(failing, "/de/Streets?locality=Berlin")).status).toBe(500);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.length).toBeLessThan(1_100);
  });
});
