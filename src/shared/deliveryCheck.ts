import { noArgs } from './validation';
import { defineSlice } from './contractSlice';

// Whether Su's deliveries (guest messages and reviews) can reach Innkeeper, checked step by step for the Connection
// screen's setup guide: through this computer's listener, or through the owner's mailbox when one is paired.

/** The steps, in the order a delivery passes them. */
export type DeliveryStepName = 'listener' | 'mailbox' | 'credentials' | 'address' | 'reach' | 'delivery';

/** One step: passed, failed (with what to fix), or skipped (not needed here, or not possible; the text says which). */
export interface DeliveryCheckStep {
  step: DeliveryStepName;
  outcome: 'passed' | 'failed' | 'skipped';
  /** What was found, in the owner's words. */
  text: string;
  /** The setting to change on the Connection screen, named as the screen names it (null when none). */
  fix: string | null;
}

/** The whole check. */
export interface DeliveryCheck {
  /** Where Su's deliveries go: this computer's listener, or the owner's mailbox. */
  via: 'listener' | 'mailbox';
  /** True when no step failed. */
  ok: boolean;
  steps: DeliveryCheckStep[];
  checkedAt: number;
}

/** The delivery check's slice of the contract. */
export const deliveryCheckMethods = {
  'deliveryCheck.run': noArgs,
} as const;

export interface DeliveryCheckResults {
  'deliveryCheck.run': DeliveryCheck;
}

/** The delivery check slice of the contract (listed in contract.ts). */
export const deliveryCheckContract = defineSlice<DeliveryCheckResults>()(deliveryCheckMethods, []);
