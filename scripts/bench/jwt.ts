// `npm run bench:jwt`: marketplace token validations per second (clients/marketplace/validate.bench.ts).
import { runJwtBench } from "../../clients/marketplace/validate.bench.js";

await runJwtBench();
