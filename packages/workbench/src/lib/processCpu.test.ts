import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { cpuSecondsOf, waitForQuiet } from "./processCpu.js";

// A child of this process that spins until it has used `busyMs` of CPU, then sleeps until killed. CPU
// time, not wall time: on a loaded machine a wall-clock spin gets less CPU than it asks for.
function spinner(busyMs: number): ChildProcess {
  const code = `const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; while (cpuMs() < ${busyMs}) {} setInterval(() => {}, 1000);`;
  return spawn(process.execPath, ["-e", code], { stdio: "ignore" });
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

describe.runIf(process.platform === "linux")("waitForQuiet", () => {
  it("waits while the tree burns CPU and returns once it idles", async () => {
    const child = spinner(1_500);
    children.push(child);
    const onlyChild = (p: { pid: number }) => p.pid === child.pid;
    const { busySeconds, quiet } = await waitForQuiet(process.pid, onlyChild, { windowMs: 600, pollMs: 100, timeoutMs: 20_000 });
    expect(quiet).toBe(true);
    // Busy for 1.5 s of CPU: seen busy until about then, and quiet soon after it stopped.
    expect(busySeconds).toBeGreaterThanOrEqual(0.8);
    expect(busySeconds).toBeLessThan(10);
    expect(cpuSecondsOf(child.pid!)).toBeGreaterThan(1);
  });

  it("gives up at the timeout while the tree stays busy, and says so", async () => {
    const child = spinner(60_000);
    children.push(child);
    const { busySeconds, quiet } = await waitForQuiet(process.pid, (p) => p.pid === child.pid, { windowMs: 300, pollMs: 100, timeoutMs: 1_200 });
    expect(quiet).toBe(false);
    expect(busySeconds).toBeGreaterThanOrEqual(1.2);
  });

  it("counts an idle tree as quiet after one window", async () => {
    const child = spinner(0);
    children.push(child);
    await new Promise((r) => setTimeout(r, 300)); // past its start-up
    const { busySeconds, quiet } = await waitForQuiet(process.pid, (p) => p.pid === child.pid, { windowMs: 300, pollMs: 100, timeoutMs: 5_000 });
    expect(quiet).toBe(true);
    expect(busySeconds).toBeLessThan(1);
  });
});
