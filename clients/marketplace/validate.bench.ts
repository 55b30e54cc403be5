// Validations per second (`npm run bench:jwt`, CLI in scripts/bench/jwt.ts) with a key parsed once, on one thread.
// Figures: distinct tokens (every call verifies an Ed25519 signature), one token repeated (a client's
// requests during the hour; the signature was verified on first sight), jose's async path, and bare
// node:crypto verify as the floor the curve operation sets.
import { generateKeyPairSync, verify } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { referenceClaims, signToken } from "./_test/keys.js";
import { createTokenValidator } from "./validateToken.js";

type Rate = { wall: number; cpu: number };

export async function runJwtBench(): Promise<void> {
  const SLUG = "bench-app";
  const DISTINCT = 20_000;
  const REPEATS = 200_000;
  const now = Math.floor(Date.now() / 1000);
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const tokens = Array.from({ length: DISTINCT }, (_, i) => signToken(privateKey, referenceClaims({ now, slug: SLUG, sub: `account-${i}` })));


  // Rates per wall second and per CPU second of this process: on a shared, loaded machine the CPU figure
  // is the one that says what one core does.
  function report(label: string, count: number, wallNs: bigint, cpu: NodeJS.CpuUsage): Rate {
    const wallSeconds = Number(wallNs) / 1e9;
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const rate = { wall: count / wallSeconds, cpu: count / cpuSeconds };
    const fmt = (n: number) => Math.round(n).toLocaleString("en-US").padStart(10);
    console.log(`${label.padEnd(58)} ${fmt(rate.cpu)} /cpu-s ${fmt(rate.wall)} /wall-s  (${count} calls)`);
    return rate;
  }

  function measure(label: string, count: number, run: (i: number) => void): Rate {
    for (let i = 0; i < Math.min(count, 500); i++) run(i); // warm-up
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < count; i++) run(i);
    return report(label, count, process.hrtime.bigint() - start, process.cpuUsage(cpu));
  }

  async function measureAsync(label: string, count: number, run: (i: number) => Promise<unknown>): Promise<Rate> {
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < count; i++) await run(i);
    return report(label, count, process.hrtime.bigint() - start, process.cpuUsage(cpu));
  }

  // Shared machines skew these figures; the load average says how much.
  console.log(`node ${process.version}, ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}, token length ${tokens[0]?.length} chars, one thread`);
  const cold = createTokenValidator({ publicKey, audience: SLUG, signatureCacheSize: 0 });
  const coldRate = measure("validate(), distinct tokens (signature verified each call)", DISTINCT, (i) => cold.validate(tokens[i] ?? ""));
  const warm = createTokenValidator({ publicKey, audience: SLUG });
  const one = tokens[0] ?? "";
  measure("validate(), same token repeated (verified signature kept)", REPEATS, () => warm.validate(one));
  const viaJose = createTokenValidator({ publicKey, audience: SLUG });
  await measureAsync("validateAsync() via jose compactVerify, distinct tokens", 5_000, (i) => viaJose.validateAsync(tokens[i] ?? ""));
  const parts = tokens.map((t) => {
    const dot = t.lastIndexOf(".");
    return [Buffer.from(t.slice(0, dot)), Buffer.from(t.slice(dot + 1), "base64url")] as const;
  });
  measure("bare node:crypto Ed25519 verify (floor)", DISTINCT, (i) => {
    const [input, signature] = parts[i] ?? [Buffer.alloc(0), Buffer.alloc(0)];
    verify(null, input, publicKey, signature);
  });
  const verdict = coldRate.cpu >= 10_000 ? "met" : "NOT met";
  console.log(`target >= 10,000/s per core with signature verification: ${verdict} (${Math.round(coldRate.cpu)} per CPU second)`);

}
