import { CONNECTION_FORM } from '@renderer/features/connection/slots';
import { defineFeature } from '@renderer/lib/feature';
import { section } from '@renderer/lib/sections';

/**
 * The built-in demo provider: its deliveries on demand, in the Connection screen's form while its settings are on
 * screen (the inbox's empty state shows the same controls; later features add rows to them: DEMO_ROWS).
 */
export const demoFeature = defineFeature({
  name: 'demo',
  sections: [section(CONNECTION_FORM, { load: () => import('./DemoSection.vue') })],
});
