// A real HTTP server on 127.0.0.1 that answers the Aptos node REST paths the client uses, from a FixtureChain.
// Errors use the node's body `{message, error_code, vm_error_code}` and its status codes; faults (a status with any
// body, a dropped connection, a hang, a non-JSON 200) can be queued for the next requests.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listen } from "subgraph-workbench/lib/http";
import { isAddress, normalizeAddress, type MoveAddress, type TransactionHash } from "../address.js";
import { createFixtureChain, standardAddress, type FixtureChain, type FixtureChainOptions } from "./fixtureChain.js";

export type FixtureFault =
  | { kind: "status"; status: number; body: unknown }
  | { kind: "drop" }
  | { kind: "hang" }
  | { kind: "not_json" };

export type FixtureNodeOptions = FixtureChainOptions & {
  /** The node's `max_events_page_size`; default 100. */
  maxEventsPageSize?: number;
  /** Serve under this path prefix (e.g. `/SECRETKEY123456789`), as console-issued URLs do. */
  basePath?: string;
};

export type FixtureNode = {
  /** `http://127.0.0.1:<port><basePath>`, without `/v1`. */
  readonly url: string;
  readonly chain: FixtureChain;
  /** Paths (with query) of every request received, in order. */
  readonly requests: string[];
  injectFault(fault: FixtureFault): void;
  close(): Promise<void>;
};

type Answer = { status: number; body: unknown };

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_PAGE = 25;

export async function createFixtureNode(options: FixtureNodeOptions = {}): Promise<FixtureNode> {
  const chain = createFixtureChain(options);
  const maxPage = options.maxEventsPageSize ?? 100;
  const basePath = (options.basePath ?? "").replace(/\/$/, "");
  const faults: FixtureFault[] = [];
  const requests: string[] = [];

  const server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const fault = faults.shift();
    if (fault) return applyFault(fault, res);
    let answer: Answer;
    try {
      answer = route(req);
    } catch (error) {
      answer =
        error instanceof HttpFailure
          ? { status: error.status, body: { message: error.message, error_code: error.errorCode, vm_error_code: null } }
          : { status: 500, body: { message: String(error), error_code: "internal_error", vm_error_code: null } };
    }
    send(res, answer.status, JSON.stringify(answer.body));
  });

  function send(res: ServerResponse, status: number, text: string): void {
    res.writeHead(status, {
      "Content-Type": "application/json",
      "X-Aptos-Chain-Id": String(chain.chainId),
      "X-Aptos-Ledger-Version": chain.ledgerVersion().toString(),
      "X-Aptos-Ledger-Oldest-Version": chain.ledgerVersion().toString(),
      "X-Aptos-Ledger-TimestampUsec": chain.ledgerTimestampUs().toString(),
      "X-Aptos-Epoch": "1",
      "X-Aptos-Block-Height": (chain.ledgerVersion() / 2n).toString(),
      "X-Aptos-Oldest-Block-Height": "0",
    });
    res.end(text);
  }

  function applyFault(fault: FixtureFault, res: ServerResponse): void {
    if (fault.kind === "drop") res.socket?.destroy();
    else if (fault.kind === "hang") return;
    else if (fault.kind === "not_json") send(res, 200, "<html>gateway page</html>");
    else send(res, fault.status, typeof fault.body === "string" ? fault.body : JSON.stringify(fault.body));
  }

  function route(req: IncomingMessage): Answer {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (!url.pathname.startsWith(`${basePath}/v1`)) throw new HttpFailure(404, "web_framework_error", "not found");
    if (req.method !== "GET") throw new HttpFailure(405, "web_framework_error", "method not allowed");
    const parts = url.pathname.slice(basePath.length).split("/").slice(2).map(decodeURIComponent);
    const [first, second, third, fourth, fifth] = parts;
    const version = chain.ledgerVersion();

    if (parts.length === 0 || (parts.length === 1 && first === "")) {
      return { status: 200, body: ledgerInfo() };
    }
    if (first === "transactions" && second === "by_hash" && third !== undefined && parts.length === 3) {
      const hash = pathHash(third);
      const txn = chain.getTransaction(hash);
      if (!txn) throw new HttpFailure(404, "transaction_not_found", `Transaction not found by Transaction hash(${hash})`);
      return { status: 200, body: txn };
    }
    if (first === "accounts" && second !== undefined) {
      const address = pathAddress(second);
      if (parts.length === 2) {
        const account = chain.getAccount(address);
        if (!account) throw accountNotFound(address, version);
        return { status: 200, body: account };
      }
      if (third === "resource" && fourth !== undefined && parts.length === 4) {
        const tag = pathStructTag(fourth);
        ledgerVersionParam(url);
        const resource = chain.getResource(address, tag);
        if (!resource) throw resourceNotFound(address, tag, version);
        return { status: 200, body: resource };
      }
      if (third === "events" && fourth !== undefined && parts.length === 4) {
        if (!/^\d+$/.test(fourth)) throw parseFailure("creation_number", fourth);
        if (!chain.getAccount(address)) throw accountNotFound(address, version);
        const { start, limit } = page(url);
        return { status: 200, body: chain.getEvents(address, BigInt(fourth), start, limit) };
      }
      if (third === "events" && fourth !== undefined && fifth !== undefined && parts.length === 5) {
        const tag = pathStructTag(fourth);
        if (!/^[A-Za-z_]\w*$/.test(fifth)) throw parseFailure("field_name", fifth);
        const found = chain.findEventHandle(address, tag, fifth);
        if (found.kind === "no_resource") throw resourceNotFound(address, tag, version);
        if (found.kind === "no_field") {
          throw new HttpFailure(404, "struct_field_not_found", `Struct Field not found by Address(${address}), Struct tag(${tag}), Field name(${fifth}) and Ledger version(${version})`);
        }
        if (found.kind === "not_a_handle") throw new HttpFailure(400, "invalid_input", `field(${fifth}) type is not EventHandle struct`);
        const { start, limit } = page(url);
        return { status: 200, body: chain.getEvents(found.accountAddress, found.creationNumber, start, limit) };
      }
    }
    throw new HttpFailure(404, "web_framework_error", "not found");
  }

  function ledgerInfo() {
    return {
      chain_id: chain.chainId,
      epoch: "1",
      ledger_version: chain.ledgerVersion().toString(),
      oldest_ledger_version: chain.ledgerVersion().toString(),
      ledger_timestamp: chain.ledgerTimestampUs().toString(),
      node_role: "full_node",
      oldest_block_height: "0",
      block_height: (chain.ledgerVersion() / 2n).toString(),
      git_hash: "fixture",
    };
  }

  function page(url: URL): { start: bigint | undefined; limit: number } {
    const startText = url.searchParams.get("start");
    const limitText = url.searchParams.get("limit");
    if (startText !== null && !/^\d{1,20}$/.test(startText)) throw parseFailure("start", startText, "query");
    if (limitText !== null && !/^\d{1,5}$/.test(limitText)) throw parseFailure("limit", limitText, "query");
    const limit = limitText === null ? DEFAULT_PAGE : Number(limitText);
    if (limit > 65_535) throw parseFailure("limit", String(limitText), "query");
    if (limit === 0) throw new HttpFailure(400, "invalid_input", `Given limit value (${limit}) must not be zero`);
    if (limit > maxPage) throw new HttpFailure(400, "invalid_input", `Given limit value (${limit}) is too large, it must be < ${maxPage}`);
    return { start: startText === null ? undefined : BigInt(startText), limit };
  }

  function ledgerVersionParam(url: URL): bigint | undefined {
    const text = url.searchParams.get("ledger_version");
    if (text === null) return undefined;
    if (!/^\d{1,20}$/.test(text)) throw parseFailure("ledger_version", text, "query");
    const at = BigInt(text);
    if (at > chain.ledgerVersion()) throw new HttpFailure(404, "version_not_found", `Ledger version not found by Ledger version(${at})`);
    // Only the latest state is kept, so every older version counts as pruned.
    if (at < chain.ledgerVersion()) throw new HttpFailure(410, "version_pruned", `Ledger version(${at}) has been pruned`);
    return at;
  }

  const running = await listen(server);

  return {
    url: `${running.url}${basePath}`,
    chain,
    requests,
    injectFault: (fault) => void faults.push(fault),
    close: running.close,
  };
}

// ---- path parsing, with the node's 400 `web_framework_error` for a value that does not parse ----

function parseFailure(name: string, value: string, where: "path" | "query" = "path"): HttpFailure {
  return new HttpFailure(400, "web_framework_error", `failed to parse ${where} \`${name}\`: invalid value ${JSON.stringify(value)}`);
}

function pathAddress(text: string): MoveAddress {
  if (!isAddress(text)) throw parseFailure("address", text);
  return normalizeAddress(text);
}

function pathHash(text: string): TransactionHash {
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(text)) throw parseFailure("txn_hash", text);
  return `0x${text.replace(/^0x/, "").toLowerCase()}`;
}

/** `<address>::<module>::<name>` with the address in the node's display form. */
function pathStructTag(text: string): string {
  const parts = text.split("::");
  const [addr, module, name] = parts;
  if (parts.length !== 3 || !addr || !isAddress(addr) || !/^[A-Za-z_]\w*$/.test(module ?? "") || !/^[A-Za-z_]\w*$/.test(name ?? "")) {
    throw parseFailure("resource_type", text);
  }
  return `${standardAddress(normalizeAddress(addr))}::${module}::${name}`;
}

function accountNotFound(address: MoveAddress, version: bigint): HttpFailure {
  return new HttpFailure(404, "account_not_found", `Account not found by Address(${address}) and Ledger version(${version})`);
}

function resourceNotFound(address: MoveAddress, tag: string, version: bigint): HttpFailure {
  return new HttpFailure(404, "resource_not_found", `Resource not found by Address(${address}), Struct tag(${tag}) and Ledger version(${version})`);
}
