import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseManifestYaml } from "./manifestYaml.js";

describe("parseManifestYaml", () => {
  const text = [
    "specVersion: 0.0.5",
    "dataSources:",
    "  - source:",
    "      address: 0x5FbDB2315678afecb367f032d93F642f64180aa3",
    "      startBlock: 12",
    "      endBlock: '40'",
    "    mapping:",
    "      apiVersion: 0.0.9",
    "      mode: 0o17",
  ].join("\n");

  it("keeps an unquoted hex address as written, where the core schema makes it a number", () => {
    // The independent truth: the YAML 1.2 core schema (what `yaml` reads by default) loses the address.
    expect(typeof (parse(text) as { dataSources: { source: { address: unknown } }[] }).dataSources[0]!.source.address).toBe("number");
    const doc = parseManifestYaml(text) as { specVersion: unknown; dataSources: { source: Record<string, unknown>; mapping: Record<string, unknown> }[] };
    expect(doc.dataSources[0]!.source).toEqual({ address: "0x5FbDB2315678afecb367f032d93F642f64180aa3", startBlock: 12, endBlock: "40" });
    expect(doc.dataSources[0]!.mapping).toEqual({ apiVersion: "0.0.9", mode: "0o17" });
    expect(doc.specVersion).toBe("0.0.5");
  });

  it("still reads decimal numbers, booleans and nulls", () => {
    expect(parseManifestYaml("a: 10\nb: 1.5\nc: true\nd: ~\ne: -3")).toEqual({ a: 10, b: 1.5, c: true, d: null, e: -3 });
  });

  it("throws on text that is no YAML", () => {
    expect(() => parseManifestYaml("a: [1, 2")).toThrow();
  });
});
