// The Airbnb notices the demo sends (Notices screen), one after another from what hosts meet.

/** Notices Airbnb hosts meet: verification, payout and tax details, warnings. */
const DEMO_NOTICES = [
  {
    type: 'ACCOUNT_VERIFICATION',
    title: 'Verify your identity',
    subtitle: 'Airbnb needs a government ID from you before your next payout.',
    path: 'verify',
  },
  {
    type: 'TAXPAYER_INFORMATION',
    title: 'Add your taxpayer information',
    subtitle: 'Without it, payouts for {name} may be withheld from next month.',
    path: 'users/taxes',
  },
  {
    type: 'POLICY_WARNING',
    title: 'A guest reported a cleanliness issue',
    subtitle: 'Read the report about {name} and reply within 72 hours.',
    path: 'hosting/listings/{listing}/quality',
  },
  {
    type: 'LISTING_SUSPENSION_PENDING',
    title: 'Your listing may be suspended',
    subtitle: '{name} has had several cancellations; see what you can do to keep it listed.',
    path: 'hosting/listings/{listing}/status',
  },
] as const;

/** The `turn`th notice of the demo for a property, as Su pushes it (its id is new each time). */
export function demoNotice(turn: number, propertyName: string, listing: string) {
  const sample = DEMO_NOTICES[turn % DEMO_NOTICES.length]!;
  return {
    notification_id: `ntf-demo-${Date.now().toString(36)}-${turn + 1}`,
    notification_type: sample.type,
    title: sample.title,
    subtitle: sample.subtitle.replace('{name}', propertyName),
    cta_url: `https://www.airbnb.com/${sample.path.replace('{listing}', listing)}`,
  };
}
