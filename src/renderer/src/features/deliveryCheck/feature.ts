import { CONNECTION_GUIDE } from '@renderer/features/connection/slots';
import { defineFeature } from '@renderer/lib/feature';
import { section } from '@renderer/lib/sections';

/**
 * The setup guide's part on Su's deliveries: what to give Su (from the listener's or the mailbox's own status) and the
 * check that they reach Innkeeper. After both, whose stores it reads.
 */
export const deliveryCheckFeature = defineFeature({
  name: 'deliveryCheck',
  sections: [section(CONNECTION_GUIDE, { load: () => import('./DeliveriesPart.vue') })],
});
