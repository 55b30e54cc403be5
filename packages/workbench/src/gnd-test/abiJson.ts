// JSON values of a test file as ABI values, with gnd's rules (gnd/src/commands/test/trigger.rs
// `json_to_sol_value`): numbers as decimal or 0x strings (or JSON numbers that fit 64 bits), negative
// ints as "-…", bytesN shorter than N padded on the right, tuples as positional arrays. Then events are
// encoded into topics and data, and calls into calldata and return data, by ethers.
import { AbiCoder, EventFragment, FunctionFragment, Interface, getAddress, type ParamType } from "ethers";
import { GndTestError, type Json } from "./testFile.js";

export function jsonToAbiValue(type: ParamType, value: Json, where: string): unknown {
  const fail = (what: string): never => {
    throw new GndTestError(`${where}: ${what}`);
  };
  if (type.baseType === "array") {
    if (!Array.isArray(value)) return fail(`expected a JSON array for ${type.format()}`);
    if (type.arrayLength !== null && type.arrayLength >= 0 && value.length !== type.arrayLength) fail(`Fixed array expects ${type.arrayLength} elements, got ${value.length}`);
    return value.map((item, i) => jsonToAbiValue(type.arrayChildren!, item, `${where}[${i}]`));
  }
  if (type.baseType === "tuple") {
    const components = type.components ?? [];
    if (!Array.isArray(value)) return fail(`expected a JSON array for tuple type (positional)`);
    if (value.length !== components.length) fail(`Tuple expects ${components.length} elements, got ${value.length}`);
    return components.map((c, i) => jsonToAbiValue(c, value[i]!, `${where}[${i}]`));
  }
  const t = type.type;
  if (t === "address") {
    if (typeof value !== "string") return fail("Expected string for address");
    try {
      return getAddress(value.toLowerCase());
    } catch {
      return fail(`Invalid address ${JSON.stringify(value)}`);
    }
  }
  if (t.startsWith("uint") || t.startsWith("int")) return integer(value, t.startsWith("int"), fail);
  if (t === "bool") return typeof value === "boolean" ? value : fail("Expected bool");
  if (t === "string") return typeof value === "string" ? value : fail("Expected string");
  if (t === "bytes") return hexBytes(value, fail);
  const fixed = /^bytes(\d+)$/.exec(t);
  if (fixed) {
    const len = Number(fixed[1]);
    const bytes = hexBytes(value, fail);
    const have = (bytes.length - 2) / 2;
    if (have > len) fail(`bytes${len}: got ${have} bytes, expected at most ${len}`);
    return bytes.padEnd(2 + len * 2, "0");
  }
  return fail(`Unsupported type: ${t}`);
}

function integer(value: Json, signed: boolean, fail: (what: string) => never): bigint {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || (!signed && value < 0)) fail(`${signed ? "int" : "uint"} value ${value} does not fit in 64 bits, use a string instead`);
    return BigInt(value);
  }
  if (typeof value !== "string") return fail(`Expected string or number for ${signed ? "int" : "uint"}`);
  const negative = signed && value.startsWith("-");
  const digits = negative ? value.slice(1) : value;
  if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(digits)) return fail(`Invalid ${signed ? "int" : "uint"} ${JSON.stringify(value)}`);
  const magnitude = BigInt(digits);
  return negative ? -magnitude : magnitude;
}

function hexBytes(value: Json, fail: (what: string) => never): string {
  if (typeof value !== "string") return fail("Expected string for bytes");
  const digits = value.startsWith("0x") ? value.slice(2) : value;
  if (!/^([0-9a-fA-F]{2})*$/.test(digits)) return fail(`Invalid hex ${JSON.stringify(value)}`);
  return `0x${digits.toLowerCase()}`;
}

/** `Transfer(address indexed from, …)` and its params -> the log's topics and data. */
export function encodeEvent(signature: string, params: Record<string, Json>, where: string): { topics: string[]; data: string } {
  let fragment: EventFragment;
  try {
    fragment = EventFragment.from(signature.trim().startsWith("event ") ? signature : `event ${signature}`);
  } catch (error) {
    throw new GndTestError(`${where}: Failed to parse event signature '${signature}': ${(error as Error).message}`);
  }
  const values = fragment.inputs.map((input) => {
    if (!Object.hasOwn(params, input.name)) throw new GndTestError(`${where}: Missing parameter: ${input.name}`);
    return jsonToAbiValue(input, params[input.name]!, `${where}.params.${input.name}`);
  });
  const encoded = new Interface([fragment]).encodeEventLog(fragment, values);
  return { topics: encoded.topics.map((t) => t.toLowerCase()), data: encoded.data.toLowerCase() };
}

/** `name(inputs)(outputs)`, graph-cli's `name(inputs):(outputs)` or `… returns (…)`, as ethers reads it. */
export function functionFragment(signature: string, where: string): FunctionFragment {
  const sig = signature.trim();
  const colon = sig.indexOf("):(");
  const open = sig.indexOf("(");
  // The first balanced parenthesis group is the inputs; a second group right after it is the outputs.
  let depth = 0;
  let end = -1;
  for (let i = open; i >= 0 && i < sig.length; i++) {
    if (sig[i] === "(") depth++;
    else if (sig[i] === ")" && --depth === 0) {
      end = i;
      break;
    }
  }
  let text = sig;
  if (colon >= 0) text = `${sig.slice(0, colon + 1)} returns ${sig.slice(colon + 2)}`;
  else if (end > 0 && sig[end + 1] === "(") text = `${sig.slice(0, end + 1)} returns ${sig.slice(end + 1)}`;
  try {
    return FunctionFragment.from(`function ${text.replace(/^function\s+/, "")}`);
  } catch (error) {
    throw new GndTestError(`${where}: Failed to parse function signature '${signature}': ${(error as Error).message}`);
  }
}

export function encodeCall(fragment: FunctionFragment, params: Json[], where: string): string {
  if (params.length !== fragment.inputs.length) throw new GndTestError(`${where}: Parameter count mismatch for '${fragment.format()}': expected ${fragment.inputs.length} parameters, got ${params.length}`);
  const values = fragment.inputs.map((input, i) => jsonToAbiValue(input, params[i]!, `${where}.params[${i}]`));
  return new Interface([fragment]).encodeFunctionData(fragment, values).toLowerCase();
}

export function encodeReturns(fragment: FunctionFragment, returns: Json[], where: string): string {
  if (returns.length !== fragment.outputs.length) throw new GndTestError(`${where}: Return value count mismatch for '${fragment.format()}': expected ${fragment.outputs.length} return values, got ${returns.length}`);
  const values = fragment.outputs.map((output, i) => jsonToAbiValue(output, returns[i]!, `${where}.returns[${i}]`));
  return AbiCoder.defaultAbiCoder().encode(fragment.outputs, values).toLowerCase();
}
