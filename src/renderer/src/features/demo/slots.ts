import { defineSlot } from '@renderer/lib/sections';

/**
 * The demo controls' rows after the deliveries (lib/sections.ts): what a later feature lets the owner make happen on
 * the demo (a guest paying a payment link). Each row is named by its section's `label`; its component is the row's
 * controls, named by the element whose id is `labelledBy`.
 */
export const DEMO_ROWS = defineSlot<{ labelledBy: string }>('demo.rows');
