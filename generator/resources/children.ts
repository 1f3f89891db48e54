import type { Credit } from "./credits.ts";
import { pagedQuery, type Resource, type Selector, type SelectorValue } from "./resource.ts";
import type { RecordSchema } from "./schema.ts";

/**
 * Lists of units within a parent unit (`/de/FederalStates/{key}/Districts`): one child definition
 * (records, order, columns, schema) combined with each parent that can select it. The parent's
 * key is a path parameter that selects one view, matched exactly as the original matches keys.
 */
export interface ParentSpec<R> {
  /** The parent's list path, e.g. `/de/FederalStates`. */
  readonly path: string;
  /** The parent in a sentence, e.g. `federal state`. */
  readonly noun: string;
  /** What the key is, e.g. `Federal state key, two digits (09 is Bayern).` */
  readonly keyDescription: string;
  /** A real key for the examples. */
  readonly exampleKey: string;
  /** The record's parent key; `undefined` when the record has no such parent; several when the parent is matched by any of them (see `Selector.value`). */
  readonly value: (record: R) => SelectorValue;
}

export interface ChildSpec<R> {
  /** The last path segment, e.g. `Districts`. */
  readonly segment: string;
  /** Plural noun, e.g. `districts`. */
  readonly noun: string;
  /** Title prefix, e.g. `German districts`. */
  readonly title: string;
  /** What the records are and their order (completed with the parent). */
  readonly description: string;
  readonly sortKey: (record: R) => readonly string[];
  readonly record: RecordSchema<R>;
  readonly credits: readonly Credit[];
}

export function childResource<R>(child: ChildSpec<R>, parent: ParentSpec<R>): Resource<R> {
  const selector: Selector<R> = {
    param: "key",
    in: "path",
    required: true,
    match: "exact",
    description: `${parent.keyDescription} Matched exactly; an unknown key is 200 with an empty list.`,
    value: parent.value,
  };
  const path = `${parent.path}/{key}/${child.segment}`;
  return {
    id: `${parent.path.slice(1).replaceAll("/", ".")}.${child.segment}`.toLowerCase(),
    path,
    title: `${child.title} of a ${parent.noun}`,
    description: `The ${child.noun} of one ${parent.noun}: ${child.description}`,
    query: pagedQuery([selector]),
    selectors: [selector],
    sortKey: child.sortKey,
    record: child.record,
    examples: [
      {
        summary: `The ${child.noun} of ${parent.noun} ${parent.exampleKey}`,
        path: { key: parent.exampleKey },
        query: {},
      },
      {
        summary: "Page 2 with 2 per page",
        path: { key: parent.exampleKey },
        query: { page: "2", pageSize: "2" },
      },
      {
        summary: "Three as CSV",
        path: { key: parent.exampleKey },
        query: { pageSize: "3", format: "csv" },
      },
    ],
    credits: child.credits,
  };
}
