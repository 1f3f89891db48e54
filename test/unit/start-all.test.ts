import { describe, expect, it } from "vitest";
import { startAll } from "../support/start-all.ts";

/** A start that resolves after the failing one has rejected (the order that leaked), recording its stop. */
function laterStart(stopped: string[], name: string) {
  return new Promise<{ name: string; stop(): Promise<void> }>((resolve) =>
    setImmediate(() =>
      resolve({
        name,
        stop: async () => {
          stopped.push(name);
        },
      }),
    ),
  );
}

describe("startAll: starting several servers together", () => {
  it("stops the one that started when the other fails, and rethrows the failure", async () => {
    const stopped: string[] = [];
    const failure = new Error("wrangler dev exited early");
    await expect(startAll([Promise.reject(failure), laterStart(stopped, "started")])).rejects.toBe(
      failure,
    );
    expect(stopped).toEqual(["started"]);
  });

  it("rethrows the first failure of several and stops every start that succeeded", async () => {
    const stopped: string[] = [];
    const first = new Error("first");
    await expect(
      startAll([
        laterStart(stopped, "a"),
        Promise.reject(first),
        laterStart(stopped, "b"),
        Promise.reject(new Error("second")),
      ]),
    ).rejects.toBe(first);
    expect(stopped.sort()).toEqual(["a", "b"]);
  });

  it("gives every started one in order and stops none when all start", async () => {
    const stopped: string[] = [];
    const [a, b] = await startAll([laterStart(stopped, "a"), laterStart(stopped, "b")]);
    expect([a.name, b.name]).toEqual(["a", "b"]);
    expect(stopped).toEqual([]);
  });
});
