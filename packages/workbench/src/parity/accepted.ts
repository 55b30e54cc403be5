// The accepted differences between the local node and graph-node: each with its reason. A difference
// not listed here fails the parity suite. The list lives in accepted-differences.json, linked from the
// local node's README.
import { readFile } from "node:fs/promises";
import type { Difference } from "./types.js";

export interface AcceptedDifference {
  /** A case name, or "*" for every case. */
  case: string;
  /** The subject (`query:<id>`, `status`, `entities:<Type>@<block>`); each * matches any run of characters. */
  subject: string;
  reason: string;
}

export async function readAcceptedDifferences(path: string): Promise<AcceptedDifference[]> {
  return JSON.parse(await readFile(path, "utf8")) as AcceptedDifference[];
}

export function acceptance(difference: Difference, accepted: AcceptedDifference[]): AcceptedDifference | undefined {
  return accepted.find((a) => {
    if (a.case !== "*" && a.case !== difference.case) return false;
    return subjectPattern(a.subject).test(difference.subject);
  });
}

function subjectPattern(subject: string): RegExp {
  return new RegExp(`^${subject.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
}
