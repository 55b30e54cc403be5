// matchstick-as's `assert.*`, each with and without a custom message.
import { createAsserts } from "./asserts.js";
import type { ImportGroup, MatchstickLink } from "./linkContext.js";

export function assertImports({ state, logger, codec, str }: MatchstickLink): ImportGroup {
  const asserts = createAsserts({ state, logger });
  return {
    "_assert.fieldEquals": (t: number, id: number, f: number, e: number) => asserts.fieldEquals(str(t), str(id), str(f), str(e), null),
    "_assert.fieldEqualsWithMessage": (t: number, id: number, f: number, e: number, m: number) => asserts.fieldEquals(str(t), str(id), str(f), str(e), str(m)),
    "_assert.equals": (e: number, a: number) => asserts.equals(codec.readEthereumValue(e), codec.readEthereumValue(a), null),
    "_assert.equalsWithMessage": (e: number, a: number, m: number) => asserts.equals(codec.readEthereumValue(e), codec.readEthereumValue(a), str(m)),
    "_assert.notInStore": (t: number, id: number) => asserts.notInStore(str(t), str(id), null),
    "_assert.notInStoreWithMessage": (t: number, id: number, m: number) => asserts.notInStore(str(t), str(id), str(m)),
    "_assert.dataSourceCount": (t: number, n: number) => asserts.dataSourceCount(str(t), n >>> 0, null),
    "_assert.dataSourceCountWithMessage": (t: number, n: number, m: number) => asserts.dataSourceCount(str(t), n >>> 0, str(m)),
    "_assert.dataSourceExists": (t: number, a: number) => asserts.dataSourceExists(str(t), str(a), null),
    "_assert.dataSourceExistsWithMessage": (t: number, a: number, m: number) => asserts.dataSourceExists(str(t), str(a), str(m)),
  };
}
