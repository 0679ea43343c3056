import type { AppError } from '@shared/result';

/**
 * A reviewed change as its history lists it: what every kind has (a rates push, a push of a property's details or
 * facilities). The owner drafts it, previews it, sends it through the outbox, and may revert it.
 */
export interface ChangeRecord {
  id: number;
  createdAt: number;
  /** When Su confirmed it. */
  appliedAt: number | null;
  /** Where its outgoing item is: queued, sending, sent, failed, discarded. */
  state: string;
  /** Why its last attempt failed (`outcomeUnknown`: nobody knows whether Su has it). */
  error: AppError | null;
  /** The change this one reverts, if it came from Revert. */
  reverts: number | null;
}

/** The outbox's decisions about a change that did not go through. */
export type Decision = 'retry' | 'discard' | 'markSent';

/** How saving the draft goes. */
export type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

/** One line of status: its icon, its words, and how it should strike the owner. */
export interface StatusLine {
  icon: string;
  text: string;
  tone: 'quiet' | 'good' | 'warn' | 'danger';
}

/** What the owner is told about the change on its way, state by state (the words of one feature). */
export interface ProgressWords {
  queued: string;
  sending: string;
  /** Su confirmed it. */
  confirmed: string;
  discarded: string;
  /** Sent, Su's confirmation not in yet; without it, sent counts as confirmed. */
  awaiting?: string;
  /** Failed, and nobody knows whether it arrived; without it (or `refused`), a failed change has no line. */
  unknown?: string;
  /** Su refused it. */
  refused?: string;
}

/** A first choice for a refused change, before Send again (the property's "Preview again"). */
export interface Redo {
  label: string;
  icon: string;
  testid: string;
  run: () => Promise<AppError | null>;
}

/** A property as the reviewed-change screens name it. */
export interface PropertyRef {
  hotelId: string;
  name: string;
}

/** A screen's store as its header and history read it: the properties, the one on screen, and its history. */
export interface ReviewedScreen<R extends ChangeRecord = ChangeRecord> {
  readonly properties: readonly PropertyRef[] | null;
  readonly hotelId: string | null;
  readonly property: PropertyRef | null;
  readonly history: readonly R[] | null;
  readonly historyError: AppError | null;
}

/** The preview a dialog shows and sends: what the core said Send would send, and the owner's two actions. */
export interface PreviewSource {
  readonly preview: { fingerprint: string | null; request: unknown } | null;
  readonly previewError: AppError | null;
  /** Whether it is being worked out (by default: while there is no answer). */
  readonly previewLoading?: boolean;
  /** Draws the preview (the dialog opened). */
  refreshPreview(): Promise<void>;
  /** Sends what the preview shows; `confirmed`: the owner said yes. Resolves with why it was not sent. */
  send(confirmed: boolean): Promise<AppError | null>;
}

/** What a feature says about one change in its history. */
export interface HistorySummary {
  title: string;
  /** When and how much, in words (when Su confirmed it follows). */
  meta: string;
  /** Lines about reverts ("Reverts “Spring”"), each after an undo icon. */
  notes?: readonly string[];
  /** Su's answer, fact by fact (`code`: an id, shown as such). */
  answer?: readonly { label: string; value: string; code?: boolean }[] | null;
  /** What the sent state is called ("Confirmed" where Su's answer is what counts). */
  sentLabel?: string;
  /** The Revert button (none: it cannot be reverted); `busy` while it works. */
  revert?: { label: string; title?: string; busy?: boolean } | null;
  /** This is what Su holds now: there is nothing to revert to. */
  current?: boolean;
}

/** What must be fixed before a change can be sent, by field: the problems, and how to say and find a field. */
export interface FieldProblems {
  problems: Record<string, string>;
  /** A field (a problem's path) in the owner's words. */
  describe: (path: string) => string;
  /** The ids of the controls a problem may be shown at, the best first. */
  locate: (path: string) => string[];
}
