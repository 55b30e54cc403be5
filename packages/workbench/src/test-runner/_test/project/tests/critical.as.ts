import { log, test } from "matchstick-as/assembly/index";

test("runs before the critical log", () => {});
test("stops the run", () => {
  log.critical("stop here: {}", ["now"]);
});
test("never runs", () => {});
