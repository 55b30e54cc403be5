import { expect, it } from "vitest";
import { createNodeStore } from "./nodeStore.js";
import { StoreError, maskDatabaseUrl } from "./errors.js";

it("masks the password of a connection string", () => {
  expect(maskDatabaseUrl("postgres://bench:s3cret@127.0.0.1:5432/db")).toBe("postgres://bench:***@127.0.0.1:5432/db");
  expect(maskDatabaseUrl("postgres://127.0.0.1/db")).toBe("postgres://127.0.0.1/db");
});

it("reports an unreachable Postgres without its password", async () => {
  // Port 1 on loopback refuses at once.
  const error = await createNodeStore({ databaseUrl: "postgres://bench:s3cret@127.0.0.1:1/db" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreError);
  expect((error as Error).message).toBe("cannot connect to Postgres at postgres://bench:***@127.0.0.1:1/db");
  expect(JSON.stringify((error as StoreError).details)).not.toContain("s3cret");
});
