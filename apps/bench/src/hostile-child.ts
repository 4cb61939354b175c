// The child process of `bench hostile`: runs one case against its catalog and sends the figures back.
import { serveChildRun } from './child-run.js';
import { measureHostileCase } from './hostile.js';

serveChildRun(measureHostileCase);
