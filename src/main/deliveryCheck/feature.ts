import { connectionFeature } from '../connection/feature';
import { demoFeature } from '../demo/feature';
import { defineFeature } from '../feature';
import type { HandlerSlice } from '../gateway/dispatcher';
import { intakeFeature } from '../intake/feature';
import { mailboxFeature } from '../mailbox/feature';
import { runDeliveryCheck } from './deliveryCheck';

/**
 * The Connection screen's check of Su's deliveries: through this computer's listener (the intake) or the owner's
 * mailbox, whichever is in use, read from their own status; a call to the public address from this computer; and,
 * where the provider offers one (the built-in demo), a test delivery that arrives in the inbox. After every feature
 * it reads.
 */
export const deliveryCheckFeature = defineFeature({
  name: 'deliveryCheck',
  create(context) {
    const intake = context.use(intakeFeature);
    const mailbox = context.use(mailboxFeature);
    const demo = context.use(demoFeature);
    const { connection } = context.use(connectionFeature);
    const handlers: HandlerSlice<'deliveryCheck'> = {
      'deliveryCheck.run': () =>
        runDeliveryCheck({
          intake: () => intake.status(),
          mailbox: () => mailbox.status(),
          demo: () => (demo && connection.active() === 'demo' && demo.status().running ? demo : null),
          now: context.now,
        }),
    };
    return { handlers };
  },
});
