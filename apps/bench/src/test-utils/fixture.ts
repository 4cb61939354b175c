// The tiny made-up dataset the tests run on (test-fixtures/tiny: 12 tools, 7 queries).
import { fileURLToPath } from 'node:url';

/** The fixture dataset folder. */
export const FIXTURE_DIR = fileURLToPath(new URL('../../test-fixtures/tiny', import.meta.url));
