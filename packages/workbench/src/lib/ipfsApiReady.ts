// Waiting for an IPFS RPC API to answer: graph-cli's `build --ipfs` uploads at the end of its build and
// fails outright on a refused connection, so a build beside a starting node starts once the API is up.

export interface IpfsApiReadyOptions {
  timeoutMs: number;
  /** Settles when whatever serves the API has failed to start: waiting stops with its error. */
  gaveUp?: Promise<unknown>;
}

/** Between attempts: a start-up's IPFS API answers within a few of them. */
const RETRY_MS = 50;

/** True when the IPFS RPC API at `url` answers `POST /api/v0/version` with a success. */
export async function ipfsApiAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(new URL("/api/v0/version", url), { method: "POST", signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** Resolves once the IPFS RPC API at `url` answers; rejects after `timeoutMs`, or with `gaveUp`'s error. */
export async function waitForIpfsApi(url: string, options: IpfsApiReadyOptions): Promise<void> {
  let failure: unknown = null;
  let failed = false;
  options.gaveUp?.then(
    () => undefined,
    (error: unknown) => {
      failure = error;
      failed = true;
    },
  );
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await ipfsApiAnswers(url)) return;
    if (failed) throw failure;
    if (Date.now() > deadline) throw new Error(`the IPFS API at ${url} did not answer within ${(options.timeoutMs / 1000).toFixed(1)} s`);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
