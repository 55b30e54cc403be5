// The proof of indexing follows the data: a deployment's journal of recorded events is hashed into its
// `Poi$` digests when a proof is asked for, or in the background once it has synced.
export { createProofService, JOURNAL_CHUNK, type ProofService, type ProofServiceOptions, type ProofStore } from "./proofService.js";
