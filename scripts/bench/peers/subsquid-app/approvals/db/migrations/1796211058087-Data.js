module.exports = class Data1796211058087 {
    name = 'Data1796211058087'

    async up(db) {
        await db.query(`CREATE TABLE "approval" ("id" character varying NOT NULL, "owner" text NOT NULL, "spender" text NOT NULL, "value" numeric NOT NULL, CONSTRAINT "PK_97bfd1cd9dff3c1302229da6b5c" PRIMARY KEY ("id"))`)
    }

    async down(db) {
        await db.query(`DROP TABLE "approval"`)
    }
}
