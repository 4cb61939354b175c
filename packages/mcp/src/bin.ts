#!/usr/bin/env node
// The `toolscout-mcp` bin (package.json `bin`, the root `toolscout-mcp` script): the gateway's process.
import './gateway/bin.js';
