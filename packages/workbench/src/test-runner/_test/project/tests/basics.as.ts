import { Address, BigInt, DataSourceContext, DataSourceTemplate, Entity, JSONValue, Value, dataSource, ethereum, ipfs, store } from "@graphprotocol/graph-ts";
import {
  afterAll,
  afterEach,
  assert,
  beforeAll,
  beforeEach,
  clearInBlockStore,
  clearStore,
  createMockedFunction,
  dataSourceMock,
  describe,
  log,
  mockInBlockStore,
  mockIpfsFile,
  readFile,
  test,
} from "matchstick-as/assembly/index";
import { handleNamed } from "../src/mapping";
import { saveToken } from "./helpers";

let order = "";
const CONTRACT = Address.fromString("0x90cba2bbb19ecc291a12066fd8329d65fa1f1947");

export function processItem(value: JSONValue, userData: Value): void {
  const item = value.toObject();
  handleNamed(item.get("id")!.toString(), userData.toString() + item.get("n")!.toBigInt().toString());
}

beforeAll(() => {
  order += "[file-beforeAll]";
});

describe("hooks", () => {
  beforeAll(() => {
    order += "[outer-beforeAll]";
  });
  beforeEach(() => {
    order += "[outer-beforeEach]";
  });
  afterEach(() => {
    order += "[outer-afterEach]";
  });
  describe("inner", () => {
    beforeEach(() => {
      order += "[inner-beforeEach]";
    });
    afterEach(() => {
      order += "[inner-afterEach]";
    });
    test("first", () => {
      order += "[first]";
    });
  });
  test("second", () => {
    assert.stringEquals(order, "[file-beforeAll][outer-beforeAll][outer-beforeEach][inner-beforeEach][first][inner-afterEach][outer-afterEach][outer-beforeEach]");
  });
});

describe("store", () => {
  test("saves an entity", () => {
    handleNamed("a", "alpha");
    assert.fieldEquals("Thing", "a", "name", "alpha");
    assert.fieldEquals("Thing", "a", "count", "5");
    assert.entityCount("Thing", 1);
    log.info("saved {}", ["a"]);
  });
  test("is not cleared between tests", () => {
    assert.fieldEquals("Thing", "a", "name", "alpha");
  });
  test("reports a wrong field value", () => {
    assert.fieldEquals("Thing", "a", "name", "beta");
  });
  test("clearStore empties it", () => {
    clearStore();
    assert.notInStore("Thing", "a");
    assert.entityCount("Thing", 0);
  });
  test("shows a field saved as null as 'null', as Matchstick", () => {
    const thing = new Entity();
    thing.set("id", Value.fromString("n"));
    thing.set("name", Value.fromString("nothing"));
    thing.set("count", Value.fromNull());
    store.set("Thing", "n", thing);
    assert.fieldEquals("Thing", "n", "count", "null");
  });
  test("rejects a missing non-null field", () => {
    const thing = new Entity();
    thing.set("id", Value.fromString("x"));
    store.set("Thing", "x", thing);
  }, true);
});

describe("immutable entities", () => {
  test("can be saved twice in one block", () => {
    saveToken("t1");
    saveToken("t1");
    assert.entityCount("Token", 1);
  });
});

describe("in-block store", () => {
  test("mockInBlockStore is seen by get_in_block only, until clearInBlockStore", () => {
    const thing = new Entity();
    thing.set("id", Value.fromString("mocked"));
    thing.set("name", Value.fromString("in block"));
    mockInBlockStore("Thing", "mocked", thing);
    assert.notInStore("Thing", "mocked");
    assert.assertNull(store.get("Thing", "mocked"));
    assert.stringEquals(store.get_in_block("Thing", "mocked")!.get("name")!.toString(), "in block");
    clearInBlockStore();
    assert.assertNull(store.get_in_block("Thing", "mocked"));
  });
  test("mockInBlockStore checks non-null fields", () => {
    const thing = new Entity();
    thing.set("id", Value.fromString("bad"));
    mockInBlockStore("Thing", "bad", thing);
  }, true);
});

describe("failures", () => {
  test("a trap fails only this test", () => {
    throw new Error("boom");
  });
  test("shouldFail passes when the test throws", () => {
    throw new Error("expected");
  }, true);
  test("shouldFail fails when the test passes", () => {}, true);
});

describe("mocks", () => {
  test("ethereum.call answers a mocked function and a mocked revert", () => {
    createMockedFunction(CONTRACT, "balanceOf", "balanceOf(address):(uint256)")
      .withArgs([ethereum.Value.fromAddress(CONTRACT)])
      .returns([ethereum.Value.fromUnsignedBigInt(BigInt.fromI32(42))]);
    createMockedFunction(CONTRACT, "name", "name():(string)").reverts();
    const result = ethereum.call(new ethereum.SmartContractCall("C", CONTRACT, "balanceOf", "balanceOf(address):(uint256)", [ethereum.Value.fromAddress(CONTRACT)]));
    assert.assertNotNull(result);
    assert.bigIntEquals(result![0].toBigInt(), BigInt.fromI32(42));
    assert.assertNull(ethereum.call(new ethereum.SmartContractCall("C", CONTRACT, "name", "name():(string)", [])));
  });
  test("dataSourceMock sets address, network and context", () => {
    const context = new DataSourceContext();
    context.setString("k", "v");
    dataSourceMock.setReturnValues("0x90cba2bbb19ecc291a12066fd8329d65fa1f1947", "rinkeby", context);
    assert.addressEquals(dataSource.address(), CONTRACT);
    assert.stringEquals(dataSource.network(), "rinkeby");
    assert.stringEquals(dataSource.context().getString("k"), "v");
  });
  test("templates record created data sources", () => {
    DataSourceTemplate.create("Child", ["0x01"]);
    assert.dataSourceCount("Child", 1);
    assert.dataSourceExists("Child", "0x01");
  });
  test("ipfs.cat, ipfs.map and readFile read the mocked files", () => {
    mockIpfsFile("QmCat", "files/cat.json");
    mockIpfsFile("QmMap", "files/map.json");
    assert.stringEquals(ipfs.cat("QmCat")!.toString(), '{"hello": "ipfs"}\n');
    assert.stringEquals(readFile("files/cat.json").toString(), '{"hello": "ipfs"}\n');
    ipfs.map("QmMap", "processItem", Value.fromString("n="), ["json"]);
    assert.fieldEquals("Thing", "m1", "name", "n=1");
    assert.fieldEquals("Thing", "m2", "name", "n=123456789012345678901234567890");
  });
});

afterAll(() => {
  log.success("file done", []);
});
