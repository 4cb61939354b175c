import { describe, expect, it } from 'vitest';
import { ToolCallFailedError } from '../errors.js';
import type { ToolCallError } from '../session/step-types.js';
import { thrown } from '../test-utils/thrown.js';
import { createRefusalCarrier } from './carried-refusal.js';

const refusal: ToolCallError = {
  code: 'not-loaded',
  message: 'Tool "x" is not loaded.',
  toolName: 'x',
  suggestions: ['y'],
  cause: new Error('not serializable'),
};

describe('createRefusalCarrier', () => {
  it('carries a refusal in JSON input and throws it where the input arrives', () => {
    const carrier = createRefusalCarrier();
    const input: unknown = JSON.parse(carrier.carry(refusal));
    const error = thrown(() => carrier.rethrow(input));
    expect(ToolCallFailedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'not-loaded', toolName: 'x', suggestions: ['y'], message: refusal.message });
  });

  it('leaves other input alone, including what another carrier carries', () => {
    const carrier = createRefusalCarrier();
    expect(() => carrier.rethrow({ city: 'Oslo' })).not.toThrow();
    expect(() => carrier.rethrow('text')).not.toThrow();
    expect(() => carrier.rethrow(JSON.parse(createRefusalCarrier().carry(refusal)))).not.toThrow();
    const [key] = Object.keys(JSON.parse(carrier.carry(refusal)));
    expect(() => carrier.rethrow({ [key!]: { message: 7 } })).not.toThrow();
  });
});
