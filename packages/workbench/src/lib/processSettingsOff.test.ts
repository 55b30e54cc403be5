import { describe, expect, it } from "vitest";
import { PROCESS_SETTINGS, parseSettingsOff, processSettingOff } from "./processSettingsOff.js";

describe("the memory bench's switch for the process settings", () => {
  it("reads a list of settings, or all of them", () => {
    expect([...parseSettingsOff("mmap-threshold, wasm-tiering")]).toEqual(["mmap-threshold", "wasm-tiering"]);
    expect([...parseSettingsOff("all")]).toEqual([...PROCESS_SETTINGS]);
    expect(parseSettingsOff("").size).toBe(0);
    expect(processSettingOff("v8-pool-size", { SUBGRAPH_WORKBENCH_SETTINGS_OFF: "v8-pool-size" })).toBe(true);
    expect(processSettingOff("v8-pool-size", {})).toBe(false);
  });

  it("names the settings it knows when given one it does not", () => {
    expect(() => parseSettingsOff("malloc-trim")).toThrow("SUBGRAPH_WORKBENCH_SETTINGS_OFF: no setting named malloc-trim; the settings are mmap-threshold, v8-pool-size, wasm-tiering, heap-ceilings (or all)");
  });
});
