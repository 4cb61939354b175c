#!/usr/bin/env node
// The toolscout bin (package.json `bin`): Node's compile cache on, as npm's own bin does (from the
// second run on, the command's modules load without compiling them again; a no-op on Node before
// 22.8, off with NODE_DISABLE_COMPILE_CACHE), then the command (main.ts).
import module from 'node:module';

module.enableCompileCache?.();
await import('./main.js');
