// How a session feeds learning from use (the `feedback` option): a thread's `search_tools` query,
// then the catalog tools the model calls after it.
import type { ToolCatalog } from '../catalog/catalog.js';
import { type FeedbackOptions, ToolFeedback } from '../feedback/tool-feedback.js';
import { toolTerms, toolTermTexts } from '../index/tool-document.js';
import type { CatalogTool } from '../types.js';
import type { StepRequest } from './step-types.js';
import { threadKey } from './thread-key.js';

/** The session's learning from use over `catalog`: none unless `feedback` is `true` or options. */
export function feedbackOf<TTool>(
  option: boolean | FeedbackOptions | undefined,
  catalog: ToolCatalog<TTool>,
): ToolFeedback | undefined {
  if (option === undefined || option === false) return undefined;
  // Each tool's terms once (a replaced tool is a new object, so its terms are made again).
  const terms = new WeakMap<CatalogTool<TTool>, ReadonlySet<string>>();
  return new ToolFeedback(option, (id) => {
    const tool = catalog.get(id);
    if (tool === undefined) return undefined;
    const known = terms.get(tool) ?? new Set(toolTermTexts(toolTerms(tool)).flat());
    terms.set(tool, known);
    return known;
  });
}

/** Remembers a model's search as its thread's last (a request without a thread id is not learned from); returns the query. */
export function noteSearch(feedback: ToolFeedback | undefined, request: StepRequest, query: string): string {
  const key = feedback && threadKey(request);
  if (key !== undefined) feedback?.searched(key, query);
  return query;
}

/** Records a call the session ran, when the tool is the catalog's (not a direct or a request's own tool). */
export async function noteCall<TTool>(
  feedback: ToolFeedback | undefined,
  request: StepRequest,
  tool: CatalogTool<TTool>,
  catalog: ToolCatalog<TTool>,
  directTools: readonly CatalogTool<TTool>[],
  ok: boolean,
): Promise<void> {
  const key = feedback && threadKey(request);
  if (key === undefined || !feedback || directTools.includes(tool) || catalog.get(tool.id) === undefined) return;
  await feedback.called(key, tool.id, ok ? 'ok' : 'failed');
}
