import type { PropertyPreview, PropertyPush, PropertySection } from '@shared/property';
import type { AppError } from '@shared/result';

/**
 * What the pending bar and the preview dialog need of a tab's store (details or facilities): the draft's state,
 * the push on its way, the preview, and the owner's actions.
 */
export interface DraftFlow {
  readonly section: PropertySection;
  readonly changed: boolean;
  readonly saveState: 'idle' | 'saving' | 'saved' | 'failed';
  readonly saveError: AppError | null;
  readonly pending: PropertyPush | null;
  readonly preview: PropertyPreview | null;
  readonly previewError: AppError | null;
  readonly previewLoading: boolean;
  readonly dialogOpen: boolean;
  /** The push sent from this screen, until the owner hides its progress. */
  readonly lastPushId: number | null;
  dismissPush(): void;
  refreshPreview(): Promise<void>;
  discardDraft(): Promise<AppError | null>;
  openPreview(): void;
  closePreview(): void;
  load(): Promise<void>;
  send(confirmed: boolean): Promise<AppError | null>;
}

/** What a tab says about its draft: what it is (in the bar and the preview's title), where it goes, its fields. */
export interface DraftAbout {
  /** "details", "facilities of Double Room". */
  what: string;
  title: string;
  /** Where the request goes, in words. */
  endpoint: string;
  /** A problem's path in the owner's words. */
  describe: (path: string) => string;
  /** The ids of the controls a problem may be shown at, the best first. */
  locate: (path: string) => string[];
}
