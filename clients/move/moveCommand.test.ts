// The `npm run move` commands: argument parsing, results against the fixture node, and the thin script's exit codes.
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { normalizeAddress } from "./address.js";
import { MoveApiError } from "./errors.js";
import { parseMoveArgs, runMoveCommand, toJson, UsageError } from "./moveCommand.js";
import { createFixtureNode, type FixtureNode } from "./_test/fixtureNode.js";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const ALICE = "0xa11ce";

let node: FixtureNode;
beforeEach(async () => {
  node = await createFixtureNode({ moduleAddress: ALICE, basePath: "/SECRETKEY0123456789abcdef" });
});
afterEach(async () => {
  await node.close();
});

describe("parseMoveArgs", () => {
  it("reads the commands, options and env fallbacks", () => {
    expect(parseMoveArgs(["tx", "0xabc"], { MOVE_NODE_URL: "http://127.0.0.1:1" })).toEqual({
      name: "tx",
      hash: "0xabc",
      options: { nodeUrl: "http://127.0.0.1:1", moduleAddress: undefined, timeoutMs: undefined },
    });
    expect(
      parseMoveArgs(["message", "0x1", "--history", "--node", "http://127.0.0.1:2", "--module", "0xcafe", "--page-size", "5"], {
        MOVE_NODE_URL: "http://127.0.0.1:1",
        MOVE_TIMEOUT_MS: "900",
      }),
    ).toEqual({
      name: "message",
      address: "0x1",
      history: true,
      pageSize: 5,
      options: { nodeUrl: "http://127.0.0.1:2", moduleAddress: "0xcafe", timeoutMs: 900 },
    });
  });

  it.each([[[]], [["tx"]], [["message"]], [["nope", "x"]], [["tx", "0x1", "extra"]], [["tx", "0x1", "--bogus", "1"]], [["message", "0x1", "--page-size", "0"]], [["tx", "0x1", "--node"]]])(
    "rejects %j with a usage error",
    (argv) => {
      expect(() => parseMoveArgs(argv)).toThrow(UsageError);
    },
  );
});

describe("runMoveCommand", () => {
  it("tx prints the typed transaction with its message changes", async () => {
    node.chain.submitSetMessage(ALICE, "a");
    const hash = node.chain.submitSetMessage(ALICE, "b");
    const out = JSON.parse(toJson(await runMoveCommand(parseMoveArgs(["tx", hash, "--node", node.url]))));
    expect(out).toMatchObject({
      type: "user_transaction",
      hash,
      sender: normalizeAddress(ALICE),
      sequence_number: "1",
      version: "1001",
      success: true,
      vm_status: "Executed successfully",
      message_changes: [{ from_message: "a", to_message: "b" }],
    });
    expect(out.events).toHaveLength(2);
  });

  it("tx prints a pending transaction", async () => {
    const hash = node.chain.submitSetMessage(ALICE, "soon", { pending: true });
    const out = JSON.parse(toJson(await runMoveCommand(parseMoveArgs(["tx", hash, "--node", node.url]))));
    expect(out).toMatchObject({ type: "pending_transaction", hash, sequence_number: "0" });
    expect(out).not.toHaveProperty("version");
  });

  it("message prints the message, the handle and, with --history, the changes", async () => {
    for (const text of ["x", "y", "z"]) node.chain.submitSetMessage(ALICE, text);
    const out = JSON.parse(toJson(await runMoveCommand(parseMoveArgs(["message", ALICE, "--history", "--page-size", "1", "--node", node.url]))));
    expect(out).toMatchObject({
      status: "set",
      message: "z",
      message_change_events: { counter: "2", guid: { creation_number: "2", account_address: normalizeAddress(ALICE) } },
      history: [
        { sequence_number: "0", from_message: "x", to_message: "y" },
        { sequence_number: "1", from_message: "y", to_message: "z" },
      ],
    });
  });

  it("message answers no_message for an empty address, and errors stay typed", async () => {
    expect(await runMoveCommand(parseMoveArgs(["message", "0xb0b", "--node", node.url]))).toMatchObject({ status: "no_message" });
    await expect(runMoveCommand(parseMoveArgs(["tx", `0x${"00".repeat(32)}`, "--node", node.url]))).rejects.toBeInstanceOf(MoveApiError);
    await expect(runMoveCommand(parseMoveArgs(["tx", `0x${"00".repeat(32)}`]))).rejects.toThrow(/MOVE_NODE_URL/);
  });
});

describe("scripts/move.ts", () => {
  const script = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, [resolve(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/move.ts", ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", ...env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it("prints JSON on success, masks the key on failure, and exits 2 on bad usage", async () => {
    node.chain.submitSetMessage(ALICE, "from the script");
    const ok = await script(["message", ALICE], { MOVE_NODE_URL: node.url });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ status: "set", message: "from the script" });

    const missing = await script(["tx", `0x${"ab".repeat(32)}`], { MOVE_NODE_URL: node.url });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("transaction_not_found");
    expect(missing.stderr).toContain("/***/v1/transactions/by_hash/");
    expect(missing.stderr).not.toContain("SECRETKEY");

    const usage = await script(["tx"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage:");
  });
});
