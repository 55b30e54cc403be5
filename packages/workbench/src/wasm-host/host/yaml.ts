// yaml.fromBytes / try_fromBytes: YAML 1.2 (core schema) into graph-ts's YAMLValue, like serde_yaml 0.9.
import { createRequire } from "node:module";
import type * as YamlLibrary from "yaml";
import type { Node } from "yaml";
import type { HostEnv, HostFunctions } from "./env.js";
import { HostError } from "../errors.js";
import { TypeId, YamlValueKind } from "../abi/typeIds.js";
import type { AscCodec } from "../abi/codec.js";
import { writeResult } from "./json.js";

export type YamlValue =
  | { kind: "null" }
  | { kind: "bool"; value: boolean }
  /** serde_yaml's Number Display text. */
  | { kind: "number"; value: string }
  | { kind: "string"; value: string }
  | { kind: "array"; value: YamlValue[] }
  | { kind: "object"; value: [YamlValue, YamlValue][] }
  | { kind: "tagged"; tag: string; value: YamlValue };

const MAX_YAML_SIZE = 10_000_000;

// The parser (some 70 modules) loads at the first yaml.* call: few mappings parse YAML, and every
// handlers' thread would load it for nothing at start-up.
let yamlLibrary: typeof YamlLibrary | null = null;
const yaml = (): typeof YamlLibrary => (yamlLibrary ??= createRequire(import.meta.url)("yaml") as typeof YamlLibrary);
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** serde_yaml's float Display (ryu): "1.0", ".inf", "-.inf", ".nan", exponents without "+". */
function floatText(f: number): string {
  if (Number.isNaN(f)) return ".nan";
  if (!Number.isFinite(f)) return f > 0 ? ".inf" : "-.inf";
  const s = String(f).replace("e+", "e");
  return /^-?\d+$/.test(s) ? s + ".0" : s;
}

function convert(node: unknown): YamlValue {
  if (node === null || node === undefined) return { kind: "null" };
  const { isAlias, isMap, isScalar, isSeq } = yaml();
  if (isAlias(node)) throw new HostError("YAML", "YAML aliases are not supported here");
  const n = node as Node;
  let inner: YamlValue;
  if (isMap(n)) {
    inner = { kind: "object", value: n.items.map((pair) => [convert(pair.key), convert(pair.value)] as [YamlValue, YamlValue]) };
  } else if (isSeq(n)) {
    inner = { kind: "array", value: n.items.map(convert) };
  } else if (isScalar(n)) {
    const v = n.value;
    if (v === null || v === undefined) inner = { kind: "null" };
    else if (typeof v === "boolean") inner = { kind: "bool", value: v };
    else if (typeof v === "bigint") inner = { kind: "number", value: v.toString() };
    else if (typeof v === "number") inner = { kind: "number", value: Number.isInteger(v) && !String(v).includes("e") && !/[.eEn]/i.test(String(n.source ?? "")) ? String(v) : floatText(v) };
    else inner = { kind: "string", value: String(v) };
  } else {
    inner = { kind: "null" };
  }
  const tag = n.tag;
  if (tag !== undefined && !tag.startsWith("tag:yaml.org,2002:")) return { kind: "tagged", tag, value: inner };
  return inner;
}

export function parseYamlBytes(bytes: Uint8Array): YamlValue {
  if (bytes.length > MAX_YAML_SIZE) throw new HostError("YAML", `YAML size exceeds max size of ${MAX_YAML_SIZE} bytes`);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (cause) {
    throw new HostError("YAML", "failed to parse YAML from bytes: invalid UTF-8", { cause });
  }
  const doc = yaml().parseDocument(text, { version: "1.2", intAsBigInt: true, uniqueKeys: true, keepSourceTokens: false });
  if (doc.errors.length > 0) throw new HostError("YAML", `failed to parse YAML from bytes: ${doc.errors[0]!.message}`);
  return convert(doc.contents);
}

export function writeYamlValue(codec: AscCodec, value: YamlValue): number {
  const enumObject = (kind: number, payload: number) => {
    const ptr = codec.allocObject(TypeId.YamlValue, 16);
    codec.writeU32(ptr, kind);
    codec.writeU32(ptr + 8, payload);
    return ptr;
  };
  const write = (v: YamlValue): number => {
    switch (v.kind) {
      case "null":
        return enumObject(YamlValueKind.Null, 0);
      case "bool":
        return enumObject(YamlValueKind.Bool, v.value ? 1 : 0);
      case "number":
        return enumObject(YamlValueKind.Number, codec.writeString(v.value));
      case "string":
        return enumObject(YamlValueKind.String, codec.writeString(v.value));
      case "array":
        return enumObject(YamlValueKind.Array, codec.writeArray(TypeId.YamlArrayValue, v.value, write));
      case "object": {
        const entries = codec.writeArray(TypeId.YamlArrayTypedMapEntryValueValue, v.value, ([key, val]) => {
          const k = write(key);
          const x = write(val);
          const entry = codec.allocObject(TypeId.YamlTypedMapEntryValueValue, 8);
          codec.writeU32(entry, k);
          codec.writeU32(entry + 4, x);
          return entry;
        });
        const map = codec.allocObject(TypeId.YamlTypedMapValueValue, 4);
        codec.writeU32(map, entries);
        return enumObject(YamlValueKind.Object, map);
      }
      case "tagged": {
        const tag = codec.writeString(v.tag);
        const inner = write(v.value);
        const tagged = codec.allocObject(TypeId.YamlTaggedValue, 8);
        codec.writeU32(tagged, tag);
        codec.writeU32(tagged + 4, inner);
        return enumObject(YamlValueKind.Tagged, tagged);
      }
    }
  };
  return write(value);
}

export function yamlImports(env: HostEnv): HostFunctions {
  const { codec } = env;
  return {
    "yaml.fromBytes": (ptr: number) => writeYamlValue(codec, parseYamlBytes(codec.readBytes(ptr))),
    "yaml.try_fromBytes": (ptr: number) => {
      let value: YamlValue | null = null;
      try {
        value = parseYamlBytes(codec.readBytes(ptr));
      } catch (error) {
        env.options.log?.("warning", `Failed to parse YAML from byte array: ${(error as Error).message}`);
      }
      return writeResult(env, value === null ? null : writeYamlValue(codec, value), TypeId.YamlWrappedValue, TypeId.YamlResultValueBool);
    },
  };
}
