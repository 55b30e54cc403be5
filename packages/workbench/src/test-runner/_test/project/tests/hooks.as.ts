// A failing hook stops the whole run, as Matchstick's panic does: the tests after it never run.
import { afterAll, beforeEach, describe, test } from "matchstick-as/assembly/index";

describe("a failing beforeEach", () => {
  beforeEach(() => {
    throw new Error("hook broke");
  });
  test("never runs either", () => {});
  test("nor this one", () => {});
});

afterAll(() => {});
