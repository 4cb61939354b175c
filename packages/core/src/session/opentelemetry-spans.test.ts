import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceToolSearch } from '../opentelemetry.js';
import type { ToolDescriptor } from '../types.js';
import type { ToolSearchEvent } from './telemetry.js';
import { ToolSearchSession } from './tool-search-session.js';

function tools(): ToolDescriptor[] {
  return [
    {
      id: 'get_weather',
      description: 'Get the current weather for a city.',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: async (input) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { forecast: 'sunny', input };
      },
    },
    {
      id: 'send_email',
      description: 'Send an email to a recipient.',
      inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
      execute: () => {
        throw new Error('SMTP unreachable');
      },
    },
  ];
}

function inMemoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('test') };
}

const named = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const millis = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
const durationMs = (span: ReadableSpan | undefined) =>
  span ? millis(span.endTime) - millis(span.startTime) : Number.NaN;

describe('traceToolSearch', () => {
  const contextManager = new AsyncLocalStorageContextManager();
  beforeAll(() => context.setGlobalContextManager(contextManager.enable()));
  afterAll(() => {
    context.disable();
  });

  it('records a span per search, load and call, with their attributes and outcome', async () => {
    const { exporter, tracer } = inMemoryTracing();
    const session = new ToolSearchSession({ catalog: tools() });
    traceToolSearch(session, { tracer });

    const request = { threadId: 't-1' };
    await (await session.prepareStep(request)).execute('search_tools', { query: 'weather in a city' });
    await (await session.prepareStep(request)).execute('load_tool', { toolNames: ['get_weather', 'send_email'] });
    const step = await session.prepareStep(request);
    await step.execute('get_weather', { city: 'Oslo' });
    await step.execute('send_email', { to: 'bob@example.com' });

    const spans = exporter.getFinishedSpans();
    const [search] = named(spans, 'toolscout.search');
    expect(search?.attributes).toMatchObject({
      'toolscout.mode': 'search-load',
      'toolscout.thread_id': 't-1',
      'toolscout.query.length': 'weather in a city'.length,
      'toolscout.hits.count': 1,
      'toolscout.hits.ids': ['get_weather'],
    });
    expect(search?.attributes['toolscout.query']).toBeUndefined(); // the model's text stays out
    expect((search?.attributes['toolscout.hits.scores'] as number[] | undefined)?.[0]).toBeGreaterThan(0.5);

    const [load] = named(spans, 'toolscout.load');
    expect(load?.attributes).toMatchObject({
      'toolscout.requested': ['get_weather', 'send_email'],
      'toolscout.loaded': ['get_weather', 'send_email'],
    });

    const [ok, failed] = named(spans, 'toolscout.call');
    expect(ok?.attributes).toMatchObject({ 'toolscout.tool_id': 'get_weather', 'toolscout.ok': true });
    expect(ok?.status.code).toBe(0); // unset
    expect(durationMs(ok)).toBeCloseTo(ok?.attributes['toolscout.latency_ms'] as number, 2); // timed by the event
    expect(durationMs(ok)).toBeGreaterThanOrEqual(4);
    expect(failed?.attributes).toMatchObject({ 'toolscout.tool_id': 'send_email', 'toolscout.ok': false });
    expect(failed?.status).toMatchObject({ code: 2, message: failed?.attributes['toolscout.error'] }); // ERROR
    const steps = named(spans, 'toolscout.step');
    expect(steps.length).toBe(3);
    // Tokens offered: the two meta-tools, then the two loaded tools too, as measureStep counts them.
    expect(steps.map((span) => span.attributes['toolscout.offered_tokens'])).toEqual([
      (await session.measureStep(await session.prepareStep({ threadId: 'other' }))).offered.tokens,
      expect.any(Number),
      (await session.measureStep(step)).offered.tokens,
    ]);
    expect(steps[2]?.attributes['toolscout.offered_tokens']).toBeGreaterThan(
      steps[0]?.attributes['toolscout.offered_tokens'] as number,
    );
  });

  it("makes each span a child of the span active when the event happened (the framework's own)", async () => {
    const { exporter, tracer } = inMemoryTracing();
    const session = new ToolSearchSession({ catalog: tools() });
    traceToolSearch(session, { tracer });

    const parent = tracer.startSpan('agent.tool_call');
    await context.with(trace.setSpan(context.active(), parent), async () => {
      const step = await session.prepareStep({ threadId: 't-2' });
      await step.execute('search_tools', { query: 'send an email' });
    });
    parent.end();

    const [search] = named(exporter.getFinishedSpans(), 'toolscout.search');
    expect(search?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(search?.spanContext().traceId).toBe(parent.spanContext().traceId);
  });

  it('costs nothing without an SDK, keeps the other listeners, and stops when asked', async () => {
    const events: ToolSearchEvent[] = [];
    const session = new ToolSearchSession({ catalog: tools(), onEvent: (event) => events.push(event) });
    const stop = traceToolSearch(session); // the global provider: none registered, so a no-op tracer
    const step = await session.prepareStep({ threadId: 't-3' });
    const outcome = await step.execute('search_tools', { query: 'weather' });
    expect(outcome.ok).toBe(true);
    expect(events.map((event) => event.type)).toEqual(['step', 'search']);
    // No SDK: the step's tokens are not counted (that would load the tokenizer for nothing).
    expect(events[0]).not.toHaveProperty('offeredTokens');

    const { exporter, tracer } = inMemoryTracing();
    const stopRecorded = traceToolSearch(session, { tracer });
    stopRecorded();
    stop();
    await (await session.prepareStep({ threadId: 't-3' })).execute('search_tools', { query: 'email' });
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(['step', 'search', 'step', 'search']);
  });

  it("counts a step's tokens once an SDK registers a global provider, and for a listener that asks", async () => {
    const events: ToolSearchEvent[] = [];
    const session = new ToolSearchSession({ catalog: tools() });
    session.subscribe((event) => events.push(event));
    const stop = traceToolSearch(session);
    const { exporter, tracer } = inMemoryTracing();
    const provider = { getTracer: () => tracer };
    trace.setGlobalTracerProvider(provider);
    try {
      await session.prepareStep({ threadId: 't-4' });
      const [span] = named(exporter.getFinishedSpans(), 'toolscout.step');
      expect(span?.attributes['toolscout.offered_tokens']).toBeGreaterThan(50);
      // Every listener sees the field once one asked for it.
      expect((events[0] as { offeredTokens?: number }).offeredTokens).toBe(
        span?.attributes['toolscout.offered_tokens'],
      );
    } finally {
      stop();
      trace.disable();
    }
    const asked: ToolSearchEvent[] = [];
    session.subscribe((event) => asked.push(event), { offeredTokens: true });
    await session.prepareStep({ threadId: 't-4' });
    expect((asked[0] as { offeredTokens?: number }).offeredTokens).toBeGreaterThan(50);
  });
});
