// A test file of graph-node's `gnd test` (gnd/docs/gnd-test.md): mock blocks with events and mocked
// eth_call / getBalance / hasCode answers, mock IPFS files, and GraphQL assertions. Read and checked
// here with gnd's field names and defaults; a malformed file is refused with what is wrong and where.
import { readFile } from "node:fs/promises";
import { BaseError } from "../lib/errors.js";

export class GndTestError extends BaseError {
  override name = "GndTestError";
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface TestEvent {
  address: string;
  /** `Transfer(address indexed from, address indexed to, uint256 value)`. */
  event: string;
  params: Record<string, Json>;
  txHash: string | null;
}

export interface MockEthCall {
  address: string;
  /** `balanceOf(address)(uint256)` (or graph-cli's `balanceOf(address):(uint256)`). */
  function: string;
  params: Json[];
  returns: Json[];
  reverts: boolean;
}

export interface TestBlock {
  number: number | null;
  hash: string | null;
  timestamp: number | null;
  events: TestEvent[];
  ethCalls: MockEthCall[];
  getBalanceCalls: { address: string; value: string }[];
  hasCodeCalls: { address: string; hasCode: boolean }[];
}

export interface MockFile {
  cid: string;
  content: string | null;
  /** A path relative to the test file. */
  file: string | null;
}

export interface Assertion {
  query: string;
  expected: Json;
}

export interface TestFile {
  name: string;
  files: MockFile[];
  blocks: TestBlock[];
  assertions: Assertion[];
}

type Obj = Record<string, unknown>;

export async function readTestFile(path: string): Promise<TestFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new GndTestError(`Failed to read test file ${path}: ${(error as Error).message}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new GndTestError(`Failed to parse test file ${path}: ${(error as Error).message}`, { cause: error });
  }
  return parseTestFile(json, path);
}

export function parseTestFile(json: unknown, where: string): TestFile {
  const root = object(json, where);
  return {
    name: string(root.name, `${where}: name`),
    files: list(root.files, `${where}: files`).map((f, i) => mockFile(f, `${where}: files[${i}]`)),
    blocks: list(root.blocks, `${where}: blocks`).map((b, i) => block(b, `${where}: blocks[${i}]`)),
    assertions: list(root.assertions, `${where}: assertions`).map((a, i) => {
      const o = object(a, `${where}: assertions[${i}]`);
      if (!("expected" in o)) throw new GndTestError(`${where}: assertions[${i}]: missing field \`expected\``);
      return { query: string(o.query, `${where}: assertions[${i}].query`), expected: o.expected as Json };
    }),
  };
}

function block(value: unknown, where: string): TestBlock {
  const o = object(value, where);
  return {
    number: optionalInteger(o.number, `${where}.number`),
    hash: o.hash === undefined || o.hash === null ? null : hex(o.hash, `${where}.hash`, 32),
    timestamp: optionalInteger(o.timestamp, `${where}.timestamp`),
    events: list(o.events, `${where}.events`).map((e, i) => {
      const ev = object(e, `${where}.events[${i}]`);
      return {
        address: hex(ev.address, `${where}.events[${i}].address`, 20),
        event: string(ev.event, `${where}.events[${i}].event`),
        params: ev.params === undefined ? {} : (object(ev.params, `${where}.events[${i}].params`) as Record<string, Json>),
        txHash: ev.txHash === undefined || ev.txHash === null ? null : hex(ev.txHash, `${where}.events[${i}].txHash`, 32),
      };
    }),
    ethCalls: list(o.ethCalls, `${where}.ethCalls`).map((c, i) => {
      const call = object(c, `${where}.ethCalls[${i}]`);
      return {
        address: hex(call.address, `${where}.ethCalls[${i}].address`, 20),
        function: string(call.function, `${where}.ethCalls[${i}].function`),
        params: array(call.params, `${where}.ethCalls[${i}].params`) as Json[],
        returns: array(call.returns, `${where}.ethCalls[${i}].returns`) as Json[],
        reverts: call.reverts === undefined ? false : boolean(call.reverts, `${where}.ethCalls[${i}].reverts`),
      };
    }),
    getBalanceCalls: list(o.getBalanceCalls, `${where}.getBalanceCalls`).map((c, i) => {
      const call = object(c, `${where}.getBalanceCalls[${i}]`);
      return { address: hex(call.address, `${where}.getBalanceCalls[${i}].address`, 20), value: string(call.value, `${where}.getBalanceCalls[${i}].value`) };
    }),
    hasCodeCalls: list(o.hasCodeCalls, `${where}.hasCodeCalls`).map((c, i) => {
      const call = object(c, `${where}.hasCodeCalls[${i}]`);
      return { address: hex(call.address, `${where}.hasCodeCalls[${i}].address`, 20), hasCode: boolean(call.hasCode, `${where}.hasCodeCalls[${i}].hasCode`) };
    }),
  };
}

function mockFile(value: unknown, where: string): MockFile {
  const o = object(value, where);
  const cid = string(o.cid, `${where}.cid`);
  const content = o.content === undefined || o.content === null ? null : string(o.content, `${where}.content`);
  const file = o.file === undefined || o.file === null ? null : string(o.file, `${where}.file`);
  // gnd's words for the same two mistakes.
  if (content !== null && file !== null) throw new GndTestError(`MockFile entry for CID '${cid}' must have either 'content' or 'file', not both`);
  if (content === null && file === null) throw new GndTestError(`MockFile entry for CID '${cid}' must have either 'content' or 'file'`);
  return { cid, content, file };
}

function object(value: unknown, where: string): Obj {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new GndTestError(`${where}: expected an object`);
  return value as Obj;
}

function array(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new GndTestError(`${where}: expected an array`);
  return value;
}

/** An optional array: absent is empty, as gnd's `#[serde(default)]`. */
function list(value: unknown, where: string): unknown[] {
  return value === undefined || value === null ? [] : array(value, where);
}

function string(value: unknown, where: string): string {
  if (typeof value !== "string") throw new GndTestError(`${where}: expected a string`);
  return value;
}

function boolean(value: unknown, where: string): boolean {
  if (typeof value !== "boolean") throw new GndTestError(`${where}: expected true or false`);
  return value;
}

function optionalInteger(value: unknown, where: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new GndTestError(`${where}: expected a non-negative integer`);
  return value;
}

function hex(value: unknown, where: string, bytes: number): string {
  const s = string(value, where);
  if (!new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`).test(s)) throw new GndTestError(`${where}: expected 0x and ${bytes * 2} hex digits, got ${JSON.stringify(s)}`);
  return s.toLowerCase();
}
