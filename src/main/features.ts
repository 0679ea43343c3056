import type { Method } from '../shared/contract';
import { appFeature } from './app/feature';
import { connectionFeature } from './connection/feature';
import { dataFileFeature } from './dataFile/feature';
import { deliveryCheckFeature } from './deliveryCheck/feature';
import { demoFeature } from './demo/feature';
import { desktopFeature } from './desktop/feature';
import { inboxFeature } from './inbox/feature';
import { intakeFeature } from './intake/feature';
import { mailboxFeature } from './mailbox/feature';
import { noticesFeature } from './notices/feature';
import { outboxFeature } from './outbox/feature';
import { paymentsFeature } from './payments/feature';
import { photosFeature } from './photos/feature';
import { propertyFeature } from './property/feature';
import { ratesFeature } from './rates/feature';
import { savedRepliesFeature } from './savedReplies/feature';

/**
 * Every feature of the core, in order: each is built after the ones it uses (`context.use`), started in this order
 * and stopped in the reverse one. A feature folder may import only the folders of features above it (lint checks
 * it: eslint.config.js reads this list). A new feature is one line here.
 */
export const FEATURES = [
  appFeature,
  connectionFeature,
  intakeFeature,
  demoFeature,
  outboxFeature,
  inboxFeature,
  // After every feature that files deliveries: a restore files again what the damaged file held, as it is built.
  dataFileFeature,
  savedRepliesFeature,
  ratesFeature,
  propertyFeature,
  photosFeature,
  noticesFeature,
  paymentsFeature,
  desktopFeature,
  // After every filer: it collects from the owner's mailbox once they have all started, and stops before them.
  mailboxFeature,
  // Reads the intake's and the mailbox's status and the demo's test delivery: after all three.
  deliveryCheckFeature,
] as const;

// Every contract method is answered by one feature of the list (checked here as types, and by the core at start).
type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;
type HandlersOf<F> = F extends { create(...args: never[]): infer P }
  ? P extends { handlers: infer H }
    ? H
    : never
  : never;
type Answered = keyof UnionToIntersection<HandlersOf<(typeof FEATURES)[number]>>;
const everyMethodAnswered: [Method] extends [Answered] ? true : { unanswered: Exclude<Method, Answered> } = true;
void everyMethodAnswered;
