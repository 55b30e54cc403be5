// The IPFS path a file data source is created with, read as graph-node reads it (its ContentPath):
// `<cid>[/path]`, `/ipfs/<cid>[/path]`, `ipfs://<cid>[/path]`, a gateway URL `.../ipfs/<cid>[/path]` or
// an API URL `...?arg=<cid>[/path]`. The canonical text (`<cid>[/path]`) is the data source's identity
// and what `dataSource.address()` / `stringParam()` answer.
import { CID } from "multiformats/cid";
import { IpfsPathError } from "./errors.js";

/** Canonical `<cid>[/path]`; throws IpfsPathError when the input names no valid CID. */
export function parseContentPath(input: string): string {
  const text = input.trim();
  if (text === "") throw new IpfsPathError("content path is empty", { details: { input } });
  if (/^https?:\/\//.test(text)) return fromUrl(text);
  return fromCidAndPath(text);
}

function fromUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw new IpfsPathError(`${text}: input is not a valid URL`, { cause: error, details: { input: text } });
  }
  const arg = url.searchParams.get("arg");
  if (arg !== null) return fromCidAndPath(arg);
  const at = url.pathname.indexOf("/ipfs/");
  return fromCidAndPath(at >= 0 ? url.pathname.slice(at + "/ipfs/".length) : url.pathname);
}

function fromCidAndPath(raw: string): string {
  let rest = raw.replace(/^\/+|\/+$/g, "");
  for (const prefix of ["ipfs/", "ipfs://"]) if (rest.startsWith(prefix)) rest = rest.slice(prefix.length);
  const slash = rest.indexOf("/");
  const cidText = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? "" : rest.slice(slash + 1);
  let cid: CID;
  try {
    cid = CID.parse(cidText);
  } catch (error) {
    throw new IpfsPathError(`${rest}: invalid CID: ${(error as Error).message}`, { cause: error, details: { input: raw } });
  }
  if (path.includes("?")) throw new IpfsPathError(`${rest}: query parameters not allowed`, { details: { input: raw } });
  return path === "" ? cid.toString() : `${cid.toString()}/${path}`;
}
