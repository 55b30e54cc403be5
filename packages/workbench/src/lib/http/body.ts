// Reading a request body whole, with a byte cap.
import type { IncomingMessage } from "node:http";
import { BodyTooLargeError } from "./errors.js";

export interface ReadBodyOptions {
  /** Largest body accepted, in bytes; over it, BodyTooLargeError. No cap when absent (test fixtures). */
  maxBytes?: number;
}

/**
 * The whole body as bytes. Over the cap it throws BodyTooLargeError at once, without reading the rest;
 * the request stream is then destroyed, so a server that still answers should `req.resume()`.
 */
export async function readBody(req: IncomingMessage, options: ReadBodyOptions = {}): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > maxBytes) throw new BodyTooLargeError(maxBytes);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** The whole body as UTF-8 text (same cap as readBody). */
export async function readText(req: IncomingMessage, options: ReadBodyOptions = {}): Promise<string> {
  return (await readBody(req, options)).toString("utf8");
}
