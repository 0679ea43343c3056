import {
  OWNER_VARIABLES,
  TEMPLATE_VARIABLES,
  unfilledPlaceholders,
  type OwnerVariable,
  type TemplateVariable,
} from '@shared/savedReplies';
import type { ThreadDetail } from '@shared/inbox';
import { FACT_FIELDS, missingFacts, type FactKey } from '../bookingFacts';

/** A placeholder the composer asks the owner for, and whether its value is kept on the booking too. */
export interface AskedValue {
  name: TemplateVariable;
  label: string;
  type: 'text' | 'date' | 'number';
  /** The booking's fact it is (kept on the booking as well as put in the text); null: the text only. */
  fact: FactKey | null;
}

const REPLY_ONLY: Record<Exclude<TemplateVariable, OwnerVariable>, string> = {
  listing_name: 'Listing name',
  property_name: 'Property name',
  channel_name: 'Channel',
  booking_number: 'Booking number',
};

/**
 * The variables a text still holds as {{name}}, in the order written, each once, as the composer asks for them:
 * a booking's fact its channel did not send (the guest's name, the stay, the party) is kept on the booking too; any
 * other only goes into the text. A {{placeholder}} that is no variable is not asked for (the owner rewrites it).
 */
export function askedValues(text: string, thread: Pick<ThreadDetail, 'guest' | 'booking'>): AskedValue[] {
  const addable = new Set(missingFacts(thread));
  return unfilledPlaceholders(text)
    .map((p) => p.slice(2, -2))
    .filter((name): name is TemplateVariable => name in TEMPLATE_VARIABLES)
    .map((name) => {
      if (name in OWNER_VARIABLES) {
        const key = OWNER_VARIABLES[name as OwnerVariable];
        return { name, ...FACT_FIELDS[key], fact: addable.has(key) ? key : null };
      }
      return { name, label: REPLY_ONLY[name as keyof typeof REPLY_ONLY], type: 'text' as const, fact: null };
    });
}
