import { describe, expect, it } from "vitest";
import { createSourceMapRegistry } from "./sourceMaps.js";

// A wasm source map is one line whose columns are byte offsets: offset 0 maps to src/m.ts line 1
// column 1, offset 16 to line 2 column 3 ("gBACE": 16 columns on, the same source, a line and two on).
const MAP = JSON.stringify({ version: 3, sources: ["src/m.ts"], names: [], mappings: "AAAA,gBACE", sourceRoot: "./m.wasm" });
const trap = { dataSource: "Token", handler: "handleX", block: 7, frames: [{ name: "src/m/handleX", functionIndex: 3, offset: 16 }] };

describe("the node's source maps", () => {
  it("names a trap by its function until a map for its data source comes, then by its source line", () => {
    const maps = createSourceMapRegistry();
    expect(maps.describe("QmA", trap)).toBe("src/m/handleX (wasm function 3, offset 0x10)");
    maps.register("QmA", "Token", MAP);
    expect(maps.describe("QmA", trap)).toBe("src/m/handleX (src/m.ts:2:3)");
    // Another deployment, or another data source of it, has its own map.
    expect(maps.describe("QmB", trap)).toBe("src/m/handleX (wasm function 3, offset 0x10)");
    expect(maps.describe("QmA", { ...trap, dataSource: "Other" })).toBe("src/m/handleX (wasm function 3, offset 0x10)");
  });

  it("refuses a body that is no source map, saying so", () => {
    const maps = createSourceMapRegistry();
    expect(() => maps.register("QmA", "Token", "{not json")).toThrow(/^not a source map: /);
    expect(maps.describe("QmA", trap)).toBe("src/m/handleX (wasm function 3, offset 0x10)");
  });
});
