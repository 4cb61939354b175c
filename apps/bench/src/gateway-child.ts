// The gateway under test in `bench gateway`: the real McpGateway behind serveHttp on a loopback port,
// in front of in-process upstreams, in a process of its own so that its memory figures are its own.
// Driven over IPC (see GatewayCommand in gateway.ts): it reports its memory and sessions on request.
import { McpGateway, serveHttp, silentLogger } from '@toolscout/mcp-gateway';
import type { GatewayChildMessage, GatewayCommand, GatewaySample } from './gateway.js';
import { createUpstreamServer, UPSTREAM_SERVERS } from './gateway-upstreams.js';
import { garbageCollector } from './gc.js';

const MIB = 1024 * 1024;
/** How often the heap is sampled for its peak, in ms. */
const PEAK_SAMPLE_MS = 20;

function send(message: GatewayChildMessage): void {
  process.send?.(message);
}

async function start(idleMs: number) {
  const gateway = new McpGateway({
    servers: Object.fromEntries(UPSTREAM_SERVERS.map((name) => [name, { server: createUpstreamServer(name) }])),
    logger: silentLogger,
  });
  await gateway.start();
  const endpoint = await serveHttp(gateway, {
    port: 0,
    host: '127.0.0.1',
    sessionIdleMs: idleMs,
    logger: silentLogger,
  });
  return { gateway, endpoint };
}

/** Reports a failure to the bench, then exits. */
function fail(error: unknown): void {
  const message: GatewayChildMessage = {
    type: 'error',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  };
  if (process.send) process.send(message, () => process.exit(1));
  else process.exit(1);
}

process.once('message', async (command: GatewayCommand) => {
  if (command.type !== 'start') return fail(`the gateway child must be started first, got "${command.type}"`);
  const gc = garbageCollector();
  let peakHeap = 0;
  let peakSessions = 0;
  let running: Awaited<ReturnType<typeof start>> | undefined;
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    peakSessions = Math.max(peakSessions, running?.endpoint.sessionCount ?? 0);
  }, PEAK_SAMPLE_MS);
  try {
    running = await start(command.idleMs);
  } catch (error) {
    return fail(error);
  }
  const { gateway, endpoint } = running;
  const sample = (): GatewaySample => {
    const memory = process.memoryUsage();
    peakHeap = Math.max(peakHeap, memory.heapUsed);
    peakSessions = Math.max(peakSessions, endpoint.sessionCount);
    const cpu = process.cpuUsage();
    return {
      rssMB: memory.rss / MIB,
      heapMB: memory.heapUsed / MIB,
      peakRssMB: process.resourceUsage().maxRSS / 1024,
      peakHeapMB: peakHeap / MIB,
      sessions: endpoint.sessionCount,
      peakSessions,
      threads: gateway.searchServer.session.memoryStore?.stats().threads ?? 0,
      cpuS: (cpu.user + cpu.system) / 1e6,
    };
  };
  process.on('message', async (next: GatewayCommand) => {
    if (next.type === 'sample') {
      if (next.gc) {
        gc();
        gc();
      }
      const value = sample();
      if (next.resetPeak) {
        peakHeap = 0;
        peakSessions = 0;
      }
      send({ type: 'sample', value });
    } else if (next.type === 'stop') {
      clearInterval(sampler);
      await endpoint.close();
      await gateway.close();
      process.exit(0);
    }
  });
  send({ type: 'listening', url: endpoint.url.href, tools: gateway.catalog.size });
});
