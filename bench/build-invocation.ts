import { execFileSync, spawn } from "node:child_process";
import { readFileSync, symlinkSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");

/** A process to spawn: what `spawn(command, args, { env })` takes. */
export interface Invocation {
  readonly command: string;
  readonly args: string[];
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The generator as `npm run build` starts it in the checkout `root`, with `args` after `build`: the
 * environment and the Node flags of that checkout's package.json `build` script, read from it, and
 * the project's Node (npm puts `node_modules/.bin`, with the `node` devDependency, first in PATH; a
 * bench started another way would otherwise build on the system's Node). So a bench measures the
 * time and memory of the process an operator runs: the Node version, the heap limits and malloc's
 * settings change both. An older checkout (an A/B's base) may run the CLI through tsx.
 */
export function buildInvocation(args: readonly string[], root = ROOT): Invocation {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  return scriptInvocation(pkg.scripts?.["build"] ?? "", root, args);
}

/** A `build` script, `[NAME=value …] exec node [flags] <cli> build` or `[NAME=value …] tsx [flags] <cli> build`, as a process. */
export function scriptInvocation(
  script: string,
  root: string,
  args: readonly string[],
): Invocation {
  const words = script.split(/\s+/).filter((word) => word !== "");
  const assignments = words.slice(
    0,
    Math.max(
      0,
      words.findIndex((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word)),
    ),
  );
  const command = words.slice(assignments.length);
  if (command[0] === "exec") command.shift();
  const [runner, ...rest] = command;
  if ((runner !== "node" && runner !== "tsx") || rest.at(-1) !== "build")
    throw new Error(
      `package.json: the build script should be [NAME=value …] exec node [flags] generator/cli/compiled.mjs build (or tsx [flags] <cli> build), not '${script}'`,
    );
  const bin = join(root, "node_modules/.bin");
  const env = {
    ...process.env,
    PATH: [bin, process.env["PATH"] ?? ""].join(delimiter),
    ...Object.fromEntries(
      assignments.map((word) => [
        word.slice(0, word.indexOf("=")),
        word.slice(word.indexOf("=") + 1),
      ]),
    ),
  };
  return { command: join(bin, runner), args: [...rest, ...args], env };
}

/**
 * Builds `streets` as the German street list into `dir` with `--json` and the `extra` arguments,
 * in a process of its own started from `generator` (another checkout for an A/B), and resolves to
 * the build's JSON summary.
 */
export function jsonBuild<T>(
  streets: string,
  dir: string,
  extra: readonly string[],
  generator = ROOT,
): Promise<T> {
  process.stderr.write(`building ${dir} from ${streets} ${extra.join(" ")} (${generator})\n`);
  return new Promise((resolvePromise, reject) => {
    const build = buildInvocation(
      ["--source", `de-streets=${streets}`, "--out", dir, "--json", ...extra],
      generator,
    );
    const child = spawn(build.command, build.args, {
      cwd: generator,
      env: build.env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("exit", (code) =>
      code === 0
        ? resolvePromise(JSON.parse(stdout) as T)
        : reject(new Error(`build exited with ${code}`)),
    );
  });
}

/**
 * A git worktree of `commit` (of this repository) at `dir`, sharing this checkout's node_modules,
 * for building or running another version of the code; the function it returns removes it.
 */
export function gitCheckout(commit: string, dir: string): () => void {
  execFileSync("git", ["-C", ROOT, "worktree", "add", "--detach", "--force", dir, commit], {
    stdio: "ignore",
  });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return () =>
    execFileSync("git", ["-C", ROOT, "worktree", "remove", "--force", dir], { stdio: "ignore" });
}
