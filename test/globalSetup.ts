// Runs once before every vitest suite: compile the contracts (a no-op when nothing changed), so suites on
// a fresh clone find the Hardhat artifacts and never race each other to build them.
import { ensureCompiled } from "../hardhat/deploy/compile.js";

export default async function setup(): Promise<void> {
  await ensureCompiled();
}
