import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildToDirectory } from "../../generator/build/build.ts";
import { fixtureStreets, STREET_FIXTURE, tempDir } from "../support/fixture.ts";
import { germanCut } from "../support/german-cut.ts";
import { CLI_COMMAND, cliArgs, dataFile, ROOT } from "../support/paths.ts";
import { rawRequest, startServer } from "../support/http.ts";

const cli = (args: string[]) =>
  spawnSync(CLI_COMMAND, cliArgs(...args), {
    cwd: ROOT,
    encoding: "utf8",
  });
const headersTemplate = readFileSync(join(ROOT, "_headers"), "utf8");

const PROGRESS_LINE = /^[a-z0-9-]+: .*, [\d.]+ MiB, /;

describe("the CLI", () => {
  it.each([
    [["build", "--max-files", "ten"], /--max-files.*expected a positive whole number/],
    [
      ["build", "--search-read-budget", "0"],
      /--search-read-budget.*expected a positive whole number/,
    ],
    [["build", "--source", "nope=x.csv"], /unknown source 'nope'/],
    [
      ["build", "--source", "de-streets=/does/not/exist.csv", "--out", "/tmp/plz-never"],
      /^error: source de-streets: cannot read \/does\/not\/exist\.csv: no such file \(ENOENT\)$/m,
    ],
  ])("fails with one clear line: %j", (args, message) => {
    const result = cli(args);
    expect(result.status).not.toBe(0);
    expect(
      result.stderr
        .trim()
        .split("\n")
        // The sources read before the failing one report their progress (`name: where, 0.1 MiB,
        // read`), in whatever order they finish: the error is one line.
        .filter(
          (line) => line.trim() !== "" && !line.includes("nodedir") && !PROGRESS_LINE.test(line),
        ),
    ).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  /** The rough edges a new user met, one row each: what the CLI must print, and its exit code. */
  const work = tempDir("cli-edges");
  const version = (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }
  ).version;
  // The plan rows check what plan prints, not the data: the German sources cut to two states
  // (germanCut) and no page files, a fraction of the embedded build's work.
  const smallPlan = [
    ...Object.entries(germanCut(tempDir("cli-plan"))).flatMap(([name, path]) => [
      "--source",
      `${name}=${path}`,
    ]),
    "--no-page-files",
  ];
  it.each<{
    edge: string;
    args: string[];
    env?: Record<string, string>;
    status: number;
    stdout?: RegExp;
    notStdout?: RegExp;
    stderr?: RegExp;
  }>([
    {
      edge: "--source shows no '(default: {})'",
      args: ["build", "--help"],
      status: 0,
      stdout: /--source <name=path\|url>/,
      notStdout: /default: \{\}/,
    },
    {
      edge: "--cache-duration names * (forever)",
      args: ["plan", "--help"],
      status: 0,
      stdout: /--cache-duration[\s\S]*0s \(always download\), \* \(forever\)/,
    },
    {
      edge: "the help names the PORT variable",
      args: ["--help"],
      status: 0,
      stdout: /Environment:\n\s+PORT\s+the port of serve and start/,
    },
    {
      edge: "--port says where its default comes from",
      args: ["serve", "--help"],
      status: 0,
      stdout: /--port <port>\s+port \(default: \$PORT, else 8788\)/,
    },
    {
      edge: "--version",
      args: ["--version"],
      status: 0,
      stdout: new RegExp(`^${version.replaceAll(".", "\\.")}\n$`),
    },
    {
      edge: "-V",
      args: ["-V"],
      status: 0,
      stdout: new RegExp(`^${version.replaceAll(".", "\\.")}\n$`),
    },
    {
      edge: "--source given twice is an error",
      args: [
        "build",
        "--source",
        "de-streets=a.csv",
        "--source",
        "de-streets=b.csv",
        "--out",
        join(work, "never"),
      ],
      status: 1,
      stderr:
        /--source.*source 'de-streets' given twice \(a\.csv, then b\.csv\): give each source once/,
    },
    {
      edge: "a directory as a source names the source",
      args: ["build", "--source", `de-gv100ad=${work}`, "--out", join(work, "never")],
      status: 1,
      stderr:
        /^error: source de-gv100ad: cannot read .*cli-edges-\w+: a directory, not a file \(EISDIR\)$/m,
    },
    {
      edge: "an invalid PORT is an error",
      args: ["serve", "--dir", work],
      env: { PORT: "80a" },
      status: 1,
      stderr: /^error: PORT=80a: expected a positive whole number$/m,
    },
    {
      edge: "plan --json prints one JSON object, without a write phase",
      args: ["plan", "--json", ...smallPlan],
      status: 0,
      stdout:
        /^\{"files":\{.*"timingsMs":\{"fetch":[\d.]+,"read":[\d.]+,"sort":[\d.]+,"search":[\d.]+,"suggest":[\d.]+,"render":[\d.]+\}.*\}\n$/,
    },
    {
      edge: "plan reports no write time: it writes nothing",
      args: ["plan", ...smallPlan],
      status: 0,
      stdout:
        /^fetch [\d.]+ s, read [\d.]+ s, sort [\d.]+ s, search [\d.]+ s, suggest [\d.]+ s, render [\d.]+ s; CPU/m,
      notStdout: /write/,
    },
  ])("$edge", ({ args, env, status, stdout, notStdout, stderr }) => {
    const result = spawnSync(CLI_COMMAND, cliArgs(...args), {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
    expect(result.status, result.stderr).toBe(status);
    if (stdout !== undefined) expect(result.stdout).toMatch(stdout);
    if (notStdout !== undefined) expect(result.stdout).not.toMatch(notStdout);
    if (stderr !== undefined) expect(result.stderr).toMatch(stderr);
    // Progress (the sources read so far, `name: where, 0.1 MiB, read`) may precede it: the error is one line.
    if (status !== 0)
      expect(
        result.stderr
          .split("\n")
          .filter(
            (line) => line.trim() !== "" && !line.includes("nodedir") && !PROGRESS_LINE.test(line),
          ),
        "one line",
      ).toHaveLength(1);
  });

  it("reports a malformed row with file and line, and writes nothing", () => {
    const work = tempDir("cli-bad");
    const broken = join(work, "broken.csv");
    writeFileSync(
      broken,
      `${readFileSync(fixtureStreets(work), "utf8")}"unterminated,10115,Berlin,11000000,,\n`,
    );
    const result = cli(["build", "--source", `de-streets=${broken}`, "--out", join(work, "dist")]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: .*broken\.csv:1498: malformed CSV/m);
    expect(readdirSync(work).sort()).toEqual(["broken.csv", "streets.csv"]);
  });

  it("fails with one line when the output cannot be written", () => {
    const work = tempDir("cli-unwritable");
    const file = join(work, "a-file");
    writeFileSync(file, "");
    const result = cli(["build", "--out", join(file, "dist")]);
    expect(result.status).toBe(1);
    expect(
      result.stderr
        .trim()
        .split("\n")
        .filter((line) => !line.includes("nodedir")),
    ).toEqual([
      expect.stringMatching(
        /^error: cannot write the output to .*a-file\/dist: a file is in the way of a directory$/,
      ),
    ]);
  });
});

describe("kill -9 in the middle of a build", () => {
  it("leaves the previous output intact and servable, and the next build cleans up", async () => {
    const work = tempDir("kill");
    const out = join(work, "dist");
    // The atomic swap is the subject, not the German data: every build here reads it cut to Berlin
    // and Saxony (germanCut; the previous build's record counts are the guards' baseline).
    const german = germanCut(tempDir("kill-sources"));
    // The output the kill must leave intact, and the next build's. No search index: the atomic
    // swap is the subject, and the request below (a locality's streets) needs none.
    const fixtureBuild = {
      root: ROOT,
      sources: german,
      maxFiles: 100_000,
      headersTemplate,
      only: STREET_FIXTURE,
      searchIndex: false,
    };
    await buildToDirectory(fixtureBuild, out);
    const before = readFileSync(join(out, "_build.json"), "utf8");

    // The full Berlin list takes seconds to write: kill it once it is well under way.
    const child = spawn(
      CLI_COMMAND,
      // No search index: it is no part of the swap, and the build reaches its page files sooner.
      cliArgs(
        "build",
        "--no-search-index",
        "--source",
        `de-streets=${dataFile("de/streets-berlin.csv")}`,
        "--source",
        `de-gv100ad=${german["de-gv100ad"]}`,
        "--source",
        `de-postcodes=${german["de-postcodes"]}`,
        "--out",
        out,
      ),
      { cwd: ROOT, stdio: "ignore", detached: true },
    );
    const building = () => readdirSync(work).find((entry) => entry.startsWith(".dist.building-"));
    // No deadline: on a busy machine the build may take minutes to get there (vitest bounds a hang).
    while (child.exitCode === null && child.signalCode === null) {
      const dir = building();
      if (dir !== undefined && existsSync(join(work, dir, "_p/de.streets/berlin/11920/50"))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(building()).toBeDefined();
    process.kill(-(child.pid ?? 0), "SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    expect(readFileSync(join(out, "_build.json"), "utf8")).toBe(before);
    const server = await startServer(out);
    try {
      const response = await rawRequest(
        server.origin,
        "/de/Streets?locality=Berlin&pageSize=10&page=2",
      );
      expect(response.status).toBe(200);
      expect(response.headers["x-total-count"]).toBe("600");
    } finally {
      await server.stop();
    }

    await buildToDirectory(fixtureBuild, out);
    expect(readdirSync(work).filter((entry) => entry.startsWith(".dist."))).toEqual([]);
  });
});
