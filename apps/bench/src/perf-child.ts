// The child process of `bench perf`: measures one engine at one size and sends the figures back.
import type { ChildMessage } from './child-run.js';
import { type EngineFigures, measureEngine, type PerfProgress, type PerfRequest } from './perf.js';

function send(message: ChildMessage<EngineFigures, PerfProgress>): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) resolve();
    else process.send(message, undefined, {}, () => resolve());
  });
}

process.once('message', async (request: PerfRequest) => {
  try {
    const figures = await measureEngine(request, {
      ready: () => void send({ type: 'ready' }),
      progress: (progress) => void send({ type: 'progress', value: progress }),
    });
    await send({ type: 'result', value: figures });
  } catch (error) {
    await send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
  process.exit(0);
});
