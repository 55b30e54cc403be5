#!/usr/bin/env node
// The compiled command (dist/ is built when the package is packed, and when the workspace installs).
import "../dist/cli/main.js";
