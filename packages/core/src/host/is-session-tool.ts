import { InvalidOptionError } from '../errors.js';
import type { ToolSearchSession } from '../session/tool-search-session.js';

/** Where a host's tools are given, for the error of a clash: `createAgent's tools`, and its own `tools` option. */
export interface HostToolPlaces {
  /** Where the framework's own tools are registered (`createAgent's tools`). */
  registered: string;
  /** The host's option of tools offered at every step (`the middleware's tools`). */
  direct: string;
}

/**
 * Whether a tool the framework has registered itself belongs to the session (a meta-tool, or a
 * catalog or direct tool of that name), for a host that offers the session's tools beside the
 * framework's: such a tool must be the session's very object (the descriptor's `tool`). Another
 * object under a name of the session's is an {@link InvalidOptionError} (`tools`) naming it: the
 * model could not tell the two apart.
 */
export function isSessionTool<TTool>(
  session: ToolSearchSession<TTool>,
  name: string,
  tool: unknown,
  places: HostToolPlaces,
): boolean {
  const isMeta = session.isMetaTool(name);
  const own = session.resolve(name);
  if (!isMeta && own === undefined) return false;
  if (own?.tool === tool) return true;
  const what = isMeta ? 'a toolscout meta-tool' : 'a different tool in the toolscout catalog or tools';
  throw new InvalidOptionError(
    'tools',
    `${places.registered} include a tool named "${name}", and ${what} has that name. Give each tool once: in the toolscout catalog (searchable) or ${places.direct} (always offered), or rename it.`,
  );
}
