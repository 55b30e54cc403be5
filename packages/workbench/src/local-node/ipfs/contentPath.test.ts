import { describe, expect, it } from "vitest";
import { parseContentPath } from "./contentPath.js";
import { IpfsPathError } from "./errors.js";

const V0 = "QmNLei78zWmzUdbeRB3CiUfAizWUrbeeZh5K1rhAQKCh51";
const V1 = "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi";

describe("parseContentPath (graph-node's ContentPath forms)", () => {
  it("makes every accepted form canonical: <cid>[/path]", () => {
    for (const input of [V0, `/ipfs/${V0}`, `ipfs/${V0}`, `ipfs://${V0}`, ` ${V0}/ `, `https://gateway.example/ipfs/${V0}`, `http://127.0.0.1:5001/api/v0/cat?arg=${V0}`]) {
      expect(parseContentPath(input)).toBe(V0);
    }
    expect(parseContentPath(`/ipfs/${V1}/dir/file.json`)).toBe(`${V1}/dir/file.json`);
    expect(parseContentPath(`https://gateway.example/ipfs/${V0}/a.json`)).toBe(`${V0}/a.json`);
  });

  it("refuses what names no CID, and query parameters in the path", () => {
    for (const input of ["", "   ", "not-a-cid", "/ipfs/", `${V0.slice(0, -1)}0`]) expect(() => parseContentPath(input)).toThrow(IpfsPathError);
    expect(() => parseContentPath(`${V0}/a?x=1`)).toThrow(/query parameters not allowed/);
  });
});
