import { describe, expect, it } from "vitest";
import { readGraphNodeConfig } from "./graphNodeConfig.js";

// A whole file as a graph-node operator writes it (node/src/config.rs's format): store, deployment rules,
// chains with both provider forms, a web3call provider, a Firehose one, a chain of another protocol.
const FULL = `
[general]
query = "query_node_.*"

[store]
[store.primary]
connection = "postgresql://graph:\${PGPASSWORD}@127.0.0.1/graph"
pool_size = 10

[deployment]
[[deployment.rule]]
shard = "primary"
indexers = [ "index_node_0" ]

[chains]
ingestor = "index_node_0"

[chains.mainnet]
shard = "primary"
polling_interval = 1500
json_rpc_timeout = 90
provider = [
  { label = "mainnet-alchemy", url = "http://127.0.0.1:9001/v2/\${ALCHEMY_KEY}", features = ["archive", "traces"] },
  { label = "mainnet-infura", details = { type = "web3", url = "http://127.0.0.1:9002/v3/$INFURA_KEY", features = ["archive"], headers = { Authorization = "Bearer \${INFURA_KEY}" } } },
  { label = "mainnet-calls", details = { type = "web3call", url = "http://127.0.0.1:9003", features = [] } },
  { label = "mainnet-firehose", details = { type = "firehose", url = "http://127.0.0.1:9004", features = [] } },
]

[chains.near-mainnet]
shard = "primary"
protocol = "near"
provider = [ { label = "near", details = { type = "firehose", url = "http://127.0.0.1:9005", features = [] } } ]
`;

const env = { ALCHEMY_KEY: "alchemy0123456789", INFURA_KEY: "infura0123456789" };

describe("readGraphNodeConfig", () => {
  it("reads a graph-node file unchanged: both provider forms, $VAR keys, web3call; says what it leaves out", () => {
    const notes: string[] = [];
    const networks = readGraphNodeConfig(FULL, { env, notes: (l) => notes.push(l) });
    expect(networks).toEqual([
      {
        network: "mainnet",
        timeoutMs: 90_000,
        pollingIntervalMs: 1500,
        providers: [
          { label: "mainnet-alchemy", url: "http://127.0.0.1:9001/v2/alchemy0123456789", features: ["archive", "traces"] },
          { label: "mainnet-infura", url: "http://127.0.0.1:9002/v3/infura0123456789", features: ["archive"], headers: { Authorization: "Bearer infura0123456789" } },
          { label: "mainnet-calls", url: "http://127.0.0.1:9003", features: [], callOnly: true },
        ],
      },
    ]);
    expect(notes).toEqual([
      "[chains.mainnet] provider mainnet-firehose is a Firehose provider; this node reads chains over JSON-RPC only",
      "config.toml: chain near-mainnet is near; this node indexes Ethereum chains only",
    ]);
  });

  const chain = (provider: string) => `[chains]\ningestor = "x"\n[chains.mainnet]\nshard = "primary"\nprovider = [ ${provider} ]\n`;
  const cases: [string, string, RegExp][] = [
    ["an unset variable", `{ label = "a", url = "http://127.0.0.1/\${NOPE_KEY}", features = [] }`, /uses \$NOPE_KEY, which is not set/],
    ["a label graph-node refuses", `{ label = "Main_Net", url = "http://127.0.0.1", features = [] }`, /lowercase letters, digits and dashes/],
    ["a missing features field (graph-node requires it)", `{ label = "a", url = "http://127.0.0.1" }`, /missing field `features`/],
    ["an unknown feature", `{ label = "a", url = "http://127.0.0.1", features = ["turbo"] }`, /illegal feature `turbo`/],
    ["details beside the flat fields", `{ label = "a", url = "http://127.0.0.1", details = { type = "web3", url = "http://127.0.0.1", features = [] } }`, /when `details` is given/],
    ["a websocket transport", `{ label = "a", url = "ws://127.0.0.1", transport = "ws", features = [] }`, /transport `ws` is not supported/],
    ["two providers with one label", `{ label = "a", url = "http://127.0.0.1", features = [] }, { label = "a", url = "http://127.0.0.1:2", features = [] }`, /labels must be unique/],
  ];
  for (const [what, provider, message] of cases) {
    it(`refuses ${what}, saying what is wrong`, () => {
      expect(() => readGraphNodeConfig(chain(provider), { env: {} })).toThrow(message);
    });
  }

  it("refuses a file that is not TOML or has no chains, and never prints a URL it could not parse", () => {
    expect(() => readGraphNodeConfig("[chains\n", { env: {} })).toThrow(/config.toml is not valid TOML/);
    expect(() => readGraphNodeConfig("[store]\n", { env: {} })).toThrow(/no \[chains\] section/);
    const bad = () => readGraphNodeConfig(chain(`{ label = "a", url = "not a url secret0123456789", features = [] }`), { env: {} });
    expect(bad).toThrow(/the url is not a legal URL/);
    expect(bad).not.toThrow(/secret0123456789/);
  });
});
