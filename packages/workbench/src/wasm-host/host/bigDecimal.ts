// bigDecimal.*: adapters over bigDecimalMath (graph-node's 34-digit BigDecimal).
import type { HostEnv, HostFunctions } from "./env.js";
import { HostError } from "../errors.js";
import * as math from "../values/bigDecimalMath.js";

export function bigDecimalImports(env: HostEnv): HostFunctions {
  const { codec } = env;
  const binary = (op: (x: math.BigDecimalValue, y: math.BigDecimalValue) => math.BigDecimalValue) => (xPtr: number, yPtr: number) =>
    codec.writeBigDecimal(op(codec.readBigDecimal(xPtr), codec.readBigDecimal(yPtr)));
  return {
    "bigDecimal.plus": binary(math.plus),
    "bigDecimal.minus": binary(math.minus),
    "bigDecimal.times": binary(math.times),
    "bigDecimal.dividedBy": binary((x, y) => {
      if (math.isZero(y)) throw new HostError("ARITHMETIC", `attempted to divide BigDecimal \`${math.toString(x)}\` by zero`);
      return math.dividedBy(x, y);
    }),
    "bigDecimal.equals": (xPtr: number, yPtr: number) => (math.equals(codec.readBigDecimal(xPtr), codec.readBigDecimal(yPtr)) ? 1 : 0),
    "bigDecimal.toString": (ptr: number) => codec.writeString(math.toString(codec.readBigDecimal(ptr))),
    "bigDecimal.fromString": (ptr: number) => {
      const s = codec.readString(ptr);
      const value = math.fromString(s);
      if (value === null) throw new HostError("CONVERSION", `string  is not a BigDecimal: '${s}'`);
      return codec.writeBigDecimal(value);
    },
  };
}
