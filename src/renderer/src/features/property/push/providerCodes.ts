import type { AppError } from '@shared/result';

/** Su's error codes the property pushes meet most, in the owner's words: what it means and where to fix it. */
const EXPLAINED: Record<string, string> = {
  '400':
    'Su does not know this property id (hotel code). Check the property id under Rooms & rate plans on the Rates screen: it must be the id the property has at Su.',
  '573':
    'Booking.com has no channel mapping for this property or room. Check the Booking.com ids on the Facilities tab (the property id and each room id, from the Booking.com extranet), and that the property is connected to Booking.com at Su.',
};

/** What an error's provider code means for the owner, or null when there is nothing more to say. */
export function explainCode(error: AppError | null | undefined): string | null {
  if (!error) return null;
  return EXPLAINED[error.providerCode ?? ''] ?? EXPLAINED[error.code] ?? null;
}
