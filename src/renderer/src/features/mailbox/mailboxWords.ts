import type { MailboxStatus, MailboxUpPeriod } from '@shared/mailbox';
import { formatDateTime, plural } from '@renderer/lib/format';

/** After this long unreachable (while Innkeeper runs), the screen says so and offers this computer's own listener. */
export const UNREACHABLE_WARN_MS = 3 * 60_000;

/** When the mailbox was not running, from its own record of when it was: the gaps between its periods. */
export function downPeriods(up: readonly MailboxUpPeriod[]): { from: number; to: number }[] {
  const sorted = [...up].sort((a, b) => a.from - b.from);
  const gaps: { from: number; to: number }[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const ended = sorted[i - 1]!.to;
    if (ended !== null && sorted[i]!.from > ended) gaps.push({ from: ended, to: sorted[i]!.from });
  }
  return gaps;
}

/** "Connected", "Paused", "Cannot be reached" …: how collecting goes, in a word and a sentence. */
export function collectingState(
  status: MailboxStatus,
  now: number,
): { tone: 'ok' | 'paused' | 'waiting' | 'down'; text: string; long: boolean } {
  if (status.paused)
    return {
      tone: 'paused',
      text: `Collecting is paused (the laptop is closed): what arrives waits in the mailbox until it opens${status.demo ? ' (Open the laptop, under Demo deliveries above)' : ''}.`,
      long: false,
    };
  if (status.connected)
    return { tone: 'ok', text: 'Connected: messages come in as soon as Su delivers them.', long: false };
  if (status.unreachableSince !== null) {
    const long = now - status.unreachableSince >= UNREACHABLE_WARN_MS;
    return {
      tone: 'down',
      text: `The mailbox cannot be reached since ${formatDateTime(status.unreachableSince)}; Innkeeper keeps trying. Su’s deliveries wait there meanwhile (if it is running).`,
      long,
    };
  }
  return { tone: 'waiting', text: 'Connecting to the mailbox…', long: false };
}

/** "3 waiting for this computer", "Nothing waiting", or null when not known. */
export function waitingText(status: MailboxStatus): string | null {
  if (status.waiting === null) return null;
  return status.waiting === 0
    ? 'Nothing waiting for this computer'
    : `${plural(status.waiting, 'delivery', 'deliveries')} waiting for this computer`;
}
