import { selectView } from "../contract/address.ts";
import { compilePattern } from "../contract/regex/pattern.ts";
import type { DocsResource } from "../docs/input.ts";
import type { AnyResource, Resource } from "../resources/resource.ts";
import type { PreparedResource, PreparedView } from "./views.ts";

/** A resource's docs entry; its sample is one real record, the first of the first example's view. */
export function docsEntry(
  { resource, records, views }: PreparedResource,
  sample: string | undefined,
): DocsResource {
  return {
    resource,
    records,
    views: views.length,
    exampleViews: spreadViews(views),
    ...(sample === undefined ? {} : { sample: JSON.parse(sample) as unknown }),
  };
}

/** A few views spread over all of them (first, middle, last), with their selector values: the docs' parameter examples. */
function spreadViews(
  views: readonly PreparedView[],
): { filter: Readonly<Record<string, string>>; records: number }[] {
  const chosen = new Set([0, Math.floor(views.length / 2), views.length - 1]);
  return [...chosen].flatMap((i) => {
    const view = views[i];
    return view?.filter === undefined ? [] : [{ filter: view.filter, records: view.count }];
  });
}

/** With pattern filters (one view of all records), which records the first example's filters select. */
export function exampleMatch(resource: AnyResource): { accepts?: (record: unknown) => boolean } {
  const patterns = (resource as unknown as Resource<unknown>).patterns;
  const query = resource.examples[0]?.query ?? {};
  if (patterns === undefined) return {};
  const tests = patterns.filters.flatMap(({ param, ignoreCase }) => {
    const value = query[param];
    const compiled =
      value === undefined ? undefined : compilePattern(value.normalize("NFC"), { ignoreCase });
    return compiled?.ok === true ? [{ param, test: compiled.pattern.test }] : [];
  });
  return {
    accepts: (record) => tests.every(({ param, test }) => test(patterns.value(record, param))),
  };
}

/** The view whose first record the docs show: the one the resource's first example asks for, else the first. */
export function sampleView(
  resource: AnyResource,
  views: readonly PreparedView[],
): PreparedView | undefined {
  const example = resource.examples[0];
  const selection = selectView(resource.selectors ?? [], (s) =>
    s.in === "path" ? example?.path?.[s.param] : example?.query[s.param],
  );
  return (selection.ok ? views.find((view) => view.key === selection.key) : undefined) ?? views[0];
}
