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
}

/** Sends `body` as a POST; rejects on a network error, or with `signal`'s reason once it aborts. */
export type PostText = (url: string, body: string, headers: Readonly<Record<string, string>>, signal: AbortSignal) => Promise<TextAnswer>;

export function postWithFetch(doFetch: typeof fetch): PostText {
  return async (url, body, headers, signal) => {
    const res = await doFetch(url, { method: "POST", headers, body, signal });
    return { status: res.status, text: await res.text() };
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

/** The response's body as UTF-8 text, read through a kept buffer. */
function readAnswer(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(res.headers["content-length"]);
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
      if (length + chunk.length > buffer.length) {
        const grown = takeReceiveBuffer(Math.max(2 * buffer.length, length + chunk.length));
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
export const postOverHttp: PostText = (url, body, headers, signal) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    if (target.protocol !== "http:" && target.protocol !== "https:") throw new TypeError(`only http: and https: endpoints are supported, not ${target.protocol}`);
    const secure = target.protocol === "https:";
    const payload = Buffer.from(body, "utf8");
    const req = (secure ? httpsRequest : httpRequest)(
      target,
      { method: "POST", agent: secure ? httpsAgent : httpAgent, headers: { ...headers, "content-length": String(payload.length) }, signal },
      (res) => void readAnswer(res).then((text) => resolve({ status: res.statusCode ?? 0, text }), reject),
    );
    req.on("error", reject);
    req.end(payload);
  });
