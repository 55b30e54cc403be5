import { test } from "matchstick-as/assembly/index";
import { handleCount } from "../src/trapping";

test("a trapping handler names its source line", () => {
  handleCount(-1);
});
