// Which store the local node opens: PGlite by default, DATABASE_URL when set, never both flags at once.
import { describe, expect, it } from "vitest";
import { openNodeDatabase } from "./nodeDatabase.js";

describe("openNodeDatabase", () => {
  it("defaults to embedded PGlite", async () => {
    const db = await openNodeDatabase({ postgres: false, postgresDir: "unused", env: {} });
    expect(db.databaseUrl).toBeUndefined();
    expect(db.describe).toBe("embedded PGlite");
  });

  it("uses the server DATABASE_URL names, and starts nothing", async () => {
    const db = await openNodeDatabase({ postgres: false, postgresDir: "unused", env: { DATABASE_URL: "postgres://u:p@127.0.0.1:5432/db" } });
    expect(db.databaseUrl).toBe("postgres://u:p@127.0.0.1:5432/db");
  });

  it("refuses --postgres together with DATABASE_URL", async () => {
    await expect(openNodeDatabase({ postgres: true, postgresDir: "unused", env: { DATABASE_URL: "postgres://127.0.0.1/db" } })).rejects.toThrow(
      "both --postgres and DATABASE_URL are set: choose one (unset DATABASE_URL to use the embedded server)",
    );
  });
});
