import { Command } from "commander";
import { join, resolve } from "node:path";
import { isBuildDirectory, packageVersion, PROJECT_ROOT } from "../io/read.ts";
import type { AssetSetupProcess } from "../serve/assets.ts";
import { HEALTH_PATH } from "../serve/child.ts";
import { serveBuild, ServeError } from "../serve/server.ts";
import { isServeWorker, runServeWorker, serveCluster } from "../serve/cluster.ts";
import { SEARCH_READ_BUDGET } from "../contract/search/plan.ts";
import { addSyncCommand } from "./sync-command.ts";
import {
  buildOptions,
  DEFAULT_HOST,
  DEFAULT_MAX_FILES,
  DEFAULT_PORT,
  defaultPort,
  guardOptions,
  positiveInteger,
  withGuardOptions,
  withSourceOptions,
  type GuardFlags,
  type SourceFlags,
} from "./options.ts";
import { progressReporter } from "./progress.ts";
import { cachedAssetSetup, embeddedDist } from "./start.ts";
import { printJson, printSummary } from "./summary.ts";

// The build, verify and wrangler dev are loaded by the commands that run them (import()): `start`
// with dist/ current and `serve` load none of them.

const PAGE_FILES_FLAG = "--no-page-files";
const PAGE_FILES_HELP =
  "write no page files, only the minimum (every page is cut from the packed records: the same answers, more Worker CPU per request); what start writes";

const program = new Command("plz")
  .description("Builds and serves the static OpenPLZ-compatible API.")
  .version(packageVersion())
  .addHelpText(
    "after",
    `\nEnvironment:\n  PORT  the port of serve and start when --port is not given (default ${DEFAULT_PORT})`,
  );

withGuardOptions(
  withSourceOptions(
    program
      .command("build")
      .description(
        "build the page files, downloads, index and _headers into a directory (atomically; unchanged files are kept, not rewritten)",
      )
      .option("--out <dir>", "output directory", "dist")
      .option(
        "--max-files <n>",
        "file budget of the deployment",
        positiveInteger,
        DEFAULT_MAX_FILES,
      )
      .option(PAGE_FILES_FLAG, PAGE_FILES_HELP)
      .option("--full", "write every file, even when the previous build has the same bytes")
      .option("--json", "print the summary as one JSON object (for benchmarks)")
      .option(
        "--no-search-index",
        "leave out street search (FullTextSearch, the Streets name and postalCode filters): for measuring what the index costs",
      )
      .option(
        "--search-read-budget <KiB>",
        "index one street search may read; broader searches get a 400 (raise it on a plan with more CPU per request)",
        positiveInteger,
        SEARCH_READ_BUDGET / 1024,
      ),
  ),
  "the previous build in --out",
).action(
  async (
    opts: SourceFlags &
      GuardFlags & {
        out: string;
        maxFiles: number;
        pageFiles: boolean;
        full?: boolean;
        json?: boolean;
        searchIndex: boolean;
        searchReadBudget: number;
      },
  ) => {
    const out = resolve(opts.out);
    const { buildToDirectory } = await import("../build/build.ts");
    const compared = await guardOptions(opts, out);
    const summary = await buildToDirectory(
      {
        ...buildOptions(opts, opts.maxFiles, progressReporter("pages")),
        ...compared,
        pageFiles: opts.pageFiles,
        searchIndex: opts.searchIndex,
        searchReadBudget: opts.searchReadBudget * 1024,
      },
      out,
      opts.full === true,
      "background",
    );
    if (opts.json) printJson(summary);
    else printSummary(summary, `built ${out}`);
  },
);

withGuardOptions(
  withSourceOptions(
    program
      .command("plan")
      .description(
        "print files and bytes per resource and the materialised page sizes, writing nothing",
      )
      .option(
        "--max-files <n>",
        "file budget of the deployment",
        positiveInteger,
        DEFAULT_MAX_FILES,
      )
      .option(PAGE_FILES_FLAG, PAGE_FILES_HELP)
      .option("--json", "print the summary as one JSON object"),
  ),
  "dist/",
).action(
  async (
    opts: SourceFlags & GuardFlags & { maxFiles: number; pageFiles: boolean; json?: boolean },
  ) => {
    const [{ buildInto }, { CountingSink }] = await Promise.all([
      import("../build/build.ts"),
      import("../io/sink.ts"),
    ]);
    const compared = await guardOptions(opts, join(PROJECT_ROOT, "dist"));
    const summary = await buildInto(
      { ...buildOptions(opts, opts.maxFiles), ...compared, pageFiles: opts.pageFiles },
      new CountingSink(),
    );
    if (opts.json) printJson(summary);
    else
      printSummary(
        summary,
        `plan (budget ${opts.pageFiles ? `${opts.maxFiles} files` : "the minimum"})`,
      );
  },
);

const WORKERS_HELP = "server processes sharing the port (default 1; one per core uses every core)";

program
  .command("serve")
  .description(
    "serve a built directory as Cloudflare serves it (its asset rules and the Worker in Node; a rebuild into the directory is served whole once it is there)",
  )
  .option("--dir <dir>", "built directory", "dist")
  .option(
    "--host <address>",
    "address to listen on (0.0.0.0 or :: for every interface)",
    DEFAULT_HOST,
  )
  .option("--port <port>", `port (default: $PORT, else ${DEFAULT_PORT})`, positiveInteger)
  .option("--workers <n>", WORKERS_HELP, positiveInteger)
  .action((opts: { dir: string; host: string; port?: number; workers?: number }) =>
    serve(resolve(opts.dir), opts.host, opts.port ?? defaultPort(), opts.workers),
  );

program
  .command("verify")
  .description(
    "smoke-test a built directory through the local runtime: every endpoint against the build's downloads, the docs, a 400, and every download against its manifest",
  )
  .option("--dir <dir>", "built directory", "dist")
  .action(async (opts: { dir: string }) => {
    const dir = resolve(opts.dir);
    if (!isBuildDirectory(dir))
      fail(`${dir} is not a build (no _headers); run npm run build first`);
    process.stderr.write(`verify: starting the local runtime for ${dir} …\n`);
    const [{ startLocalServer }, { verifyBuild }] = await Promise.all([
      import("../serve/local.ts"),
      import("../serve/verify.ts"),
    ]);
    const server = await startLocalServer(dir);
    let failed: number;
    try {
      const report = await verifyBuild(server.origin, (message) =>
        process.stderr.write(`verify: ${message}\n`),
      );
      for (const failure of report.failures) process.stdout.write(`FAIL ${failure}\n`);
      process.stdout.write(`verify: ${report.checks} checks, ${report.failures.length} failed\n`);
      failed = report.failures.length;
    } finally {
      await server.stop();
    }
    process.exit(failed === 0 ? 0 : 1);
  });

addSyncCommand(program);

program
  .command("start")
  .description("build the embedded data into dist/ when it changed, then serve it (like serve)")
  .option(
    "--host <address>",
    "address to listen on (0.0.0.0 or :: for every interface)",
    DEFAULT_HOST,
  )
  .option("--port <port>", `port (default: $PORT, else ${DEFAULT_PORT})`, positiveInteger)
  .option("--workers <n>", WORKERS_HELP, positiveInteger)
  .action(async (opts: { host: string; port?: number; workers?: number }) => {
    // Started first, so that what the server needs of Miniflare loads beside the build.
    const setup = (opts.workers ?? 1) > 1 ? undefined : cachedAssetSetup();
    try {
      const dist = await embeddedDist();
      await serve(dist, opts.host, opts.port ?? defaultPort(), opts.workers, setup);
    } catch (error) {
      setup?.end();
      throw error;
    }
  });

program
  .command("dev")
  .description(
    "build the embedded data into dist/ when it changed, then run wrangler dev (hot reload of the Worker, for changing it)",
  )
  .option("--port <port>", `port (default: $PORT, else ${DEFAULT_PORT})`, positiveInteger)
  .action(async (opts: { port?: number }) => {
    const dist = await embeddedDist();
    const port = opts.port ?? defaultPort();
    const { startWranglerDev } = await import("../serve/wrangler-dev.ts");
    process.stderr.write(`starting wrangler dev for ${dist} on http://localhost:${port}/ …\n`);
    const server = await startWranglerDev(dist, { port, host: "localhost", inheritOutput: true });
    process.stderr.write(`wrangler dev serves ${dist} on ${server.origin}/\n`);
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.on(signal, () => void server.stop());
    process.exit((await server.exited) ?? 1);
  });

/**
 * Serves until SIGINT or SIGTERM: then stops taking requests, finishes those in flight (≤ 3 s) and
 * exits. One process reads the asset setup through `setup` (`start` starts it beside its build),
 * else through the cached one.
 */
async function serve(
  dir: string,
  host: string,
  port: number,
  workers = 1,
  setup?: AssetSetupProcess,
): Promise<void> {
  if (!isBuildDirectory(dir)) fail(`${dir} is not a build (no _headers); run npm run build first`);
  const started = performance.now();
  try {
    const server =
      workers > 1
        ? await serveCluster(dir, host, port, workers)
        : await serveBuild(dir, host, port, { setup: setup ?? cachedAssetSetup() });
    process.stderr.write(
      `serving ${dir} (${server.assets} files) on ${server.origin}/ after ${((performance.now() - started) / 1000).toFixed(1)} s; health: ${server.origin}${HEALTH_PATH}; try ${server.origin}/de/Streets?locality=Berlin&page=2&pageSize=10\n`,
    );
    const stop = () => {
      setTimeout(() => process.exit(0), 4_500).unref(); // whatever still holds the loop
      void server.stop().then(() => process.exit(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } catch (error) {
    fail(
      error instanceof ServeError
        ? error.message
        : `cannot serve ${dir}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

if (isServeWorker())
  runServeWorker().catch((error: unknown) =>
    fail(error instanceof Error ? error.message : String(error)),
  );
else
  program
    .parseAsync()
    .catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
