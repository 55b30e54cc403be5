// Test registration: `test`, `describe` and the hooks call these during _start and describe bodies.
import { critical, type ImportGroup, type MatchstickLink } from "./linkContext.js";
import type { Role } from "./state.js";

const ROLES: readonly Role[] = ["beforeAll", "afterAll", "beforeEach", "afterEach"];

export function registrationImports({ state, logger, str }: MatchstickLink): ImportGroup {
  return {
    _registerTest: (name: number, shouldFail: number, funcIdx: number) => {
      state.registrations.push({ name: str(name), shouldFail: shouldFail !== 0, funcIdx: funcIdx >>> 0, role: "test" });
    },
    _registerDescribe: (name: number, funcIdx: number) => {
      state.registrations.push({ name: str(name), shouldFail: false, funcIdx: funcIdx >>> 0, role: "describe" });
    },
    _registerHook: (funcIdx: number, role: number) => {
      const r = str(role);
      if (!(ROLES as readonly string[]).includes(r)) critical(state, logger, `Unrecognized function type \`${r}\``);
      state.registrations.push({ name: "", shouldFail: false, funcIdx: funcIdx >>> 0, role: r as Role });
    },
  };
}
