import { RESOURCES } from "../resources/index.ts";
import type { PublishedDataset } from "./datasets.ts";
import type { CopyState } from "./store.ts";
import { layoutOf, tableSpec, type TableSpec } from "./tables.ts";

const SPECS = new Map(RESOURCES.map((resource) => [resource.id, resource] as const));

/** The table of a dataset this version of the project knows; undefined for one it does not. */
export function specOf(resource: string): TableSpec | undefined {
  const known = SPECS.get(resource);
  return known === undefined ? undefined : tableSpec(known);
}

/** What a run does with each dataset, decided from the copy's state and the source's build. */
export interface DatasetPlan {
  /** Every dataset the copy keeps after the run. */
  readonly wanted: readonly TableSpec[];
  /** In the copy: brought forward by the feed (then dropped, when no longer wanted). */
  readonly apply: readonly TableSpec[];
  /** Loaded from the downloads: new in the copy. */
  readonly load: readonly TableSpec[];
  /** In the copy but no longer published: their tables go. */
  readonly drop: readonly { readonly resource: string; readonly table: string }[];
  /** What the run says about them, one line each. */
  readonly notes: readonly string[];
  readonly selection: CopyState["selection"];
  /** Why the copy cannot follow the feed whatever it says (a table of another layout). */
  readonly reason?: string;
}

/** Refuses --datasets naming none, or one the source does not publish or this version does not know. */
export function checkRequested(
  published: ReadonlyMap<string, PublishedDataset>,
  requested: readonly string[] | undefined,
): void {
  if (requested?.length === 0) throw new Error("--datasets: name at least one dataset");
  for (const resource of requested ?? []) {
    if (!published.has(resource))
      throw new Error(
        `--datasets: ${resource} is not a dataset of the source (it has ${[...published.keys()].join(", ")})`,
      );
    if (specOf(resource) === undefined)
      throw new Error(`--datasets: ${resource} is not a dataset this version of plz-static knows`);
  }
}

/**
 * `requested`: the datasets named with --datasets (checked by `checkRequested`).
 * A copy keeps the datasets it holds; `all` (no --datasets on its first run) also every dataset the
 * source publishes later; `listed` only those named, now or before.
 */
export function planDatasets(
  state: CopyState | undefined,
  published: ReadonlyMap<string, PublishedDataset>,
  requested: readonly string[] | undefined,
): DatasetPlan {
  const selection = state?.selection ?? (requested === undefined ? "all" : "listed");
  const held = state?.datasets ?? new Map<string, { table: string; layout: string }>();
  const notes: string[] = [];
  const before = new Set(state?.published ?? []);
  if (state !== undefined) {
    const added = [...published.keys()].filter((resource) => !before.has(resource));
    const dropped = [...before].filter((resource) => !published.has(resource));
    for (const resource of added)
      notes.push(
        `${resource}: new at the source${selection === "all" || requested?.includes(resource) === true ? ", loaded" : `, not in this copy (add it with --datasets ${resource})`}`,
      );
    for (const resource of dropped)
      notes.push(
        `${resource}: no longer published by the source${held.has(resource) ? `: its table ${held.get(resource)?.table ?? ""} is removed` : ""}`,
      );
  }
  const names =
    selection === "all"
      ? [...published.keys()]
      : [...new Set([...held.keys(), ...(requested ?? [])])].filter((r) => published.has(r));
  const wanted: TableSpec[] = [];
  for (const resource of names) {
    const spec = specOf(resource);
    if (spec !== undefined) wanted.push(spec);
    else if (!before.has(resource))
      notes.push(`${resource}: published, but not a dataset this version of plz-static knows`);
  }
  // Every table the copy holds follows the feed, even one dropped at the end: each build the copy
  // passes through is then exact. One this version cannot follow makes the copy load again.
  const apply: TableSpec[] = [];
  const unknown: string[] = [];
  for (const [resource, { layout }] of held) {
    const spec = specOf(resource);
    if (spec !== undefined && layout === layoutOf(spec)) apply.push(spec);
    else unknown.push(resource);
  }
  const load = wanted.filter((spec) => !held.has(spec.resource));
  const drop = [...held]
    .filter(([resource]) => !wanted.some((spec) => spec.resource === resource))
    .map(([resource, { table }]) => ({ resource, table }));
  const reason =
    unknown.length === 0
      ? undefined
      : `the tables of ${unknown.join(", ")} are not of the layout this version of plz-static makes`;
  return {
    wanted,
    apply,
    load,
    drop,
    notes,
    selection,
    ...(reason === undefined ? {} : { reason }),
  };
}
