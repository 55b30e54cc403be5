import { describe, expect, it } from "vitest";
import { IpfsRequestError } from "./errors.js";
import { MAX_PARTS, cleanFilename, multipartBoundary, parseMultipart } from "./multipart.js";

const B = "-----------------------------abc123";

function body(parts: string[]): Buffer {
  return Buffer.from(parts.map((p) => `--${B}\r\n${p}\r\n`).join("") + `--${B}--\r\n`, "latin1");
}

describe("multipart bodies as kubo-rpc-client sends them", () => {
  it("reads the boundary, quoted or not, and refuses other content types", () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(multipartBoundary(`multipart/form-data; boundary="${B}"`)).toBe(B);
    expect(() => multipartBoundary("application/json")).toThrow(IpfsRequestError);
    expect(() => multipartBoundary(undefined)).toThrow("file argument 'path' is required");
  });

  it("splits files and directories, decodes URI-encoded names, keeps binary content intact", () => {
    const binary = "\r\n--not-the-boundary\r\n\u0000\u00ff";
    const parts = parseMultipart(
      body([
        `Content-Disposition: form-data; name="file"; filename="a%20b%2F%C3%A9.txt"\r\nContent-Type: application/octet-stream\r\n\r\n${binary}`,
        `Content-Disposition: form-data; name="dir-1?mode=0755"; filename="sub"\r\nContent-Type: application/x-directory\r\n\r\n`,
        `Content-Disposition: form-data; name="file-2"; filename="empty"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ]),
      B,
    );
    expect(parts.map((p) => ({ field: p.field, filename: p.filename, isDirectory: p.isDirectory, length: p.content.length }))).toEqual([
      { field: "file", filename: "a b/é.txt", isDirectory: false, length: binary.length },
      { field: "dir-1", filename: "sub", isDirectory: true, length: 0 },
      { field: "file-2", filename: "empty", isDirectory: false, length: 0 },
    ]);
    expect(Buffer.from(parts[0]!.content).toString("latin1")).toBe(binary);
  });

  it("rejects truncated bodies", () => {
    const truncated = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\n\r\nabc`, "latin1");
    expect(() => parseMultipart(truncated, B)).toThrow("closing boundary missing");
    expect(() => parseMultipart(Buffer.from("no boundary here"), B)).toThrow("no boundary");
  });

  it("cleans names as Kubo does: `..` cannot climb above the root, a leading `/` or `./` is dropped", () => {
    expect(cleanFilename("..%2F..%2Fetc%2Fpasswd")).toBe("etc/passwd");
    expect(cleanFilename("/abs/file")).toBe("abs/file");
    expect(cleanFilename("./a/./b/../c/")).toBe("a/c");
    expect(cleanFilename("ApprovalToken%2FApprovalToken.wasm")).toBe("ApprovalToken/ApprovalToken.wasm");
    expect(cleanFilename("..")).toBe("");
    const parts = parseMultipart(body(['Content-Disposition: form-data; name="file"; filename="..%2Fescape.txt"\r\nContent-Type: application/octet-stream\r\n\r\nx']), B);
    expect(parts[0]?.filename).toBe("escape.txt");
  });

  it("refuses a body with more parts than MAX_PARTS", () => {
    const many = Array.from({ length: MAX_PARTS + 1 }, (_, i) => `Content-Disposition: form-data; name="file"; filename="f${i}"\r\nContent-Type: application/octet-stream\r\n\r\nx`);
    expect(() => parseMultipart(body(many), B)).toThrow(`too many parts in the multipart body: more than ${MAX_PARTS}`);
  });
});

