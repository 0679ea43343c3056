import { describe, expect, it } from 'vitest';
import { resultingValue } from '../../src/shared/rateSetups';

describe('the number a channel ends up with', () => {
  it.each([
    ['inventory', 4, undefined, 4],
    ['inventory', 4, { type: 'Fixed', value: 2 }, 2],
    ['inventory', 4, { type: 'Increase', value: 1 }, 5],
    ['inventory', 4, { type: 'Decrease', value: 3 }, 1],
    // The provider posts a negative inventory result as 0.
    ['inventory', 2, { type: 'Decrease', value: 5 }, 0],
    ['rate', 120, { type: 'Multiply', value: 0.9 }, 108],
    ['rate', 99.99, { type: 'Multiply', value: 1.1 }, 109.99],
    ['rate', 120, { type: 'Decrease', value: 15.5 }, 104.5],
    ['rate', 120, { closed: true }, 120],
    ['rate', 120, { type: 'Increase', value: 10, closed: true }, 130],
    ['rate', null, { type: 'Fixed', value: 90 }, null],
  ] as const)('%s base %s with %j is %s', (level, base, rule, expected) => {
    expect(resultingValue(level, base, rule)).toBe(expected);
  });
});
