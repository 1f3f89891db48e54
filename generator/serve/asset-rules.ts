import type { HeaderMap } from "./wire.ts";

/**
 * `_headers` and `_redirects` as Cloudflare's asset worker applies them (workers-shared:
 * rules-engine.ts, headers.ts, handler.ts), over the rules Cloudflare's own parsers produced
 * (assets.ts, `assetConfigFor`): a rule matches the whole path; `*` is a splat that spans `/`,
 * `:name` one segment; placeholders are substituted into the values.
 */

interface HeaderRule {
  readonly set?: Record<string, string>;
  readonly unset?: readonly string[];
}
interface RedirectRule {
  readonly status: number;
  readonly to: string;
  readonly lineNumber?: number;
}
/** The parts of the asset worker's CONFIG read here. */
export interface AssetConfig {
  readonly headers?: { readonly version?: number; readonly rules?: Record<string, HeaderRule> };
  readonly redirects?: {
    readonly version?: number;
    readonly staticRules?: Record<string, RedirectRule>;
    readonly rules?: Record<string, RedirectRule>;
  };
}

const HEADERS_VERSION = 2;
const REDIRECTS_VERSION = 1;
const ESCAPE = /[-/\\^$*+?.()|[\]{}]/g;
const HOST_PLACEHOLDER = /(?<=^https:\\\/\\\/[^/]*?):([A-Za-z]\w*)(?=\\)/g;
const PLACEHOLDER = /:([A-Za-z]\w*)/g;

/** The rule's pattern as the asset worker compiles it (`generateRuleRegExp`). */
function ruleRegExp(rule: string): RegExp {
  let source = rule
    .split("*")
    .map((part) => part.replace(ESCAPE, "\\$&"))
    .join("(?<splat>.*)");
  for (const match of source.matchAll(HOST_PLACEHOLDER))
    source = source.split(match[0]).join(`(?<${match[1] ?? ""}>[^/.]+)`);
  for (const match of source.matchAll(PLACEHOLDER))
    source = source.split(match[0]).join(`(?<${match[1] ?? ""}>[^/]+)`);
  return new RegExp(`^${source}$`);
}

function replace(text: string, groups: Record<string, string | undefined>): string {
  let out = text;
  for (const [name, value] of Object.entries(groups)) out = out.replaceAll(`:${name}`, value ?? "");
  return out;
}

interface Compiled<T> {
  readonly crossHost: boolean;
  readonly regExp: RegExp;
  readonly rule: T;
}

function compile<T>(rules: Record<string, T> | undefined): Compiled<T>[] {
  return Object.entries(rules ?? {}).flatMap(([pattern, rule]) => {
    try {
      return [{ crossHost: pattern.startsWith("https://"), regExp: ruleRegExp(pattern), rule }];
    } catch {
      return []; // the asset worker skips a rule it cannot compile
    }
  });
}

function matches<T>(
  compiled: readonly Compiled<T>[],
  hostname: string,
  pathname: string,
): { rule: T; groups: Record<string, string | undefined> }[] {
  return compiled.flatMap(({ crossHost, regExp, rule }) => {
    const result = regExp.exec(crossHost ? `https://${hostname}${pathname}` : pathname);
    return result === null ? [] : [{ rule, groups: result.groups ?? {} }];
  });
}

export interface Redirect {
  readonly status: number;
  readonly to: string;
}

export interface AssetRules {
  /** Applies the `_headers` rules matching the path to `headers`, as the asset worker does. */
  applyHeaders(hostname: string, pathname: string, headers: HeaderMap): void;
  /** The `_redirects` rule for the path (static rules first), its target with placeholders filled. */
  redirect(host: string, pathname: string): Redirect | undefined;
}

/** A header rule ready to apply: lower-case names, and whether a value needs its placeholders filled. */
interface HeaderAction {
  readonly unset: readonly string[];
  readonly set: readonly (readonly [name: string, value: string, placeholders: boolean])[];
}

/**
 * What the rules matching one path do, in order: a name to delete (no value), or a name to set to
 * a value with its placeholders filled (`append`: a rule before it set the same name, so the
 * values are joined). The same for every request of the path: matched once, then replayed.
 */
type HeaderOp = readonly [name: string, value?: string, append?: boolean];

/**
 * Paths whose header operations are kept, least recently used out first: every page of a busy
 * locality stays matched, and the memory stays bounded (an entry is a few hundred bytes).
 */
export const HEADER_OPS_KEPT = 8192;

export function assetRules(config: AssetConfig): AssetRules {
  const headerRules = compile(
    config.headers?.version === HEADERS_VERSION ? config.headers.rules : undefined,
  ).map(({ crossHost, regExp, rule }) => ({
    crossHost,
    regExp,
    rule: {
      unset: (rule.unset ?? []).map((name) => name.toLowerCase()),
      set: Object.entries(rule.set ?? {}).map(
        ([name, value]) => [name.toLowerCase(), value, value.includes(":")] as const,
      ),
    } satisfies HeaderAction,
  }));
  const redirects = config.redirects?.version === REDIRECTS_VERSION ? config.redirects : {};
  const staticRules = redirects.staticRules ?? {};
  const dynamicRules = compile(redirects.rules);
  const opsOf = (hostname: string, pathname: string): HeaderOp[] => {
    const ops: HeaderOp[] = [];
    const set = new Set<string>();
    for (const { crossHost, regExp, rule } of headerRules) {
      const match = regExp.exec(crossHost ? `https://${hostname}${pathname}` : pathname);
      if (match === null) continue;
      for (const name of rule.unset) ops.push([name]);
      for (const [key, value, placeholders] of rule.set) {
        ops.push([key, placeholders ? replace(value, match.groups ?? {}) : value, set.has(key)]);
        set.add(key);
      }
    }
    return ops;
  };
  // A rule naming a host makes the host part of what a path's operations depend on.
  const byHost = headerRules.some((rule) => rule.crossHost);
  const kept = new Map<string, HeaderOp[]>();
  return {
    applyHeaders(hostname, pathname, headers) {
      const key = byHost ? `${hostname}/${pathname}` : pathname;
      let ops = kept.get(key);
      if (ops !== undefined) kept.delete(key);
      else if (kept.size >= HEADER_OPS_KEPT) kept.delete(kept.keys().next().value ?? "");
      kept.set(key, (ops ??= opsOf(hostname, pathname)));
      for (const [name, value, append] of ops) {
        if (value === undefined) {
          headers.delete(name);
          continue;
        }
        const had = append === true ? headers.get(name) : undefined;
        headers.set(name, had !== undefined ? `${had}, ${value}` : value);
      }
    },
    redirect(host, pathname) {
      const withHost = staticRules[`https://${host}${pathname}`];
      const without = staticRules[pathname];
      const fixed =
        withHost !== undefined && without !== undefined
          ? (withHost.lineNumber ?? 0) < (without.lineNumber ?? 0)
            ? withHost
            : without
          : (withHost ?? without);
      if (fixed !== undefined) return { status: fixed.status, to: fixed.to };
      const [first] = matches(dynamicRules, host.split(":")[0] ?? host, pathname);
      if (first === undefined) return undefined;
      const to = replace(first.rule.to, first.groups).trim();
      return { status: first.rule.status, to: /^\w+:\/\//.test(to) ? to : to.replace(/\/+/g, "/") };
    },
  };
}
