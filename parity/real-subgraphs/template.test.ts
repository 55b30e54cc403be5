import { describe, expect, it } from "vitest";
import { renderTemplate } from "./template.js";

describe("manifest templates", () => {
  it("fills plain tags, escaped as mustache does", () => {
    expect(renderTemplate("network: {{network}}\naddress: '{{ factory }}'\nstartBlock: {{startblock}}", { network: "localhost", factory: "0xAbC", startblock: "7" })).toBe("network: localhost\naddress: '0xAbC'\nstartBlock: 7");
    expect(renderTemplate("{{x}}", { x: "a<b&c" })).toBe("a&lt;b&amp;c");
    expect(renderTemplate("address: '{{ blocks.address }}'", { blocks: { address: "0x1" } })).toBe("address: '0x1'");
  });

  it("refuses what it would render wrongly", () => {
    expect(() => renderTemplate("{{#list}}x{{/list}}", { list: "1" })).toThrow(/Unsupported mustache tag/);
    expect(() => renderTemplate("{{{raw}}}", { raw: "1" })).toThrow(/Unsupported mustache tag/);
    expect(() => renderTemplate("{{missing}}", {})).toThrow(/does not set/);
    expect(() => renderTemplate("{{blocks}}", { blocks: { address: "0x1" } })).toThrow(/does not set/);
  });
});
