import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { BaseError } from "../errors.js";
import { ANY_ORIGIN, BodyTooLargeError, CORS_HEADERS, listen, readBody, readText, sendError, sendJson, serve } from "./index.js";

describe("listen", () => {
  it("listens on 127.0.0.1 on a free port and reports url and port", async () => {
    const running = await listen(createServer((_req, res) => res.end("hi")));
    try {
      expect(running.port).toBeGreaterThan(0);
      expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
      expect(await (await fetch(running.url)).text()).toBe("hi");
    } finally {
      await running.close();
    }
  });

  it("rejects with Node's error when the port is taken", async () => {
    const first = await listen(createServer());
    try {
      await expect(listen(createServer(), first.port)).rejects.toMatchObject({ code: "EADDRINUSE" });
    } finally {
      await first.close();
    }
  });

  it("closes at once with an open request and an idle keep-alive connection", async () => {
    let hang = false;
    const running = await listen(createServer((_req, res) => (hang ? undefined : res.end("ok"))));
    await fetch(running.url).then((r) => r.text()); // leaves an idle keep-alive connection
    hang = true;
    const stuck = fetch(running.url).catch(() => "dropped");
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await running.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await stuck).toBe("dropped");
  });
});

describe("serve", () => {
  it("answers a rejected handler 500 with the error headers and tells onError", async () => {
    const seen: unknown[] = [];
    const running = await serve(async () => Promise.reject(new Error("boom")), { onError: (e) => seen.push(e), errorHeaders: ANY_ORIGIN });
    try {
      const res = await fetch(running.url);
      expect(res.status).toBe(500);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.text()).toBe("Internal server error");
      expect(seen).toHaveLength(1);
    } finally {
      await running.close();
    }
  });

  it("answers a handler that throws synchronously the same way", async () => {
    const running = await serve(() => {
      throw new Error("sync boom");
    });
    try {
      const res = await fetch(running.url);
      expect(res.status).toBe(500);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await running.close();
    }
  });
});

describe("readBody", () => {
  it("reads the whole body, and text as UTF-8", async () => {
    const running = await serve(async (req, res) => {
      const text = await readText(req, { maxBytes: 100 });
      sendJson(res, 200, { text });
    });
    try {
      const res = await fetch(running.url, { method: "POST", body: "héllo" });
      expect(await res.json()).toEqual({ text: "héllo" });
    } finally {
      await running.close();
    }
  });

  it("throws BodyTooLargeError over the cap, a BaseError with code and details", async () => {
    let caught: unknown;
    const running = await serve(async (req, res) => {
      try {
        await readBody(req, { maxBytes: 10 });
        sendJson(res, 200, {});
      } catch (error) {
        caught = error;
        sendError(res, 413, "too large");
        req.resume();
      }
    });
    try {
      const res = await fetch(running.url, { method: "POST", body: "x".repeat(11) });
      expect(res.status).toBe(413);
      expect(await res.text()).toBe("too large");
      expect(caught).toBeInstanceOf(BodyTooLargeError);
      expect(caught).toBeInstanceOf(BaseError);
      expect(caught).toMatchObject({ name: "BodyTooLargeError", code: "ERR_BODY_TOO_LARGE", details: { maxBytes: 10 }, maxBytes: 10, deterministic: true });
      expect((caught as Error).message).toBe("request body larger than 10 bytes");
    } finally {
      await running.close();
    }
  });

  it("has no cap when none is given", async () => {
    const running = await serve(async (req, res) => sendJson(res, 200, { length: (await readBody(req)).length }));
    try {
      const res = await fetch(running.url, { method: "POST", body: "x".repeat(3 << 20) });
      expect(await res.json()).toEqual({ length: 3 << 20 });
    } finally {
      await running.close();
    }
  });
});

describe("send", () => {
  it("sends JSON with its headers and a Content-Length", async () => {
    const running = await serve((_req, res) => sendJson(res, 201, { a: "é" }, CORS_HEADERS));
    try {
      const res = await fetch(running.url);
      expect(res.status).toBe(201);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength('{"a":"é"}')));
      expect(res.headers.get("access-control-allow-methods")).toBe("GET, OPTIONS, POST");
      expect(await res.json()).toEqual({ a: "é" });
    } finally {
      await running.close();
    }
  });
});
