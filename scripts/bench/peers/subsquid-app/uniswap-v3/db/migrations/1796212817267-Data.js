module.exports = class Data1796212817267 {
    name = 'Data1796212817267'

    async up(db) {
        await db.query(`CREATE TABLE "swap" ("id" character varying NOT NULL, "sender" text NOT NULL, "recipient" text NOT NULL, "amount0" numeric NOT NULL, "amount1" numeric NOT NULL, "sqrt_price_x96" numeric NOT NULL, "liquidity" numeric NOT NULL, "tick" numeric NOT NULL, CONSTRAINT "PK_4a10d0f359339acef77e7f986d9" PRIMARY KEY ("id"))`)
    }

    async down(db) {
        await db.query(`DROP TABLE "swap"`)
    }
}
