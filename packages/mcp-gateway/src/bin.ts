#!/usr/bin/env node
// The toolscout-mcp bin: Node's compile cache on (a quicker second start; NODE_DISABLE_COMPILE_CACHE=1 turns it off), then main.ts.
import module from 'node:module';

module.enableCompileCache?.();
await import('./main.js');
