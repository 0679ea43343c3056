import { defineFeature } from '@renderer/lib/feature';

/** The owner's reply templates: a menu of the inbox's reply box (the inbox imports it), nothing of the shell's. */
export const savedRepliesFeature = defineFeature({ name: 'savedReplies' });
