// Builds a test file's tree from its registrations, as Matchstick's test_suite.rs does:
// tests and describes in registration order; each describe's body runs in a FRESH instance (its own
// store and mocks) only to collect what it registers; beforeEach hooks are prepended outer-first,
// afterEach hooks appended inner-first; beforeAll/afterAll belong to their group.
import type { Registration } from "./matchstick/state.js";

export interface TestNode {
  kind: "test";
  name: string;
  shouldFail: boolean;
  funcIdx: number;
  beforeEach: number[];
  afterEach: number[];
}

export interface GroupNode {
  kind: "group";
  /** "" for the file's top level. */
  name: string;
  beforeAll: number[];
  afterAll: number[];
  children: (TestNode | GroupNode)[];
}

/** Runs a describe body in a fresh instance and returns the registrations it added. */
export type DescribeExpander = (funcIdx: number) => Promise<Registration[]>;

function applyEachHooks(group: GroupNode, beforeEach: number[], afterEach: number[]): void {
  for (const child of group.children) {
    if (child.kind === "test") {
      child.beforeEach.unshift(...beforeEach);
      child.afterEach.push(...afterEach);
    } else applyEachHooks(child, beforeEach, afterEach);
  }
}

export async function buildGroup(name: string, registrations: readonly Registration[], expand: DescribeExpander): Promise<GroupNode> {
  const group: GroupNode = { kind: "group", name, beforeAll: [], afterAll: [], children: [] };
  const beforeEach: number[] = [];
  const afterEach: number[] = [];
  for (const r of registrations) {
    switch (r.role) {
      case "beforeAll":
        group.beforeAll.push(r.funcIdx);
        break;
      case "afterAll":
        group.afterAll.push(r.funcIdx);
        break;
      case "beforeEach":
        beforeEach.push(r.funcIdx);
        break;
      case "afterEach":
        afterEach.push(r.funcIdx);
        break;
      case "test":
        group.children.push({ kind: "test", name: r.name, shouldFail: r.shouldFail, funcIdx: r.funcIdx, beforeEach: [], afterEach: [] });
        break;
      case "describe":
        group.children.push(await buildGroup(r.name, await expand(r.funcIdx), expand));
        break;
    }
  }
  applyEachHooks(group, beforeEach, afterEach);
  return group;
}

/** Matchstick keeps only the registrations a describe added that are not already registered. */
export function newRegistrations(before: readonly Registration[], after: readonly Registration[]): Registration[] {
  const same = (a: Registration, b: Registration): boolean => a.name === b.name && a.shouldFail === b.shouldFail && a.funcIdx === b.funcIdx && a.role === b.role;
  return after.slice(before.length).filter((r) => !before.some((b) => same(b, r)));
}

export function countTests(group: GroupNode): number {
  return group.children.reduce((n, c) => n + (c.kind === "test" ? 1 : countTests(c)), 0);
}
