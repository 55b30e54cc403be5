// Headless Chromium for the page tests, with nothing installed by hand: a system Chromium or Chrome when
// there is one (CHROMIUM_PATH, else the usual names on PATH), else the build that @sparticuz/chromium
// ships in npm (Linux x64/arm64; unpacked once per user into the OS temp dir).
import { accessSync, constants, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { chromium, type Browser } from "playwright-core";

export interface ChromiumChoice {
  executablePath: string;
  args: string[];
  source: "CHROMIUM_PATH" | "system" | "npm";
}

const systemNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

// Quiet flags: this machine's network is closed, and a browser's background calls must not wait on it.
const quietFlags = ["--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"];

export async function chooseChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumChoice> {
  const systemArgs = ["--headless", "--no-sandbox", "--disable-gpu", ...quietFlags];
  if (env.CHROMIUM_PATH) return { executablePath: env.CHROMIUM_PATH, args: systemArgs, source: "CHROMIUM_PATH" };
  const onPath = findOnPath(systemNames, env.PATH ?? "");
  if (onPath) return { executablePath: onPath, args: systemArgs, source: "system" };
  let packaged: { executablePath(): Promise<string>; args: string[] };
  try {
    packaged = (await import("@sparticuz/chromium")).default;
  } catch (error) {
    throw new Error("no Chromium found: none on PATH and @sparticuz/chromium is not installed (run npm ci), or set CHROMIUM_PATH", { cause: error });
  }
  if (process.platform !== "linux") throw new Error(`no Chromium found on PATH, and @sparticuz/chromium only ships Linux builds (this is ${process.platform}): install Chrome or set CHROMIUM_PATH`);
  return { executablePath: await unpackPerUser(packaged), args: [...packaged.args, ...quietFlags], source: "npm" };
}

/**
 * @sparticuz/chromium unpacks to <temp dir>/chromium, a path every user of the machine shares: a copy
 * another user unpacked cannot be run. Each user gets a folder of its own, by pointing the temp dir
 * there while it unpacks.
 */
async function unpackPerUser(packaged: { executablePath(): Promise<string> }): Promise<string> {
  const folder = join(tmpdir(), `chromium-npm-${process.getuid?.() ?? "user"}`);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  try {
    return await packaged.executablePath();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

export async function launchHeadlessChromium(): Promise<{ browser: Browser; choice: ChromiumChoice }> {
  const choice = await chooseChromium();
  try {
    const browser = await chromium.launch({ executablePath: choice.executablePath, args: choice.args, headless: true });
    return { browser, choice };
  } catch (error) {
    const hint = choice.source === "npm" ? ` (if a killed run left it half unpacked, delete ${choice.executablePath})` : "";
    throw new Error(`Chromium from ${choice.source} did not start: ${choice.executablePath}${hint}`, { cause: error });
  }
}

function findOnPath(names: string[], pathList: string): string | undefined {
  for (const dir of pathList.split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}
