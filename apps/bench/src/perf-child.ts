// The child process of `bench perf`: measures one engine at one size and sends the figures back.
import { serveChildRun } from './child-run.js';
import { measureEngine } from './perf.js';

serveChildRun(measureEngine);
