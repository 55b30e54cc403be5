import { describe, expect, it } from "vitest";
import { parseLog, type ChainLog } from "./blocks.js";
import { readLogsAnswer } from "./logTable.js";

const word = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const rawLog = (i: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  address: `0x${"ab".repeat(19)}${(i % 3).toString(16).padStart(2, "0")}`,
  topics: [word(0xfeed), word(i), word(i * 7)].slice(0, 1 + (i % 3)),
  data: i % 4 === 0 ? "0x" : `${word(i * 1000)}${word(2 ** 40 + i).slice(2)}`,
  blockNumber: `0x${(1000 + (i >> 1)).toString(16)}`,
  blockHash: word(5000 + (i >> 1)),
  transactionHash: word(9000 + i),
  transactionIndex: `0x${(i % 5).toString(16)}`,
  logIndex: `0x${i.toString(16)}`,
  removed: false,
  ...extra,
});

const FIELDS = ["address", "topics", "data", "blockNumber", "blockHash", "transactionHash", "transactionIndex", "logIndex", "removed"] as const;
const plain = (l: ChainLog) => Object.fromEntries(FIELDS.map((f) => [f, l[f]]));

/** The logs the JSON path makes of the same answer: the reference the reader must equal. */
const byJson = (text: string) => ((JSON.parse(text) as { result: Record<string, unknown>[] }).result ?? []).map(parseLog).map(plain);

describe("readLogsAnswer", () => {
  it("gives every field the JSON path gives, in any key order, spacing and with fields it does not read", () => {
    const logs = Array.from({ length: 40 }, (_, i) => rawLog(i, i % 7 === 0 ? { removed: true } : {}));
    const answers = [
      JSON.stringify({ jsonrpc: "2.0", id: 1, result: logs }),
      JSON.stringify({ result: logs, id: "x", jsonrpc: "2.0" }, null, 2),
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        result: logs.map((l, i) => ({
          blockTimestamp: "0x65",
          ...Object.fromEntries(Object.entries(l).reverse()),
          extra: i % 2 ? { nested: [1, -2.5e3, null, true, "a\"b\\c"] } : 12,
          ...(i % 3 === 0 ? {} : { removed: undefined }),
        })),
      }),
      JSON.stringify({ jsonrpc: "2.0", id: 1, result: [] }),
    ];
    for (const text of answers) {
      const read = readLogsAnswer(text);
      expect(read).toBeDefined();
      expect(read!.map(plain)).toEqual(byJson(text));
    }
  });

  it("leaves every other shape to the JSON path", () => {
    const ok = rawLog(1);
    const answer = (result: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, result });
    const refused = {
      "an error": JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32005, message: "limit" } }),
      "a null result": answer(null),
      "uppercase hex": answer([{ ...ok, blockHash: `0x${"AB".repeat(32)}` }]),
      "a pending log's null block number": answer([{ ...ok, blockNumber: null }]),
      "a missing field": answer([{ ...ok, transactionHash: undefined }]),
      "five topics": answer([{ ...ok, topics: [word(1), word(2), word(3), word(4), word(5)] }]),
      "a short hash": answer([{ ...ok, blockHash: "0x1234" }]),
      "odd data": answer([{ ...ok, data: "0xabc" }]),
      "an escape in a field": answer([{ ...ok, data: "0x\\u0030" }]).replace("\\\\u0030", "\\u0030"),
      "a quantity past 2^52": answer([{ ...ok, logIndex: "0x10000000000000" }]),
      "an escaped key": answer([ok]).replace('"address"', '"addr\\u0065ss"'),
      "a control character": answer([{ ...ok, note: "a" }]).replace('"a"', '"a\u0001"'),
      "a bad literal": answer([ok]).replace('"removed":false', '"removed":nope'),
      "a bad number": answer([{ ...ok, n: 1 }]).replace('"n":1', '"n":01'),
      "text after the answer": `${answer([ok])} x`,
      "a cut answer": answer([ok]).slice(0, -3),
      "not an object": JSON.stringify([ok]),
    };
    for (const [what, text] of Object.entries(refused)) expect(readLogsAnswer(text), what).toBeUndefined();
  });

  it("reuses the string of a field that neighbouring logs share", () => {
    const [a, b] = readLogsAnswer(JSON.stringify({ jsonrpc: "2.0", id: 1, result: [rawLog(2), rawLog(3)] }))!;
    expect(a!.blockHash).toBe(b!.blockHash);
    expect(a!.blockHash).toBe(word(5001));
    expect(a!.transactionHash).not.toBe(b!.transactionHash);
  });
});
