// The compose stack cannot run here (no Docker engine); this checks the file is wired the way our
// scripts expect: the services, loopback ports equal to the local node's, and graph-node's settings.
import { describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { localEndpoints } from "subgraph-workbench/deploy";

interface Service {
  image?: string;
  command?: string[] | string;
  ports?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(await readFile(new URL("../docker-compose.yml", import.meta.url), "utf8")) as { services: Record<string, Service> };
const services = compose.services;
const manifest = parse(await readFile(new URL("../subgraph.yaml", import.meta.url), "utf8")) as { dataSources: { network: string }[] };

function hostPorts(service: Service | undefined): number[] {
  return (service?.ports ?? []).map((mapping) => {
    const [host, hostPort] = mapping.split(":");
    expect(host, `port ${mapping} must be published on loopback only`).toBe("127.0.0.1");
    return Number(hostPort);
  });
}

describe("docker-compose.yml", () => {
  it("has the real graph-node, IPFS, Postgres and a Hardhat node", () => {
    expect(Object.keys(services).sort()).toEqual(["graph-node", "hardhat", "ipfs", "postgres"]);
    expect(services["graph-node"]?.image).toMatch(/^graphprotocol\/graph-node:/);
    expect(services.ipfs?.image).toMatch(/^ipfs\/kubo:/);
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(String(services.hardhat?.command)).toMatch(/hardhat node/);
  });

  it("puts the RPC adapter between graph-node and Hardhat's node, so eth_call works", () => {
    const command = String(services.hardhat?.command);
    const node = /hardhat node --hostname 127\.0\.0\.1 --port (\d+)/.exec(command);
    const adapter = /scripts\/rpcAdapter\.ts --target http:\/\/127\.0\.0\.1:(\d+) --host 0\.0\.0\.0 --port (\d+)/.exec(command);
    expect(node?.[1]).toBeDefined();
    expect(adapter?.[1]).toBe(node?.[1]);
    // graph-node (and the host's scripts) reach the chain through the adapter's port.
    expect(adapter?.[2]).toBe("8545");
  });

  it("publishes the ports our scripts default to", () => {
    const port = (url: string) => Number(new URL(url).port);
    expect(hostPorts(services["graph-node"])).toEqual(expect.arrayContaining([port(localEndpoints.query), port(localEndpoints.deploy), port(localEndpoints.status)]));
    expect(hostPorts(services.ipfs)).toContain(port(localEndpoints.ipfs));
    expect(hostPorts(services.hardhat)).toContain(8545);
  });

  it("points graph-node's ethereum setting at the Hardhat service, under the manifest's network name", () => {
    const env = services["graph-node"]?.environment ?? {};
    const [network, ...url] = (env.ethereum ?? "").split(":");
    expect(network).toBe(manifest.dataSources[0]?.network);
    expect(new URL(url.join(":")).host).toBe("hardhat:8545");
    expect(env.ipfs).toBe("ipfs:5001");
    expect(env.postgres_host).toBe("postgres");
  });

  it("gives graph-node a Postgres with C collation and matching credentials", () => {
    const pg = services.postgres?.environment ?? {};
    const gn = services["graph-node"]?.environment ?? {};
    expect(pg.POSTGRES_INITDB_ARGS).toMatch(/--locale=C\b/);
    expect(pg.POSTGRES_INITDB_ARGS).toMatch(/UTF8/);
    expect([gn.postgres_user, gn.postgres_pass, gn.postgres_db]).toEqual([pg.POSTGRES_USER, pg.POSTGRES_PASSWORD, pg.POSTGRES_DB]);
  });

  it("starts graph-node only after its dependencies", () => {
    expect(Object.keys(services["graph-node"]?.depends_on ?? {}).sort()).toEqual(["hardhat", "ipfs", "postgres"]);
  });
});
