import { CONNECTION_AFTER } from '@renderer/features/connection/slots';
import { defineFeature } from '@renderer/lib/feature';
import { section } from '@renderer/lib/sections';
import { useIntakeStore } from './intakeStore';

/**
 * Where Su delivers: the listener's section of the Connection screen, and its status followed on every screen (the
 * inbox's empty state says where messages would arrive).
 */
export const intakeFeature = defineFeature({
  name: 'intake',
  sections: [section(CONNECTION_AFTER, { load: () => import('./IntakeSection.vue') })],
  shell() {
    const intake = useIntakeStore();
    return { load: () => intake.load(), listen: () => intake.listen() };
  },
});
