import { test } from "matchstick-as/assembly/index";

test("does not compile", () => {
  const x: i32 = "not a number";
});
