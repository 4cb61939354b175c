import { afterEach } from 'vitest';

/** Something a test opened and that must not outlive it: a gateway, an endpoint, a client. */
export interface Closable {
  close(): Promise<unknown>;
}

/**
 * A list to push what a test opens onto; after each test, everything on it is closed, the last
 * opened first (clients before the servers they talk to), and the list emptied.
 */
export function closedAfterEach(): Closable[] {
  const open: Closable[] = [];
  afterEach(async () => {
    await Promise.allSettled(
      open
        .splice(0)
        .reverse()
        .map((item) => item.close()),
    );
  });
  return open;
}
