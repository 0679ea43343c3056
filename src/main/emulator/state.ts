import { randomBytes } from 'node:crypto';
import type { EmulatorOptions } from './options';

/** A property as the emulator's provider knows it. */
export interface EmulatedProperty {
  hotelid: string;
  name: string;
}

/** Everything the emulator remembers between requests. */
export interface EmulatorState {
  options: EmulatorOptions;
  /** Seconds added to the wall clock, so tests can make tokens expire without waiting. */
  clockOffsetMs: number;
  now(): number;
  tokens: Map<string, { expiresAt: number }>;
  /** Issue times per client-id, for the 30-per-hour limit. */
  issued: Map<string, number[]>;
  properties: EmulatedProperty[];
  /** Every request received on the Su paths, newest last (headers minus secrets). */
  requests: { method: string; path: string; at: number; status?: number }[];
  newToken(): string;
}

export function createEmulatorState(options: EmulatorOptions): EmulatorState {
  const state: EmulatorState = {
    options,
    clockOffsetMs: 0,
    now: () => Date.now() + state.clockOffsetMs,
    tokens: new Map(),
    issued: new Map(),
    properties: [
      { hotelid: 'IK-DEMO-001', name: 'Harbour View Guesthouse' },
      { hotelid: 'IK-DEMO-002', name: 'Old Town Loft' },
    ],
    requests: [],
    newToken: () =>
      `${options.environment === 'production' ? 'live_' : 'sandbox_'}${randomBytes(24).toString('base64url')}`,
  };
  return state;
}
