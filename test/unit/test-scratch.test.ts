import { tmpdir } from "node:os";
import { relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scratchParent } from "../support/global-setup.ts";

/** The run's temporary root (global-setup.ts) is where every temporary file of the run goes. */
describe("the run's temporary root", () => {
  const saved = process.env["TMPDIR"];
  afterEach(() => {
    if (saved === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = saved;
  });

  it("is each worker's TMPDIR, so os.tmpdir() is inside it", () => {
    const root = process.env["PLZ_TEST_TMP"] ?? "";
    expect(root).not.toBe("");
    expect(process.env["TMPDIR"]).toBe(root);
    expect(relative(root, tmpdir()).startsWith("..")).toBe(false);
  });

  it.each(["/var/tmp/elsewhere", "/tmp"])("goes under TMPDIR=%s when it is set", (dir) => {
    process.env["TMPDIR"] = dir;
    expect(scratchParent()).toBe(dir);
  });

  it("goes to /dev/shm or the system's directory when TMPDIR is not set", () => {
    delete process.env["TMPDIR"];
    expect(["/dev/shm", tmpdir()]).toContain(scratchParent());
  });
});
