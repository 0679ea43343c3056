import { CONNECTION_AFTER } from '@renderer/features/connection/slots';
import { INBOX_NOTES } from '@renderer/features/inbox/slots';
import { defineFeature } from '@renderer/lib/feature';
import { section } from '@renderer/lib/sections';
import { useMailboxStore } from './mailboxStore';

/**
 * The owner's mailbox: "Receive through my mailbox" on the Connection screen (pairing, its health, what to register
 * with Su), and in the inbox what arrived while this computer was off. Its status is followed on every screen.
 */
export const mailboxFeature = defineFeature({
  name: 'mailbox',
  sections: [
    section(CONNECTION_AFTER, { load: () => import('./MailboxSection.vue') }),
    section(INBOX_NOTES, { load: () => import('./WhileOffNote.vue') }),
  ],
  shell() {
    const mailbox = useMailboxStore();
    return { load: () => mailbox.load(), listen: () => mailbox.listen() };
  },
});
