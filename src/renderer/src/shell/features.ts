import { connectionFeature } from '@renderer/features/connection/feature';
import { dataFileFeature } from '@renderer/features/dataFile/feature';
import { deliveryCheckFeature } from '@renderer/features/deliveryCheck/feature';
import { demoFeature } from '@renderer/features/demo/feature';
import { desktopFeature } from '@renderer/features/desktop/feature';
import { inboxFeature } from '@renderer/features/inbox/feature';
import { mailboxFeature } from '@renderer/features/mailbox/feature';
import { intakeFeature } from '@renderer/features/intake/feature';
import { outboxFeature } from '@renderer/features/outbox/feature';
import { paymentsFeature } from '@renderer/features/payments/feature';
import { propertyFeature } from '@renderer/features/property/feature';
import { ratesFeature } from '@renderer/features/rates/feature';
import { savedRepliesFeature } from '@renderer/features/savedReplies/feature';

/**
 * Every renderer feature, in the order of their dependencies: a feature folder may import only the folders of the
 * features above it (lint checks it: eslint.config.js reads this list), and fills the places of their screens with
 * its sections (lib/sections.ts). The shell builds its routes, navigation, sections and hooks from this list (the
 * sidebar's order is each navigation entry's own). A new screen is one folder and one line here.
 */
export const FEATURES = [
  connectionFeature,
  dataFileFeature,
  intakeFeature,
  demoFeature,
  savedRepliesFeature,
  outboxFeature,
  inboxFeature,
  mailboxFeature,
  paymentsFeature,
  ratesFeature,
  propertyFeature,
  desktopFeature,
  deliveryCheckFeature,
] as const;
