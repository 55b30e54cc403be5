export { createDevLoop, type DevLoop, type DevLoopOptions } from "./devLoop.js";
