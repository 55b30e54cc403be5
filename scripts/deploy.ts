// `npm run deploy`: deploys the subgraph with graph-cli to the local node, or to the platform when
// DEPLOY_URL and IPFS_URL are set. Access keys in those addresses never reach the output. A current
// build in build/ (`npm run build`) is uploaded as it is and deployed by hash: nothing is compiled again.
import { deploySubgraph, localEndpoints, UploadBuildError } from "subgraph-workbench/deploy";
import { subgraphName } from "../clients/subgraph/index.js";
import { maskSecrets, secretsInUrl } from "subgraph-workbench/lib/redact";
import { currentBuild, formatBuildTime } from "./lib/currentBuild.js";
import { defaultVersionLabel } from "./lib/versionLabel.js";
import { parseCli } from "subgraph-workbench/cli";

const BUILD_DIR = "build";

const { values } = parseCli({
  "version-label": { type: "string", default: defaultVersionLabel() },
  name: { type: "string", default: subgraphName() },
  network: { type: "string", default: process.env.NETWORK ?? "localhost" },
  // The local target's addresses (graph-node's defaults); DEPLOY_URL/IPFS_URL select the platform.
  node: { type: "string", default: localEndpoints.deploy },
  ipfs: { type: "string", default: localEndpoints.ipfs },
});

const deployUrl = process.env.DEPLOY_URL;
const ipfsUrl = process.env.IPFS_URL;
const secrets = [...secretsInUrl(deployUrl ?? ""), ...secretsInUrl(ipfsUrl ?? "")];
const say = (text: string) => console.log(maskSecrets(text, secrets));

try {
  if (Boolean(deployUrl) !== Boolean(ipfsUrl)) throw new Error("set both DEPLOY_URL and IPFS_URL to deploy to the platform, or neither for the local node");
  const platform = Boolean(deployUrl);
  say(`deploying "${values.name}" (version ${values["version-label"]}, network ${values.network}) to ${platform ? maskSecrets(deployUrl ?? "", secrets) : `the local node at ${values.node}`}`);
  // Like graph-cli itself: the subgraph project in the current directory.
  const cwd = process.cwd();
  const deploy = (buildDir?: string) =>
    deploySubgraph({
      name: values.name,
      versionLabel: values["version-label"],
      network: values.network,
      create: !platform,
      deployUrl: deployUrl ?? values.node,
      ipfsUrl: ipfsUrl ?? values.ipfs,
      cwd,
      ...(buildDir ? { buildDir } : {}),
      onOutput: (text) => process.stdout.write(text),
    });
  const build = await currentBuild(cwd, values.network, BUILD_DIR);
  let result;
  if (build.current) {
    say(`deploying the build in ${BUILD_DIR}/ (built ${formatBuildTime(build.builtAt)}; nothing to compile)`);
    try {
      result = await deploy(BUILD_DIR);
    } catch (error) {
      // A build folder with a file missing is rebuilt; an unreachable IPFS would fail graph deploy just the same.
      if (!(error instanceof UploadBuildError)) throw error;
      say(`the build in ${BUILD_DIR}/ cannot be uploaded (${error.message}): graph deploy builds the subgraph`);
      result = await deploy();
    }
  } else {
    say(`${build.reason}: graph deploy builds the subgraph`);
    result = await deploy();
  }
  if (result.deploymentId) say(`deployment: ${result.deploymentId}`);
  say(`query address: ${result.queryUrl ?? "(graph-cli printed none)"}`);
} catch (error) {
  console.error(`error: ${maskSecrets(error instanceof Error ? error.message : String(error), secrets)}`);
  process.exit(1);
}
