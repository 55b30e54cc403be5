// How the JSON-RPC client sends a body and reads the answer as text. By default over node:http(s) with
// kept-alive sockets: an answer's chunks are copied into a kept receive buffer and decoded from it once.
// fetch costs more on large answers (an eth_getLogs range is megabytes): its web streams pass every
// chunk through promises, and it concatenates the chunks into a new buffer before decoding it. A
// caller-given fetch (tests, proxies) is still used as it is.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { giveBackReceiveBuffer, takeReceiveBuffer } from "./receiveBuffers.js";

export interface TextAnswer {
  status: number;
  text: string;
  /** The answer's Retry-After header, as sent (seconds or an HTTP date), when it has one. */
  retryAfter?: string;
}

/**
 * Sends `body` as a POST; rejects on a network error, with `signal`'s reason once it aborts, and with an
 * AnswerTooLarge once the answer passes `limitBytes` (the rest of it is not read).
 */
export type PostText = (url: string, body: string, headers: Readonly<Record<string, string>>, signal: AbortSignal, limitBytes: number) => Promise<TextAnswer>;

/** The answer passed the caller's limit. */
export class AnswerTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`the answer is larger than ${limitBytes} bytes`);
  }
}

export function postWithFetch(doFetch: typeof fetch): PostText {
  return async (url, body, headers, signal, limitBytes) => {
    const res = await doFetch(url, { method: "POST", headers, body, signal });
    if (Number(res.headers.get("content-length")) > limitBytes) {
      await res.body?.cancel();
      throw new AnswerTooLarge(limitBytes);
    }
    const chunks: Uint8Array[] = [];
    let length = 0;
    const reader = res.body?.getReader();
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
      length += read.value.length;
      if (length > limitBytes) {
        await reader?.cancel();
        throw new AnswerTooLarge(limitBytes);
      }
      chunks.push(read.value);
    }
    const retryAfter = res.headers.get("retry-after");
    return { status: res.status, text: Buffer.concat(chunks, length).toString("utf8"), ...(retryAfter ? { retryAfter } : {}) };
  };
}

// Idle sockets do not keep the process alive (the agent unrefs them).
const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

class AnswerCutShortError extends Error {
  constructor() {
    super("the connection closed before the answer's end");
  }
}

/** A declared length is believed up to this; past it the buffer grows only as the bytes arrive. */
const TRUSTED_LENGTH = 16 * 1024 * 1024;

/** The response's body as UTF-8 text, read through a kept buffer; at most `limitBytes` of it. */
function readAnswer(res: IncomingMessage, limitBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(res.headers["content-length"]);
    if (declared > limitBytes) {
      res.destroy();
      reject(new AnswerTooLarge(limitBytes));
      return;
    }
    let buffer = takeReceiveBuffer(Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, TRUSTED_LENGTH) : 0);
    let length = 0;
    let settled = false;
    const settle = (err: Error | null): void => {
      if (settled) return;
      settled = true;
      // Decoded before the buffer goes back: the text is a copy.
      const text = err ? "" : buffer.toString("utf8", 0, length);
      giveBackReceiveBuffer(buffer);
      if (err) reject(err);
      else resolve(text);
    };
    res.on("data", (chunk: Buffer) => {
      if (settled) return;
      if (length + chunk.length > limitBytes) {
        // Settled first: the close that destroy() brings must not turn this into a cut-off answer.
        settle(new AnswerTooLarge(limitBytes));
        res.destroy();
        return;
      }
      if (length + chunk.length > buffer.length) {
        const grown = takeReceiveBuffer(Math.min(Math.max(2 * buffer.length, length + chunk.length), limitBytes));
        buffer.copy(grown, 0, 0, length);
        giveBackReceiveBuffer(buffer);
        buffer = grown;
      }
      chunk.copy(buffer, length);
      length += chunk.length;
    });
    res.on("end", () => settle(null));
    res.on("error", (err) => settle(err));
    // A socket that closes mid-answer may end the stream without an error.
    res.on("close", () => settle(res.complete ? null : new AnswerCutShortError()));
  });
}

/** The default transport: node:http or node:https, by the URL's scheme. */
export const postOverHttp: PostText = (url, body, headers, signal, limitBytes) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    if (target.protocol !== "http:" && target.protocol !== "https:") throw new TypeError(`only http: and https: endpoints are supported, not ${target.protocol}`);
    const secure = target.protocol === "https:";
    const payload = Buffer.from(body, "utf8");
    const req = (secure ? httpsRequest : httpRequest)(
      target,
      { method: "POST", agent: secure ? httpsAgent : httpAgent, headers: { ...headers, "content-length": String(payload.length) }, signal },
      (res) => {
        const retryAfter = res.headers["retry-after"];
        void readAnswer(res, limitBytes).then((text) => resolve({ status: res.statusCode ?? 0, text, ...(retryAfter ? { retryAfter } : {}) }), reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
