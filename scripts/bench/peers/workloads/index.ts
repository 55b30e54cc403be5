// The workloads `npm run bench:peers -- --workload` chooses from, in the order `all` runs them.
import type { Workload } from "../workload.js";
import { approvals } from "./approvals.js";
import { uniswapV3 } from "./uniswapV3.js";

export const WORKLOADS: Workload[] = [approvals, uniswapV3];
