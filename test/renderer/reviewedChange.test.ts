import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import { fail, ok, type AppError, type Result } from '@shared/result';
import { createDraftSaver, SAVE_DELAY_MS } from '@renderer/ui/reviewedChange/draftSaver';
import { createSendFlow, failed, NOT_PREVIEWED } from '@renderer/ui/reviewedChange/sendFlow';
import { progressLine, saveLine, sentence, stateTag } from '@renderer/ui/reviewedChange/words';

/** A promise the test settles when it wants. */
function later<T>() {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (settle = resolve));
  return { promise, settle };
}
const flushed = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the draft saver of a reviewed change', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('saves once typing pauses, one save for many keystrokes, and says how saving went', async () => {
    const save = vi.fn(async () => null);
    const saver = createDraftSaver(save);
    saver.changed();
    saver.changed();
    expect(saver.state.value).toBe('saving');
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 1);
    expect(save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect(saver.state.value).toBe('saved');
  });

  it('saves at once when asked, and keeps why a save failed until the next one', async () => {
    const refused: AppError = { code: 'invalid', message: 'Too long' };
    const save = vi.fn<() => Promise<AppError | null>>().mockResolvedValueOnce(refused).mockResolvedValue(null);
    const saver = createDraftSaver(save, 500);
    await saver.changedNow();
    expect(saver.state.value).toBe('failed');
    expect(saver.error.value).toBe(refused);
    await saver.changedNow();
    expect(saver.state.value).toBe('saved');
    expect(saver.error.value).toBeNull();
  });

  it('lets only the newest save say how saving goes, and not while a change still waits', async () => {
    const answers = [later<AppError | null>(), later<AppError | null>(), later<AppError | null>()];
    let call = 0;
    const saver = createDraftSaver(() => answers[call++]!.promise);
    const settle = () => vi.advanceTimersByTimeAsync(0);
    void saver.changedNow();
    void saver.changedNow();
    await settle();
    answers[0]!.settle({ code: 'x', message: 'an older save failed' });
    await settle();
    expect(saver.state.value).toBe('saving');
    saver.changed(); // typed while the newest save is on its way
    answers[1]!.settle(null);
    await settle();
    expect(saver.state.value).toBe('saving');
    const flushing = saver.flush();
    answers[2]!.settle(null);
    await flushing;
    expect(saver.state.value).toBe('saved');
    expect(call).toBe(3);
  });

  it('saves what waits on flush, tells a change made since a mark, and forgets everything on cancel', async () => {
    const save = vi.fn(async () => null);
    const saver = createDraftSaver(save);
    const mark = saver.mark();
    expect(saver.editedSince(mark)).toBe(false);
    saver.changed();
    expect(saver.editedSince(mark)).toBe(true);
    await saver.flush();
    expect(save).toHaveBeenCalledTimes(1);
    await saver.settled();

    const pending = later<AppError | null>();
    const slow = createDraftSaver(() => pending.promise);
    void slow.changedNow();
    slow.changed();
    slow.cancel();
    expect(slow.state.value).toBe('idle');
    pending.settle({ code: 'x', message: 'for a draft no longer on screen' });
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS * 2);
    expect(slow.state.value).toBe('idle');
    expect(slow.error.value).toBeNull();
  });
});

type Preview = { fingerprint: string | null; request: unknown };

/** A send flow over a fake core: the test answers each preview when it wants. */
function flowOver(send: (fingerprint: string) => Result<{ pushId: number }>) {
  let scope: string | null = 'H1';
  const previews: { scope: string; settle: (r: Result<Preview>) => void }[] = [];
  const sent: { scope: string; fingerprint: string; confirmed: boolean }[] = [];
  const flush = vi.fn(async () => undefined);
  const flow = createSendFlow({
    scope: () => scope,
    key: (s) => s,
    flush,
    preview: (s) => {
      const answer = later<Result<Preview>>();
      previews.push({ scope: s, settle: answer.settle });
      return answer.promise;
    },
    send: async (s, fingerprint, confirmed) => {
      sent.push({ scope: s, fingerprint, confirmed });
      return send(fingerprint);
    },
  });
  return { flow, previews, sent, flush, show: (next: string | null) => (scope = next) };
}

describe('the send flow of a reviewed change', () => {
  it('saves what waits, then shows only the newest preview of the draft on screen', async () => {
    const { flow, previews, flush, show } = flowOver(() => ok({ pushId: 1 }));
    const older = flow.refresh();
    const newer = flow.refresh();
    await flushed();
    expect(flush).toHaveBeenCalledTimes(2);
    expect(flow.loading.value).toBe(true);
    previews[1]!.settle(ok({ fingerprint: 'new', request: {} }));
    previews[0]!.settle(ok({ fingerprint: 'old', request: {} }));
    await Promise.all([older, newer]);
    expect(flow.preview.value?.fingerprint).toBe('new');
    expect(flow.loading.value).toBe(false);

    // Another draft on screen: the answer for the one before is dropped.
    const before = flow.refresh();
    await flushed();
    show('H2');
    previews[2]!.settle(ok({ fingerprint: 'of H1', request: {} }));
    await before;
    expect(flow.preview.value?.fingerprint).toBe('new');
  });

  it('shows why a preview could not be drawn, and shows none once cleared (an answer on its way is dropped)', async () => {
    const { flow, previews } = flowOver(() => ok({ pushId: 1 }));
    const refused = flow.refresh();
    await flushed();
    previews[0]!.settle(fail({ code: 'invalid', message: 'The draft is empty.' }));
    await refused;
    expect(flow.previewError.value?.message).toBe('The draft is empty.');

    const late = flow.refresh();
    await flushed();
    flow.clear();
    expect(flow.loading.value).toBe(false);
    previews[1]!.settle(ok({ fingerprint: 'late', request: {} }));
    await late;
    expect(flow.preview.value).toBeNull();
    expect(flow.previewError.value).toBeNull();
  });

  it('never sends without a preview: it draws one and says to look at it first', async () => {
    const { flow, previews, sent } = flowOver(() => ok({ pushId: 1 }));
    const sending = flow.send(false);
    await flushed();
    previews[0]!.settle(ok({ fingerprint: 'f', request: {} }));
    expect(await sending).toBe(NOT_PREVIEWED);
    expect(sent).toEqual([]);
    expect(flow.preview.value?.fingerprint).toBe('f');
  });

  it('sends the fingerprint the owner looked at, and remembers the change sent until it is hidden', async () => {
    const { flow, previews, sent } = flowOver(() => ok({ pushId: 42 }));
    const drawing = flow.refresh();
    await flushed();
    previews[0]!.settle(ok({ fingerprint: 'f', request: {} }));
    await drawing;
    const outcome = await flow.send(true);
    expect(failed(outcome)).toBe(false);
    expect(outcome).toEqual({ pushId: 42 });
    expect(sent).toEqual([{ scope: 'H1', fingerprint: 'f', confirmed: true }]);
    expect(flow.lastPushId.value).toBe(42);
    flow.reset();
    expect(flow.lastPushId.value).toBeNull();
    expect(flow.preview.value).toBeNull();
  });

  it('draws the preview again when the core says it is stale or needs a yes, and passes other errors on', async () => {
    for (const code of ['preview_stale', 'confirm_required']) {
      const { flow, previews } = flowOver(() => fail({ code, message: 'Look again.' }));
      const drawing = flow.refresh();
      await flushed();
      previews[0]!.settle(ok({ fingerprint: 'f', request: {} }));
      await drawing;
      const sending = flow.send(false);
      await flushed();
      expect(previews).toHaveLength(2);
      previews[1]!.settle(ok({ fingerprint: 'g', request: {} }));
      const outcome = await sending;
      expect(failed(outcome) && outcome.code).toBe(code);
      expect(flow.preview.value?.fingerprint).toBe('g');
    }
    const { flow, previews } = flowOver(() => fail({ code: 'invalid_state', message: 'One is on its way.' }));
    const drawing = flow.refresh();
    await flushed();
    previews[0]!.settle(ok({ fingerprint: 'f', request: {} }));
    await drawing;
    expect(await flow.send(false)).toMatchObject({ code: 'invalid_state' });
    await nextTick();
    expect(previews).toHaveLength(1);
  });
});

describe('the words of a reviewed change', () => {
  it('names each state as a tag, the sent one as the feature calls it', () => {
    expect(stateTag('queued')).toMatchObject({ label: 'Queued', severity: 'info' });
    expect(stateTag('sent')).toMatchObject({ label: 'Sent', severity: 'success' });
    expect(stateTag('sent', 'Confirmed').label).toBe('Confirmed');
    expect(stateTag('failed')).toMatchObject({ label: 'Failed', severity: 'danger' });
    expect(stateTag('odd')).toEqual({ label: 'odd', severity: 'secondary', icon: '' });
  });

  it('says how a change is getting on in the feature’s words, by state', () => {
    const words = {
      queued: 'queued',
      sending: 'sending',
      confirmed: 'confirmed',
      discarded: 'discarded',
      awaiting: 'awaiting',
      unknown: 'unknown',
      refused: 'refused',
    };
    const line = (state: string, appliedAt: number | null = null, outcomeUnknown = false) =>
      progressLine(
        { state, appliedAt, error: state === 'failed' ? { code: 'x', message: 'x', outcomeUnknown } : null },
        words,
      );
    expect(line('queued')).toEqual({ icon: 'pi pi-clock', text: 'queued', tone: 'quiet' });
    expect(line('sending')?.text).toBe('sending');
    expect(line('sent', 1)).toEqual({ icon: 'pi pi-check-circle', text: 'confirmed', tone: 'good' });
    expect(line('sent')?.text).toBe('awaiting');
    expect(line('discarded')?.text).toBe('discarded');
    expect(line('failed', null, true)).toMatchObject({ text: 'unknown', tone: 'warn' });
    expect(line('failed')).toMatchObject({ text: 'refused', tone: 'danger' });
    // Without words for them: sent counts as confirmed, and a failed change has no line.
    const plain = { queued: 'q', sending: 's', confirmed: 'c', discarded: 'd' };
    expect(progressLine({ state: 'sent', appliedAt: null, error: null }, plain)?.text).toBe('c');
    expect(progressLine({ state: 'failed', appliedAt: null, error: null }, plain)).toBeNull();
  });

  it('says how saving goes, and makes a message a sentence', () => {
    expect(saveLine('saving', null, 'Draft saved').text).toBe('Saving…');
    expect(saveLine('failed', { code: 'x', message: 'Disk full' }, 'Draft saved')).toMatchObject({
      text: 'Not saved: Disk full',
      tone: 'danger',
    });
    expect(saveLine('idle', null, 'Draft saved').text).toBe('Draft saved');
    expect(sentence(' no room SUITE ')).toBe('no room SUITE.');
    expect(sentence('Refused!')).toBe('Refused!');
  });
});
