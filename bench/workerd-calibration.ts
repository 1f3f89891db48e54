/**
 * `bench:workerd --calibrate`: what workerd itself costs a Worker's thread per request, per file
 * fetched from the assets and per KiB read, measured with a Worker that only fetches
 * (bench/fetch-only-worker.ts) over files of the build, and fitted by least squares. Subtracted
 * from a request's figure it leaves the project's own code; the per-file cost is what a page's
 * file count costs in this bench.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FILE_LIST_PATH } from "../generator/contract/layout.ts";

export interface CalibrationTarget {
  readonly path: string;
  readonly files: number;
  readonly kib: number;
}

/** Index files of `dist` (`/_s/…`) by size, from the build's file list (path, digest, bytes). */
function indexFiles(dist: string): { path: string; bytes: number }[] {
  return readFileSync(join(dist, FILE_LIST_PATH), "utf8")
    .split("\n")
    .map((line) => line.split("\t"))
    .filter(([path]) => path?.startsWith("/_s/") === true)
    .map(([path = "", , bytes]) => ({ path, bytes: Number(bytes) }))
    .sort((a, b) => a.bytes - b.bytes || (a.path < b.path ? -1 : 1));
}

/**
 * The calibration's requests, each twice (two isolates): no file; 10 and 46 of the smallest
 * files; 10 and 46 files of 16-64 KiB.
 */
export function calibrationTargets(dist: string): CalibrationTarget[] {
  const files = indexFiles(dist);
  const small = files.slice(0, 46);
  const mid = files.filter((f) => f.bytes >= 16_384 && f.bytes <= 65_536).slice(0, 46);
  const sets = [[], small.slice(0, 10), small, mid.slice(0, 10), mid];
  return sets.flatMap((set, i) =>
    [0, 1].map((copy) => ({
      path: `/calibrate-${i}-${copy}?f=${set.map((f) => f.path).join(",")}`,
      files: set.length,
      kib: set.reduce((sum, f) => sum + f.bytes, 0) / 1024,
    })),
  );
}

export interface Cost {
  readonly perRequest: number;
  readonly perFile: number;
  readonly perKib: number;
}

type Row3 = readonly [number, number, number];
type Matrix3 = readonly [Row3, Row3, Row3];

const det3 = ([[a, b, c], [d, e, f], [g, h, i]]: Matrix3): number =>
  a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);

/** Least squares of ms ≈ perRequest + perFile × files + perKib × kib. */
export function fitCost(rows: readonly (CalibrationTarget & { readonly ms: number })[]): Cost {
  // The normal equations (XᵀX) c = Xᵀy, solved by Cramer's rule.
  const sum = (f: (r: CalibrationTarget & { readonly ms: number }) => number) =>
    rows.reduce((s, r) => s + f(r), 0);
  const [n, f, k] = [rows.length, sum((r) => r.files), sum((r) => r.kib)];
  const [ff, fk, kk] = [
    sum((r) => r.files ** 2),
    sum((r) => r.files * r.kib),
    sum((r) => r.kib ** 2),
  ];
  const y: Row3 = [sum((r) => r.ms), sum((r) => r.files * r.ms), sum((r) => r.kib * r.ms)];
  const a: Matrix3 = [
    [n, f, k],
    [f, ff, fk],
    [k, fk, kk],
  ];
  const d = det3(a);
  const column = (c: 0 | 1 | 2): Matrix3 => {
    const row = (r: Row3, v: number): Row3 =>
      c === 0 ? [v, r[1], r[2]] : c === 1 ? [r[0], v, r[2]] : [r[0], r[1], v];
    return [row(a[0], y[0]), row(a[1], y[1]), row(a[2], y[2])];
  };
  return {
    perRequest: det3(column(0)) / d,
    perFile: det3(column(1)) / d,
    perKib: det3(column(2)) / d,
  };
}
