// npm run move -- tx <hash> | message <address> [--history]   (see clients/move/moveCommand.ts for options)
import { config } from "dotenv";
import { MoveClientError, MOVE_USAGE, parseMoveArgs, runMoveCommand, toJson, UsageError } from "../clients/move/index.js";

config({ quiet: true });

try {
  const command = parseMoveArgs(process.argv.slice(2), process.env);
  console.log(toJson(await runMoveCommand(command)));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${MOVE_USAGE}`);
    process.exitCode = 2;
  } else if (error instanceof MoveClientError) {
    console.error(`${error.name}: ${error.message}`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
