// multipart/form-data bodies as Kubo's `add` receives them from kubo-rpc-client (graph-cli) and curl:
// one part per file (`name="file"`, `file-1`, ...; filename = URI-encoded path) or directory
// (`Content-Type: application/x-directory`, no content).
import { posix } from "node:path";
import { IpfsRequestError } from "./errors.js";

/** Most parts one `add` body may hold (Kubo has no cap; each part becomes a file or a directory here). */
export const MAX_PARTS = 10_000;

export interface MultipartPart {
  /** The form field name, e.g. `file`, `file-1`, `dir` (query suffixes like `?mode=` stripped). */
  field: string;
  /** The decoded file name (a path), or "" when the part has none. */
  filename: string;
  contentType: string;
  isDirectory: boolean;
  content: Uint8Array;
}

/** The boundary from a `multipart/form-data; boundary=...` header; throws for any other content type. */
export function multipartBoundary(contentType: string | undefined): string {
  if (contentType === undefined || !/^multipart\/form-data\b/i.test(contentType)) {
    throw new IpfsRequestError("file argument 'path' is required");
  }
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined) throw new IpfsRequestError("multipart boundary missing from Content-Type");
  return boundary;
}

function headerParam(header: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(header) ?? new RegExp(`(?:^|;)\\s*${name}=([^;]*)`, "i").exec(header);
  return match?.[1]?.trim();
}

/**
 * The URI-decoded name, cleaned as Kubo cleans it (Go's path.Clean("/" + name), then relative): `..`
 * cannot climb above the added root, and a leading `/` or `./` does not make another name.
 */
export function cleanFilename(raw: string): string {
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    name = raw;
  }
  if (name === "") return "";
  return posix.normalize(`/${name}`).replace(/\/+$/, "").replace(/^\/+/, "");
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** Splits a complete multipart body into its parts. */
export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let position = body.indexOf(delimiter);
  if (position < 0) throw new IpfsRequestError("multipart body has no boundary");
  for (;;) {
    position += delimiter.length;
    // `--` after a delimiter ends the body.
    if (body[position] === 0x2d && body[position + 1] === 0x2d) break;
    if (body[position] === 0x0d && body[position + 1] === 0x0a) position += 2;
    const headerEnd = body.indexOf("\r\n\r\n", position);
    if (headerEnd < 0) throw new IpfsRequestError("malformed multipart part: headers not terminated");
    const headers = parseHeaders(body.subarray(position, headerEnd).toString("utf8"));
    const contentStart = headerEnd + 4;
    const next = body.indexOf(Buffer.concat([Buffer.from("\r\n"), delimiter]), contentStart);
    if (next < 0) throw new IpfsRequestError("malformed multipart body: closing boundary missing");
    const disposition = headers.get("content-disposition") ?? "";
    const contentType = headers.get("content-type") ?? "application/octet-stream";
    const field = (headerParam(disposition, "name") ?? "").split("?")[0] ?? "";
    parts.push({
      field,
      filename: cleanFilename(headerParam(disposition, "filename") ?? ""),
      contentType,
      isDirectory: contentType.toLowerCase().startsWith("application/x-directory"),
      content: new Uint8Array(body.buffer, body.byteOffset + contentStart, next - contentStart),
    });
    position = next + 2;
    if (parts.length > MAX_PARTS) throw new IpfsRequestError(`too many parts in the multipart body: more than ${MAX_PARTS}`);
  }
  return parts;
}
