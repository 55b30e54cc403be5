import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts `server` on 127.0.0.1 only (`port` 0 picks a free port). Closing also drops open keep-alive
 * connections, so a node shuts down at once. Every server of the local node starts through here.
 */
export async function listenOnLoopback(server: Server, port: number): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
