import { createServer } from "node:http";
import { connect } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { BaseError } from "../errors.js";
import { ANY_ORIGIN, BodyTooLargeError, CORS_HEADERS, isLoopbackOrigin, listen, readBody, readText, sendError, sendJson, serve } from "./index.js";

/** Sends raw bytes (a request fetch would refuse to send) and returns the whole answer as text. */
function rawRequest(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(bytes));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

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
    }, { onError: () => {} });
    try {
      const res = await fetch(running.url);
      expect(res.status).toBe(500);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await running.close();
    }
  });
});

describe("serve: what no handler should have to answer", () => {
  it("tells onError once per failed request, with the method, the path and the cause", async () => {
    const seen: { error: unknown; request: unknown }[] = [];
    const running = await serve(async () => Promise.reject(new Error("outer", { cause: new Error("inner") })), { onError: (error, request) => seen.push({ error, request }) });
    try {
      expect((await fetch(`${running.url}/some/path?secret=1`, { method: "POST", body: "x" })).status).toBe(500);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.request).toEqual({ method: "POST", path: "/some/path" });
    } finally {
      await running.close();
    }
  });

  it("writes a failed request to stderr when no onError is given", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const running = await serve(() => {
      throw new Error("nobody listens", { cause: new Error("the cause") });
    });
    try {
      expect((await fetch(`${running.url}/x`)).status).toBe(500);
      expect(errors).toHaveBeenCalledTimes(1);
      expect(String(errors.mock.calls[0]![0])).toMatch(/^server error on GET \/x: Error: nobody listens; caused by Error: the cause\n/);
    } finally {
      errors.mockRestore();
      await running.close();
    }
  });

  it("answers a malformed request target 400 without calling the handler, and keeps serving", async () => {
    let calls = 0;
    const running = await serve((_req, res) => {
      calls++;
      res.end("ok");
    });
    try {
      for (const target of ["//[", "*", "http://127.0.0.1/x", "//evil.example/x"]) {
        expect(await rawRequest(running.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 /);
      }
      // A request line the HTTP parser itself rejects: Node answers 400 before any handler.
      expect(await rawRequest(running.port, "GET / HTTP/1.1 junk\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
      expect(calls).toBe(0);
      expect(await (await fetch(`${running.url}/`)).text()).toBe("ok");
    } finally {
      await running.close();
    }
  });

  it("with loopbackOnly, refuses a foreign Host or Origin (403) and serves loopback pages and programs", async () => {
    const running = await serve((_req, res) => res.end("ok"), { loopbackOnly: true });
    const status = async (headers: Record<string, string>) => {
      const answer = await rawRequest(running.port, `POST / HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}Content-Length: 0\r\nConnection: close\r\n\r\n`);
      return Number(answer.slice(9, 12));
    };
    try {
      // Programs: a loopback Host, no Origin.
      expect(await status({ Host: `127.0.0.1:${running.port}` })).toBe(200);
      expect(await status({ Host: `localhost:${running.port}` })).toBe(200);
      expect(await status({ Host: `[::1]:${running.port}` })).toBe(200);
      // Pages served from this machine.
      expect(await status({ Host: `127.0.0.1:${running.port}`, Origin: "http://localhost:3000" })).toBe(200);
      expect(await status({ Host: `127.0.0.1:${running.port}`, Origin: `http://127.0.0.1:${running.port}` })).toBe(200);
      // A page on another site, and DNS rebinding (a foreign name resolved to 127.0.0.1).
      expect(await status({ Host: `127.0.0.1:${running.port}`, Origin: "https://evil.example" })).toBe(403);
      expect(await status({ Host: `127.0.0.1:${running.port}`, Origin: "null" })).toBe(403);
      expect(await status({ Host: `evil.example:${running.port}` })).toBe(403);
      expect(await status({ Host: `127.0.0.1.evil.example:${running.port}` })).toBe(403);
      expect(await status({ Host: `0.0.0.0:${running.port}` })).toBe(403);
      const refused = await fetch(running.url, { method: "POST", headers: { Origin: "https://evil.example" } });
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('the Origin "https://evil.example" is not a loopback origin');
    } finally {
      await running.close();
    }
  });

  it("tells loopback origins from others", () => {
    for (const o of ["http://localhost", "https://localhost:8443", "http://app.localhost:3000", "http://127.0.0.1:8000", "http://127.1.2.3", "http://[::1]:5001"]) expect(isLoopbackOrigin(o)).toBe(true);
    for (const o of ["null", "https://evil.example", "http://localhost.evil.example", "http://0.0.0.0:8000", "file://", "chrome-extension://abc", "http://[::2]"]) expect(isLoopbackOrigin(o)).toBe(false);
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
