// The MCP conformance runner (@modelcontextprotocol/conformance, the protocol's own server-scenario
// runner) against server-everything reached directly and through the toolscout-mcp gateway, over
// Streamable HTTP and over stdio. The runner drives only HTTP servers: a stdio server is reached
// through a relay that forwards JSON-RPC messages unchanged (test-utils/stdio-http-bridge.ts), the
// same relay for the direct server and for the gateway, so the two stdio runs differ only in the
// gateway. Over HTTP the server and the gateway are processes (server-everything's own HTTP entry
// point, the toolscout-mcp command). The runner opens a session per scenario, and a stdio process
// serves one session, so over stdio both are served in this process, on the stdio transport their
// commands run (the SDK's StdioServerTransport for server-everything, serveStdio for the gateway,
// whose upstream is server-everything as a child process): a process per scenario would cost a
// second each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConformanceResult,
  freePort,
  type HttpServerProcess,
  runServerConformance,
  startHttpServer,
} from '../test-utils/conformance-runner.js';
import {
  assertGatewayBuilt,
  GATEWAY_BIN,
  nodeServer,
  REFERENCE_SERVERS,
  writeConfig,
} from '../test-utils/gateway-process.js';
import { bridgeStdioToHttp, sdkStdioInProcess, serveStdioInProcess } from '../test-utils/stdio-http-bridge.js';
import { silentLogger } from './logger.js';
import { McpGateway, type McpServerLike } from './mcp-gateway.js';

/** server-everything's server factory, which its stdio and HTTP entry points serve. */
const EVERYTHING_SERVER = join(dirname(REFERENCE_SERVERS.everything), 'server/index.js');

/** Scenarios that need the runner's own reference tools, prompts or resources (`test_*`): server-everything has none. */
const NEEDS_REFERENCE_SERVER = [
  'completion-complete',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'elicitation-sep1034-defaults',
  'elicitation-sep1330-enums',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
];

describe('the MCP conformance runner: server-everything directly and through the gateway', { timeout: 240_000 }, () => {
  let dir: string;
  const stops: (() => Promise<void>)[] = [];
  const results: Record<string, ConformanceResult> = {};

  beforeAll(async () => {
    assertGatewayBuilt();
    dir = mkdtempSync(join(tmpdir(), 'toolscout-conformance-'));
    const everythingStdio = nodeServer(REFERENCE_SERVERS.everything, ['stdio']);
    const config = writeConfig(dir, { everything: everythingStdio });
    const port = await freePort();
    const directHttp: HttpServerProcess = await startHttpServer(
      [REFERENCE_SERVERS.everything, 'streamableHttp'],
      /listening on port \d+/,
      { env: { PORT: String(port) }, url: `http://127.0.0.1:${port}/mcp` },
    );
    stops.push(directHttp.stop);
    const gatewayHttp = await startHttpServer(
      [GATEWAY_BIN, '--config', config, '--http', '0'],
      /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/,
    );
    stops.push(gatewayHttp.stop);
    const { createServer } = (await import(pathToFileURL(EVERYTHING_SERVER).href)) as {
      createServer: () => { server: McpServerLike; cleanup: () => void };
    };
    const directStdio = await bridgeStdioToHttp(sdkStdioInProcess(createServer));
    stops.push(() => directStdio.close());
    const gateway = new McpGateway({
      servers: { everything: everythingStdio },
      soleSession: true,
      logger: silentLogger,
    });
    stops.push(() => gateway.close());
    await gateway.start();
    const gatewayStdio = await bridgeStdioToHttp(serveStdioInProcess(gateway));
    stops.push(() => gatewayStdio.close());
    // One run at a time: the machine running the suite may be small.
    const runs = { directHttp, gatewayHttp, directStdio, gatewayStdio };
    for (const [name, { url }] of Object.entries(runs)) {
      const started = Date.now();
      results[name] = await runServerConformance(url);
      const { passed } = results[name]!;
      console.log(`${name}: ${passed.length} passed in ${Date.now() - started} ms: ${passed.join(', ')}`);
    }
  }, 240_000);

  afterAll(async () => {
    await Promise.allSettled(stops.reverse().map((stop) => stop()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes over Streamable HTTP every scenario the server passes directly', () => {
    expect(results.directHttp!.passed.length).toBeGreaterThan(0);
    const missing = results.directHttp!.passed.filter((scenario) => !results.gatewayHttp!.passed.includes(scenario));
    expect(missing.map((scenario) => `${scenario}: ${results.gatewayHttp!.why[scenario]}`)).toEqual([]);
  });

  it('passes over stdio every scenario the server passes directly', () => {
    expect(results.directStdio!.passed.length).toBeGreaterThan(0);
    const missing = results.directStdio!.passed.filter((scenario) => !results.gatewayStdio!.passed.includes(scenario));
    expect(missing.map((scenario) => `${scenario}: ${results.gatewayStdio!.why[scenario]}`)).toEqual([]);
  });

  it('fails only scenarios that need the runner’s reference server (its test_* tools, prompts and resources)', () => {
    for (const [name, run] of Object.entries(results)) {
      // server-everything's own HTTP entry point answers any Host header.
      const known =
        name === 'directHttp' ? [...NEEDS_REFERENCE_SERVER, 'dns-rebinding-protection'] : NEEDS_REFERENCE_SERVER;
      const unexplained = run.failed.filter((scenario) => !known.includes(scenario));
      expect(unexplained.map((scenario) => `${scenario}: ${run.why[scenario]}`)).toEqual([]);
    }
  });
});
