import { describe, expect, it } from "vitest";
import { freePort } from "./freePort.js";
import { ipfsApiAnswers, waitForIpfsApi } from "./ipfsApiReady.js";

describe("waitForIpfsApi", () => {
  it("gives up after its time limit when nothing listens, saying where it waited", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    expect(await ipfsApiAnswers(url)).toBe(false);
    await expect(waitForIpfsApi(url, { timeoutMs: 200 })).rejects.toThrow(`the IPFS API at ${url} did not answer within 0.2 s`);
  });

  it("stops with the error of whatever was to serve the API", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const failed = Promise.reject(new Error("the node could not start: port in use"));
    await expect(waitForIpfsApi(url, { timeoutMs: 60_000, gaveUp: failed })).rejects.toThrow("port in use");
  });
});
