/** Compact JSON as the original writes it: properties in record order, absent ones omitted, non-ASCII raw. */
export function jsonRecord(record: unknown): string {
  return JSON.stringify(record);
}

export function jsonArray(renderedRecords: readonly string[]): string {
  return `[${renderedRecords.join(",")}]`;
}
