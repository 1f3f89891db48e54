import { gunzipSync } from "node:zlib";
import { isDownloadPath } from "../contract/downloads.ts";
import { sha256 } from "../io/sink.ts";
import type { SyncSource } from "./source.ts";

/** A file as a manifest or the feed lists it: where, and the SHA-256 (hex) of its bytes. */
export interface Listed {
  readonly path: string;
  readonly sha256: string;
}

/** A file whose bytes are not the ones listed: the sync refuses it and applies nothing of the run's. */
export class VerifyError extends Error {}

/** The bytes of a listed file, refused unless their SHA-256 is the one listed. */
export async function readVerified(
  source: SyncSource,
  file: Listed,
  listedBy = "the manifest",
): Promise<Buffer> {
  // A listed path is one of the source's downloads: never another host, never outside the build.
  if (!isDownloadPath(file.path))
    throw new VerifyError(
      `${listedBy} lists ${JSON.stringify(file.path)}, which is no download path`,
    );
  const bytes = await source.read(file.path);
  if (bytes === undefined)
    throw new VerifyError(`${source.where}${file.path}: listed, but there is no such file`);
  const data = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const digest = sha256(data).toString("hex");
  if (digest !== file.sha256)
    throw new VerifyError(
      `${source.where}${file.path}: SHA-256 ${digest}, but ${listedBy} says ${file.sha256}: refused, nothing applied (a deployment that changed while syncing? run again)`,
    );
  return data;
}

/** A dataset part: its gzip copy when there is one and the source is remote (both SHA-256s checked), else the file itself. */
export async function readPart(
  source: SyncSource,
  part: { readonly file: Listed; readonly gzip?: Listed },
): Promise<Buffer> {
  if (!source.remote || part.gzip === undefined) return readVerified(source, part.file);
  const plain = gunzipSync(await readVerified(source, part.gzip));
  const digest = sha256(plain).toString("hex");
  if (digest !== part.file.sha256)
    throw new VerifyError(
      `${source.where}${part.gzip.path}: unzips to SHA-256 ${digest}, but the manifest says ${part.file.sha256} for ${part.file.path}: refused, nothing applied`,
    );
  return plain;
}
