import { CONNECTION_AFTER } from '@renderer/features/connection/slots';
import { defineFeature } from '@renderer/lib/feature';
import { section } from '@renderer/lib/sections';

/** "Start Innkeeper when I log in": a section of the Connection screen, under the listener's. */
export const desktopFeature = defineFeature({
  name: 'desktop',
  sections: [section(CONNECTION_AFTER, { load: () => import('./StartAtLoginSection.vue') })],
});
