// A CLI whose last await is close(), with nothing else keeping its event loop alive: it must exit 0.
import { tmpdir } from "node:os";
import { createWarmGraphCli } from "../warmGraphCli.js";

const graph = createWarmGraphCli();
const version = await graph.run(["--version"], { cwd: tmpdir() });
await graph.close();
console.log(`closed after exit code ${version.code}`);
