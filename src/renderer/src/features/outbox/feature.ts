import { defineFeature } from '@renderer/lib/feature';
import { useOutboxStore } from './outboxStore';

/** What is on its way to Su: the queue's health, followed on every screen (the screens that send show it). */
export const outboxFeature = defineFeature({
  name: 'outbox',
  shell() {
    const outbox = useOutboxStore();
    return { load: () => outbox.load(), listen: () => outbox.listen() };
  },
});
