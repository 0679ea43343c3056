import { z } from 'zod';
import { channelProfile } from './channels';

/** The variables a saved reply can use, written {{name}} in its text. */
export const TEMPLATE_VARIABLES = {
  guest_first_name: 'the guest’s first name',
  check_in: 'the check-in date',
  check_out: 'the check-out date',
  listing_name: 'the listing name',
} as const;
export type TemplateVariable = keyof typeof TEMPLATE_VARIABLES;

/**
 * Fills a saved reply for one thread. A variable the thread does not know is left visible as {{name}}, so the
 * owner sees what to fill in by hand rather than sending a blank.
 */
export function fillTemplate(body: string, values: Partial<Record<TemplateVariable, string | null>>): string {
  return body.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => {
    const value = values[name as TemplateVariable];
    return value ? value : whole;
  });
}

/** A saved reply as the owner edits it. Unknown {{variables}} are refused, naming the allowed ones. */
export const savedReplySchema = z
  .object({
    id: z.number().int().positive().optional(),
    title: z.string().trim().min(1, 'Give the saved reply a title.').max(100, 'At most 100 characters.'),
    body: z
      .string()
      .trim()
      .min(1, 'Write the reply text.')
      .max(5000, 'At most 5000 characters.')
      .refine(
        (body) => [...body.matchAll(/\{\{\s*([a-z_]+)\s*\}\}/g)].every((m) => m[1]! in TEMPLATE_VARIABLES),
        `Use only these variables: ${Object.keys(TEMPLATE_VARIABLES)
          .map((v) => `{{${v}}}`)
          .join(', ')}.`,
      ),
  })
  .strict();
export type SavedReplyInput = z.input<typeof savedReplySchema>;

export interface SavedReply {
  id: number;
  title: string;
  body: string;
  updatedAt: number;
}

const LINK = /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+\.(?:com|net|org|io|co|info|biz)\b(?:\/\S*)?/i;
const EMAIL = /[^\s@]+@[^\s@]+\.[a-z]{2,}/i;
const PHONE = /(?:\+|\b00)\d[\d\s().-]{6,}\d|\b\d{3}[\s.-]?\d{3}[\s.-]?\d{3,4}\b/;

/**
 * What a channel will block or filter in a reply, said before sending (provider-notes, "Channel rules owners trip
 * over"): Booking.com allows links only when whitelisted; Airbnb filters links, phone numbers and e-mail
 * addresses in conversations without a booking.
 */
export function composerWarnings(thread: { channel: string; hasBooking: boolean }, text: string): string[] {
  const warnings: string[] = [];
  const name = channelProfile(thread.channel).name;
  if (thread.channel === '19' && LINK.test(text)) {
    warnings.push(`${name} only delivers links that are whitelisted in your extranet; this one may be removed.`);
  }
  if (thread.channel === '244' && !thread.hasBooking) {
    const found = [
      LINK.test(text) && 'links',
      EMAIL.test(text) && 'e-mail addresses',
      PHONE.test(text) && 'phone numbers',
    ].filter(Boolean);
    if (found.length) {
      warnings.push(`${name} removes ${found.join(' and ')} from messages to guests who have not booked yet.`);
    }
  }
  return warnings;
}
