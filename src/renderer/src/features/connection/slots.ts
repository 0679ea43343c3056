import type { Environment } from '@shared/environments';
import { defineSlot } from '@renderer/lib/sections';

// The Connection screen's places that later features fill with sections of their own (lib/sections.ts).

/**
 * In the settings form, under the choice of provider: a section about the provider whose settings are on screen
 * (`environment`, not yet saved perhaps); the demo's deliveries.
 */
export const CONNECTION_FORM = defineSlot<{ environment: Environment }>('connection.form');

/** Under the settings form, once they are read: the other sections (receiving deliveries, start at login). */
export const CONNECTION_AFTER = defineSlot('connection.after');

/**
 * The setup guide's last parts, after the account's own (an item of its list each): what Su needs to deliver guest
 * messages and reviews, and its check.
 */
export const CONNECTION_GUIDE = defineSlot('connection.guide');
