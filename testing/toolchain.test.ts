import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../hardhat/projectRoot.js";

const versionOf = (pkg: string) => (JSON.parse(readFileSync(join(projectRoot, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;

describe("the graph-cli toolchain", () => {
  it("runs the project's graph-cli as `graph`, not the older release a real subgraph pins (npm may link either)", () => {
    const printed = execFileSync(join(projectRoot, "node_modules", ".bin", "graph"), ["--version"], { encoding: "utf8", env: { ...process.env, PATH: `${join(projectRoot, "node_modules", ".bin")}:${process.env.PATH ?? ""}` } });
    expect(printed).toContain(`@graphprotocol/graph-cli/${versionOf("@graphprotocol/graph-cli")}`);
    expect(versionOf("graph-cli-0.87")).toBe("0.87.0");
    expect(versionOf("@graphprotocol/graph-cli")).not.toBe("0.87.0");
  });
});
