// The fork against graph-node's own expectations (store/postgres/src/fork.rs's unit tests: the query
// text and the entity it extracts) and against real HTTP answers on 127.0.0.1: fetched once, and clear
// errors for a base that is down, refuses the query or answers something else.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../lib/freePort.js";
import { parseSubgraphSchema } from "../../subgraph-schema/index.js";
import { createSubgraphFork, forkQuery, parseForkBase, ForkError } from "./index.js";

// graph-node's test schema (fork.rs).
const GRAVATAR = `type Gravatar @entity {
  id: ID!
  owner: Bytes!
  displayName: String!
  imageUrl: String!
}`;

const SCHEMA = `${GRAVATAR}
type Account @entity {
  id: Bytes!
  count: Int!
  total: BigInt!
  ratio: BigDecimal
  big: Int8!
  at: Timestamp
  active: Boolean!
  tags: [String!]!
  best: Gravatar
  friends: [Account!]!
  kind: Kind!
  followers: [Account!]! @derivedFrom(field: "friends")
}
enum Kind { Plain, Fancy }`;

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
});

/** A base on 127.0.0.1 that answers each POST with `answer(body)`; counts the requests. */
async function base(answer: (body: { query: string; variables: { id: string } }) => string): Promise<{ url: string; requests: { url: string; body: { query: string; variables: { id: string } } }[] }> {
  const requests: { url: string; body: { query: string; variables: { id: string } } }[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => {
      const body = JSON.parse(text) as { query: string; variables: { id: string } };
      requests.push({ url: req.url ?? "", body });
      res.writeHead(200, { "content-type": "application/json" }).end(answer(body));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/subgraphs/id`, requests };
}

describe("debug fork", () => {
  it("asks as graph-node asks (fork.rs test_query_string)", () => {
    const type = parseSubgraphSchema(GRAVATAR).entities.get("Gravatar")!;
    expect(forkQuery(type, "0x00")).toEqual({
      query: `query Query ($id: String) {
    gravatar(id: $id, subgraphError: allow) {
        id owner displayName imageUrl
    }
}`,
      variables: { id: "0x00" },
    });
  });

  it("extracts graph-node's test entity (fork.rs test_extract_entity), at <base>/<id>, once", async () => {
    const b = await base(() => JSON.stringify({ data: { gravatar: { id: "0x00", owner: "0x01", displayName: "test", imageUrl: "http://example.com/image.png" } } }));
    const fork = createSubgraphFork({ base: parseForkBase(b.url), forkId: "QmBase", schemaSdl: GRAVATAR });
    const entity = await fork.fetch("Gravatar", "0x00");
    expect(entity).toEqual(
      new Map<string, unknown>([
        ["id", { kind: "String", value: "0x00" }],
        ["owner", { kind: "Bytes", value: new Uint8Array([1]) }],
        ["displayName", { kind: "String", value: "test" }],
        ["imageUrl", { kind: "String", value: "http://example.com/image.png" }],
      ]),
    );
    expect(b.requests.map((r) => r.url)).toEqual(["/subgraphs/id/QmBase"]);
    // Fetched once: after that the deployment's own state stands (a removal stays removed).
    expect(await fork.fetch("Gravatar", "0x00")).toBeNull();
    expect(b.requests).toHaveLength(1);
  });

  it("decodes every kind by the deployment's schema; references by the target's id kind; derived fields are not asked for", async () => {
    const b = await base(() =>
      JSON.stringify({
        data: {
          account: {
            id: "0xab",
            count: -7,
            total: "123456789012345678901234567890",
            ratio: "1.50",
            big: "9007199254740993",
            at: "1700000000000000",
            active: true,
            tags: ["a", "b"],
            best: { id: "g1" },
            friends: [{ id: "0x01" }, { id: "0x02" }],
            kind: "Fancy",
          },
        },
      }),
    );
    const fork = createSubgraphFork({ base: parseForkBase(b.url), forkId: "QmBase", schemaSdl: SCHEMA });
    const e = await fork.fetch("Account", "0xab");
    expect(b.requests[0]!.body.query).toContain("account(id: $id, subgraphError: allow) {\n        id count total ratio big at active tags best { id } friends { id } kind\n");
    expect(Object.fromEntries(e!)).toEqual({
      id: { kind: "Bytes", value: new Uint8Array([0xab]) },
      count: { kind: "Int", value: -7 },
      total: { kind: "BigInt", value: 123456789012345678901234567890n },
      ratio: { kind: "BigDecimal", value: "1.5" },
      big: { kind: "Int8", value: 9007199254740993n },
      at: { kind: "Timestamp", value: 1700000000000000n },
      active: { kind: "Bool", value: true },
      tags: { kind: "Array", value: [{ kind: "String", value: "a" }, { kind: "String", value: "b" }] },
      best: { kind: "String", value: "g1" },
      friends: { kind: "Array", value: [{ kind: "Bytes", value: new Uint8Array([1]) }, { kind: "Bytes", value: new Uint8Array([2]) }] },
      kind: { kind: "String", value: "Fancy" },
    });
  });

  it("answers null for an entity the base lacks, and keys 'fetched' by type and id", async () => {
    const b = await base((body) => (body.query.includes("gravatar(") ? JSON.stringify({ data: { gravatar: null } }) : JSON.stringify({ data: { account: null } })));
    const fork = createSubgraphFork({ base: parseForkBase(b.url), forkId: "QmBase", schemaSdl: SCHEMA });
    expect(await fork.fetch("Gravatar", "0x01")).toBeNull();
    expect(await fork.fetch("Account", "0x01")).toBeNull();
    expect(b.requests).toHaveLength(2);
  });

  it("fails clearly, non-deterministically, for a base that is down, and asks again on the retry", async () => {
    const port = await freePort();
    const fork = createSubgraphFork({ base: parseForkBase(`http://127.0.0.1:${port}/subgraphs/id/`), forkId: "QmBase", schemaSdl: GRAVATAR });
    const error = await fork.fetch("Gravatar", "0x00").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForkError);
    expect((error as ForkError).deterministic).toBe(false);
    expect((error as Error).message).toMatch(new RegExp(`^subgraph forking failed: sending a GraphQL query to \`http://127.0.0.1:${port}/subgraphs/id/QmBase\` failed with: "fetch failed: .*ECONNREFUSED`));
    await expect(fork.fetch("Gravatar", "0x00")).rejects.toThrow(/sending a GraphQL query/);
  });

  it("fails with the base's answer when it refuses the query (no data), in graph-node's words", async () => {
    const refusal = JSON.stringify({ errors: [{ message: "Type `Query` has no field `gravatar`" }] });
    const b = await base(() => refusal);
    const fork = createSubgraphFork({ base: parseForkBase(b.url), forkId: "QmBase", schemaSdl: GRAVATAR });
    await expect(fork.fetch("Gravatar", "0x00")).rejects.toThrow(`subgraph forking failed: the GraphQL query Query { query: "query Query ($id: String) {\\n    gravatar(id: $id, subgraphError: allow) {\\n        id owner displayName imageUrl\\n    }\\n}", variables: Variables { id: "0x00" } } to \`${b.url}/QmBase\` failed with "${refusal}"`);
  });

  it("fails clearly for an answer that is not JSON, misses a field, or has a value of another type", async () => {
    const answers = ["<html>bad gateway</html>", JSON.stringify({ data: { gravatar: { id: "0x00", owner: "0x01", displayName: "x" } } }), JSON.stringify({ data: { gravatar: { id: "0x00", owner: "0x1", displayName: "x", imageUrl: "y" } } })];
    let i = 0;
    const b = await base(() => answers[i++]!);
    const fork = createSubgraphFork({ base: parseForkBase(b.url), forkId: "QmBase", schemaSdl: GRAVATAR });
    await expect(fork.fetch("Gravatar", "0x00")).rejects.toThrow(/failed with "<html>bad gateway<\/html>" \(not JSON\)/);
    await expect(fork.fetch("Gravatar", "0x00")).rejects.toThrow("the answer has no field `imageUrl` (does the base serve the same `Gravatar` type?)");
    await expect(fork.fetch("Gravatar", "0x00")).rejects.toThrow("Unexpected error during entity extraction! Failed to convert JSON value `\"0x1\"` to type `Bytes!`: Odd number of digits");
  });

  it("takes graph-node's fork base forms and refuses others", () => {
    expect(parseForkBase("http://127.0.0.1:8000/subgraphs/id").href).toBe("http://127.0.0.1:8000/subgraphs/id/");
    expect(parseForkBase("https://example.com/subgraphs/id/").href).toBe("https://example.com/subgraphs/id/");
    expect(() => parseForkBase("not a url")).toThrow(/the fork base is not a URL/);
    expect(() => parseForkBase("ftp://127.0.0.1/x")).toThrow("the fork base must be an http or https URL, not ftp:");
  });
});
