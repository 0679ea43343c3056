import { demoFeature } from '../demo/feature';
import { defineFeature } from '../feature';
import { intakeFeature } from '../intake/feature';
import { photosFeature } from '../photos/feature';
import { mailboxHandlers } from './handlers';
import { createMailboxService, type MailboxEnvironment } from './mailboxService';
import { MAILBOX_MIGRATIONS } from './migrations';

/**
 * The owner's mailbox: an always-on receiver Su delivers to instead of this computer, paired once and collected
 * from over one outbound connection. Each delivery is opened with this computer's key and filed by the intake
 * exactly as a push to its listener (`fileCollected`: idempotent, quarantine included, the inbox's news and the
 * tray's notification as usual), with the position saved in the same transaction.
 *
 * Reads the host option `mailboxEnv` (INNKEEPER_MAILBOX_URL / _CODE: pairing at start), and gives the mailbox the
 * intake's credentials for Su (INNKEEPER_PUSH_USER / _PASSWORD, else the saved ones).
 */
export const mailboxFeature = defineFeature({
  name: 'mailbox',
  migrations: MAILBOX_MIGRATIONS,
  create(context) {
    const intake = context.use(intakeFeature);
    const options = context.options as { mailboxEnv?: MailboxEnvironment };
    let announce = () => {};
    const mailbox = createMailboxService({
      database: context.database,
      settings: context.settings,
      secrets: context.secrets,
      now: context.now,
      env: options.mailboxEnv ?? {},
      pushCredentials: () => intake.pushCredentials(),
      fileCollected: (deliveries, alsoWrite, source) => intake.fileCollected(deliveries, alsoWrite, source),
      onChange: () => announce(),
    });
    const feature = mailboxHandlers({ mailbox, events: context.events });
    announce = () => void feature.changed();
    // The built-in demo runs a mailbox of its own (inside Innkeeper, on 127.0.0.1): paired and collected from here.
    context.use(demoFeature)?.mailbox.attach({
      pair: (url, code, credentials) => mailbox.pairDemo(url, code, credentials),
      unpair: () => mailbox.unpairDemo(),
      pause: () => mailbox.pause(),
      resume: () => mailbox.resume(),
    });
    // With a mailbox paired, the photos Su fetches are handed to it and served there (no tunnel needed).
    context.use(photosFeature).mailboxMedia.attach(() => mailbox.media());
    return {
      handlers: feature.handlers,
      // SECURITY: the pairing code from INNKEEPER_MAILBOX_CODE is not in the secret file: guarded all the same. (The
      // device's private key and its credential at the mailbox are in the secret file, guarded with the others.)
      secrets: () => mailbox.environmentSecrets(),
      provides: { status: () => mailbox.status() },
      start: () => mailbox.start(),
      stop: () => mailbox.stop(),
    };
  },
});
