import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { freePort, spawnServer } from "../../generator/serve/child.ts";

describe("starting a server as a child process group", () => {
  it("hands out a port once per process, also to servers started together", async () => {
    const ports = await Promise.all(Array.from({ length: 40 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
  });

  it("fails with the output when the server exits early, though a process it started holds the output open", async () => {
    // The server exits at once; what it started in the background keeps stdout and stderr. Its
    // sleep is this process's own (`sleep 300.<pid>`): the machine may run another `sleep 300`
    // (another session's script, or this test in another run), which failed this test once.
    const sleep = `sleep 300.${process.pid}`;
    const started = spawnServer(
      "a server that exits",
      "sh",
      ["-c", `echo 'Address already in use'; ${sleep} & exit 3`],
      "http://127.0.0.1:9",
      "/",
      { timeoutMs: 60_000 },
    );
    await expect(started).rejects.toThrow(
      /a server that exits exited early:\nAddress already in use/,
    );
    // Its group is gone: no sleep of it is left.
    const left = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.trim() === sleep);
    expect(left).toEqual([]);
  });
});
