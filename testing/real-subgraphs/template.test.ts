import { describe, expect, it } from "vitest";
import { renderTemplate } from "./template.js";

describe("manifest templates", () => {
  it("fills plain tags, escaped as mustache does", () => {
    expect(renderTemplate("network: {{network}}\naddress: '{{ factory }}'\nstartBlock: {{startblock}}", { network: "localhost", factory: "0xAbC", startblock: "7" })).toBe("network: localhost\naddress: '0xAbC'\nstartBlock: 7");
    expect(renderTemplate("{{x}}", { x: "a<b&c" })).toBe("a&lt;b&amp;c");
    expect(renderTemplate("address: '{{ blocks.address }}'", { blocks: { address: "0x1" } })).toBe("address: '0x1'");
  });

  it("keeps or drops a boolean section with its standalone tag lines, as the mustache CLI does", () => {
    const template = "a:\n  {{#calls}}\n  calls: yes\n  {{/calls}}\n  file: x\n";
    expect(renderTemplate(template, { calls: false })).toBe("a:\n  file: x\n");
    expect(renderTemplate(template, { calls: true })).toBe("a:\n  calls: yes\n  file: x\n");
  });

  it("refuses names the network config does not set", () => {
    expect(() => renderTemplate("{{missing}}", {})).toThrow(/does not set/);
    expect(() => renderTemplate("{{blocks}}", { blocks: { address: "0x1" } })).toThrow(/does not set/);
    expect(() => renderTemplate("{{#calls}}x{{/calls}}", {})).toThrow(/needs a boolean/);
    expect(() => renderTemplate("{{#calls}}{{missing}}{{/calls}}", { calls: false })).toThrow(/does not set/);
    expect(() => renderTemplate("{{> part}}", {})).toThrow(/partial/);
  });
});
