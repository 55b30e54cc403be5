// matchstick-as's `_assert.*` host functions, with Matchstick's checks and messages. They return
// false after logging an error; matchstick-as then throws ("... Assertion Error"), failing the test.
import type { Logger } from "../logger.js";
import type { StoreValue, EthereumValue } from "../../wasm-host/index.js";
import type { MatchstickState } from "./state.js";
import { tokenToValue, valuesEqual, valueToString } from "./values.js";

export interface AssertDeps {
  state: MatchstickState;
  logger: Logger;
}

export function createAsserts({ state, logger }: AssertDeps) {
  const error = (message: string): false => {
    logger.log("error", message);
    return false;
  };

  function fieldEquals(entityType: string, id: string, field: string, expected: string, message: string | null): boolean {
    if (!state.store.hasType(entityType)) return error(`(assert.fieldEquals) No entities with type '${entityType}' found.`);
    const row = state.store.get(entityType, id);
    if (row === null) return error(`(assert.fieldEquals) No entity with type '${entityType}' and id '${id}' found.`);
    const value = row.get(field);
    if (value === undefined) {
      return error(`(assert.fieldEquals) No field named '${field}' on entity with type '${entityType}' and id '${id}' found.`);
    }
    const actual = valueToString(value);
    if (actual !== expected) {
      return error(
        message === null ? `(assert.fieldEquals) Expected field '${field}' to equal '${expected}', but was '${actual}' instead.` : `(assert.fieldEquals) ${message}`,
      );
    }
    return true;
  }

  function equals(expected: EthereumValue, actual: EthereumValue, message: string | null): boolean {
    const e: StoreValue = tokenToValue(expected);
    const a: StoreValue = tokenToValue(actual);
    if (!valuesEqual(e, a)) {
      return error(message === null ? `(assert.equals) Expected value was '${valueToString(e)}' but actual value was '${valueToString(a)}'` : `(assert.equals) ${message}`);
    }
    return true;
  }

  function notInStore(entityType: string, id: string, message: string | null): boolean {
    if (state.store.get(entityType, id) !== null) {
      return error(message === null ? `(assert.notInStore) Value for entity type: '${entityType}' and id: '${id}' was found in store.` : `(assert.notInStore) ${message}`);
    }
    return true;
  }

  function dataSourceCount(template: string, expected: number, message: string | null): boolean {
    const created = state.templates.get(template);
    // "Coutn" is Matchstick's own spelling.
    if (created === undefined) return error(`(assert.dataSourceCoutn) No template with name '${template}' found.`);
    if (created.size !== expected) {
      return error(
        message === null
          ? `(assert.dataSourceCount) Expected dataSource count for template \`${template}\` to be '${expected}' but was '${created.size}'`
          : `(assert.dataSourceCount) ${message}`,
      );
    }
    return true;
  }

  function dataSourceExists(template: string, address: string, message: string | null): boolean {
    const created = state.templates.get(template);
    if (created === undefined) return error(`(assert.dataSourceExists) No template with name '${template}' found.`);
    if (!created.has(address)) {
      return error(
        message === null ? `(assert.dataSourceExists) No dataSource with address '${address}' found for template '${template}'` : `(assert.dataSourceExists) ${message}`,
      );
    }
    return true;
  }

  return { fieldEquals, equals, notInStore, dataSourceCount, dataSourceExists };
}

export type Asserts = ReturnType<typeof createAsserts>;
