// A strict JSON parser shaped like graph-node's serde_json (arbitrary_precision, no preserve_order):
// numbers keep their source text, object keys come out sorted and a repeated key keeps its last value.
import { BaseError } from "../../lib/errors.js";
import type { JsonValue } from "../abi/json.js";

export class JsonSyntaxError extends BaseError {
  override readonly name = "JsonSyntaxError";
}

// ignoreBOM keeps a byte order mark in the text, where serde_json rejects it.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Parses UTF-8 JSON bytes; throws JsonSyntaxError. */
export function parseJsonBytes(bytes: Uint8Array): JsonValue {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (cause) {
    throw new JsonSyntaxError("invalid UTF-8 in JSON input", { cause });
  }
  return parseJsonText(text);
}

export function parseJsonText(text: string): JsonValue {
  let i = 0;
  const fail = (what: string): never => {
    const before = text.slice(0, i);
    const line = before.split("\n").length;
    const column = i - before.lastIndexOf("\n");
    throw new JsonSyntaxError(`${what} at line ${line} column ${column}`);
  };
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const value = (depth: number): JsonValue => {
    if (depth > 128) fail("recursion limit exceeded");
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const entries = new Map<string, JsonValue>();
      ws();
      if (text[i] === "}") {
        i++;
        return { kind: "object", value: [] };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("key must be a string");
        const key = string();
        ws();
        if (text[i] !== ":") fail("expected `:`");
        i++;
        entries.set(key, value(depth + 1));
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          break;
        }
        fail("expected `,` or `}`");
      }
      const sorted = [...entries.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return { kind: "object", value: sorted };
    }
    if (c === "[") {
      i++;
      const items: JsonValue[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return { kind: "array", value: items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          break;
        }
        fail("expected `,` or `]`");
      }
      return { kind: "array", value: items };
    }
    if (c === '"') return { kind: "string", value: string() };
    if (text.startsWith("true", i)) {
      i += 4;
      return { kind: "bool", value: true };
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return { kind: "bool", value: false };
    }
    if (text.startsWith("null", i)) {
      i += 4;
      return { kind: "null" };
    }
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 4096));
    if (m === null || m[0] === "" || m[0] === "-") return fail("expected value");
    i += m[0].length;
    return { kind: "number", value: m[0] };
  };
  const string = (): string => {
    i++; // opening quote
    let out = "";
    for (;;) {
      if (i >= text.length) fail("EOF while parsing a string");
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return out;
      }
      if (c < 0x20) fail("control character (\\u0000-\\u001F) found while parsing a string");
      if (c !== 92) {
        out += text[i];
        i++;
        continue;
      }
      const e = text[i + 1];
      i += 2;
      switch (e) {
        case '"':
          out += '"';
          break;
        case "\\":
          out += "\\";
          break;
        case "/":
          out += "/";
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "u": {
          const hex = text.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("invalid escape");
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
          break;
        }
        default:
          fail("invalid escape");
      }
    }
  };
  const result = value(0);
  ws();
  if (i < text.length) fail("trailing characters");
  return result;
}
