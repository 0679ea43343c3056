import type { AppError } from '@shared/result';
import type { ChangeRecord, ProgressWords, SaveState, StatusLine } from './types';

/** A message as a sentence (ends with a full stop). */
export const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** Whether nobody knows if Su received the change (the owner checks before choosing). */
export const outcomeUnknown = (record: Pick<ChangeRecord, 'error'>) => record.error?.outcomeUnknown === true;

const TAGS: Record<string, { label: string; severity: string; icon: string }> = {
  queued: { label: 'Queued', severity: 'info', icon: 'pi pi-clock' },
  sending: { label: 'Sending', severity: 'info', icon: 'pi pi-spin pi-spinner' },
  sent: { label: 'Sent', severity: 'success', icon: 'pi pi-check' },
  failed: { label: 'Failed', severity: 'danger', icon: 'pi pi-exclamation-circle' },
  discarded: { label: 'Discarded', severity: 'secondary', icon: 'pi pi-ban' },
};

/** A change's state as a tag; `sent` names the sent state ("Confirmed" where Su's answer is what counts). */
export function stateTag(state: string, sent = 'Sent'): { label: string; severity: string; icon: string } {
  const tag = TAGS[state] ?? { label: state, severity: 'secondary', icon: '' };
  return state === 'sent' ? { ...tag, label: sent } : tag;
}

/** How the change on its way is getting on, in one line (null: a failed change the words say nothing about). */
export function progressLine(record: Pick<ChangeRecord, 'state' | 'appliedAt' | 'error'>, words: ProgressWords) {
  const line = (icon: string, text: string, tone: StatusLine['tone'] = 'quiet'): StatusLine => ({ icon, text, tone });
  switch (record.state) {
    case 'queued':
      return line('pi pi-clock', words.queued);
    case 'sending':
      return line('pi pi-spin pi-spinner', words.sending);
    case 'discarded':
      return line('pi pi-ban', words.discarded);
    case 'sent':
      return record.appliedAt === null && words.awaiting
        ? line('pi pi-clock', words.awaiting)
        : line('pi pi-check-circle', words.confirmed, 'good');
    default:
      if (outcomeUnknown(record)) return words.unknown ? line('pi pi-question-circle', words.unknown, 'warn') : null;
      return words.refused ? line('pi pi-exclamation-circle', words.refused, 'danger') : null;
  }
}

/** How saving the draft goes, in one line; `saved` is what an owner reads once it is saved. */
export function saveLine(state: SaveState, error: AppError | null, saved: string): StatusLine {
  if (state === 'saving') return { icon: 'pi pi-spin pi-spinner', text: 'Saving…', tone: 'quiet' };
  if (state === 'failed')
    return { icon: 'pi pi-exclamation-circle', text: `Not saved: ${error?.message ?? ''}`, tone: 'danger' };
  return { icon: 'pi pi-check', text: saved, tone: 'quiet' };
}
