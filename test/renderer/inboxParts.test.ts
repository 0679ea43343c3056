import { flushPromises, mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, effectScope, h, ref } from 'vue';
import type { Delivery } from '@shared/inbox';
import ChannelFilter from '@renderer/features/inbox/ChannelFilter.vue';
import type { ChannelFilter as Channel } from '@renderer/features/inbox/inboxStore';
import ListError from '@renderer/features/inbox/ListError.vue';
import ReadFilters from '@renderer/features/inbox/ReadFilters.vue';
import SearchField from '@renderer/features/inbox/SearchField.vue';
import { deliveryLabel } from '@renderer/features/inbox/replies/delivery';
import DeliveryState from '@renderer/features/inbox/replies/DeliveryState.vue';
import { checkReply } from '@renderer/features/inbox/replies/replyCheck';
import SendBar from '@renderer/features/inbox/replies/SendBar.vue';
import { isSendKey, onSendKey, SEND_KEYS } from '@renderer/features/inbox/replies/sendKeys';
import { DRAFT_DELAY_MS, useDraft } from '@renderer/features/inbox/replies/useDraft';

// The pieces the inbox's two lists (conversations, reviews) and its two reply boxes (a conversation's, a review's)
// share.
beforeEach(() => {
  document.body.innerHTML = '';
});
const global = { plugins: [PrimeVue] };

describe('the lists’ filters', () => {
  it('ChannelFilter offers every channel and All, and sets the one chosen', async () => {
    const channel = ref<Channel>('all');
    const Parent = defineComponent(
      () => () =>
        h(ChannelFilter, { modelValue: channel.value, 'onUpdate:modelValue': (v: Channel) => (channel.value = v) }),
    );
    const wrapper = mount(Parent, { global });
    const buttons = wrapper.findAll('button');
    expect(buttons.map((b) => b.text())).toEqual(['All', 'Airbnb', 'Booking.com', 'Expedia']);
    expect(wrapper.find('[aria-label="Channel"]').exists()).toBe(true);
    await buttons[2]!.trigger('click');
    expect(channel.value).toBe('19');
    // The chosen one stays chosen when clicked again: there is always a channel (or All).
    await buttons[2]!.trigger('click');
    expect(channel.value).toBe('19');
  });

  it('ReadFilters: Unread and Needs a reply, each a box named by the list', async () => {
    const unread = ref(false);
    const needsReply = ref(true);
    const Parent = defineComponent(
      () => () =>
        h('div', [
          h(ReadFilters, {
            idPrefix: 'review-filter',
            unread: unread.value,
            'onUpdate:unread': (v: boolean) => (unread.value = v),
            needsReply: needsReply.value,
            'onUpdate:needsReply': (v: boolean) => (needsReply.value = v),
          }),
        ]),
    );
    const wrapper = mount(Parent, { global });
    expect(wrapper.findAll('label').map((l) => l.text())).toEqual(['Unread', 'Needs a reply']);
    expect(wrapper.get<HTMLInputElement>('#review-filter-needs-reply').element.checked).toBe(true);
    await wrapper.get('#review-filter-unread').setValue(true);
    expect(unread.value).toBe(true);
    await wrapper.get('#review-filter-needs-reply').setValue(false);
    expect(needsReply.value).toBe(false);
  });

  it('SearchField: a named search box; clearable, a button and Escape clear it', async () => {
    const wrapper = mount(SearchField, {
      props: { modelValue: 'anna', label: 'Search conversations', placeholder: 'Search guests', clearable: true },
      global,
    });
    const input = wrapper.get('input');
    expect(input.attributes('type')).toBe('search');
    expect(input.attributes('aria-label')).toBe('Search conversations');
    expect(input.attributes('placeholder')).toBe('Search guests');
    await wrapper.get('button[aria-label="Clear search"]').trigger('click');
    await input.trigger('keydown', { key: 'Escape' });
    expect(wrapper.emitted('clear')).toHaveLength(2);
    await input.setValue('berg');
    expect(wrapper.emitted('update:modelValue')!.at(-1)).toEqual(['berg']);
  });

  it('SearchField: with nothing typed, or not clearable, there is no clear button, and Escape clears nothing', async () => {
    const empty = mount(SearchField, {
      props: { modelValue: '', label: 'S', placeholder: 'S', clearable: true },
      global,
    });
    expect(empty.find('button').exists()).toBe(false);
    const plain = mount(SearchField, { props: { modelValue: 'x', label: 'S', placeholder: 'S' }, global });
    expect(plain.find('button').exists()).toBe(false);
    await plain.get('input').trigger('keydown', { key: 'Escape' });
    expect(plain.emitted('clear')).toBeUndefined();
  });

  it('ListError says why the list is missing, for tests too, and offers Try again', async () => {
    const wrapper = mount(ListError, {
      props: { message: 'The app is not running.', testid: 'threads-error' },
      global,
    });
    expect(wrapper.get('[data-testid="threads-error"]').text()).toContain('The app is not running.');
    const retry = wrapper.get('button');
    expect(retry.text()).toBe('Try again');
    await retry.trigger('click');
    expect(wrapper.emitted('retry')).toHaveLength(1);
  });
});

describe('the reply boxes’ parts', () => {
  it('the send keys are Ctrl or ⌘ with Enter, not while a word is being composed', () => {
    const key = (init: KeyboardEventInit) => new KeyboardEvent('keydown', init);
    expect(isSendKey(key({ key: 'Enter', ctrlKey: true }))).toBe(true);
    expect(isSendKey(key({ key: 'Enter', metaKey: true }))).toBe(true);
    expect(isSendKey(key({ key: 'Enter' }))).toBe(false);
    expect(isSendKey(key({ key: 'a', ctrlKey: true }))).toBe(false);
    expect(isSendKey(key({ key: 'Enter', ctrlKey: true, isComposing: true }))).toBe(false);
    expect(SEND_KEYS).toMatch(/^(Ctrl|⌘)\+Enter$/);
  });

  it('onSendKey sends on the send keys, and types no new line; other keys type as usual', () => {
    const send = vi.fn();
    const handler = onSendKey(send);
    const enter = new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, cancelable: true });
    handler(enter);
    expect(send).toHaveBeenCalledTimes(1);
    expect(enter.defaultPrevented).toBe(true);
    const plain = new KeyboardEvent('keydown', { key: 'Enter', cancelable: true });
    handler(plain);
    expect(send).toHaveBeenCalledTimes(1);
    expect(plain.defaultPrevented).toBe(false);
  });

  it('SendBar says the draft’s note, the count, the keys, and sends; its title says what holds Send back', async () => {
    const check = checkReply('Hello {{guest_first_name}}');
    const wrapper = mount(SendBar, {
      props: {
        note: 'Draft saved',
        noteTestid: 'draft-state',
        check,
        label: 'Send reply',
        sendTestid: 'review-reply-send',
        disabled: false,
        loading: false,
      },
      global,
    });
    const note = wrapper.get('[data-testid="draft-state"]');
    expect(note.text()).toBe('Draft saved');
    expect(note.attributes('aria-live')).toBe('polite');
    expect(wrapper.get('[data-testid="reply-counter"]').text()).toContain('26');
    expect(wrapper.text()).toContain(`${SEND_KEYS} to send`);
    const send = wrapper.get('[data-testid="review-reply-send"]');
    expect(send.text()).toBe('Send reply');
    expect(send.attributes('title')).toBe(check.blocked);
    await send.trigger('click');
    expect(wrapper.emitted('send')).toHaveLength(1);
    await wrapper.setProps({ disabled: true });
    expect(send.attributes('disabled')).toBeDefined();
  });

  it('DeliveryState says where a reply is, in its tone, for tests by its state', () => {
    const failed = { outboxId: 3, state: 'failed', error: { code: 'x', message: 'No.' } } as unknown as Delivery;
    const wrapper = mount(DeliveryState, { props: { delivery: failed, label: deliveryLabel(failed) } });
    const line = wrapper.get('[data-testid="delivery"]');
    expect(line.attributes('data-state')).toBe('failed');
    expect(line.classes()).toContain('delivery--danger');
    expect(line.text().replace(/\s+/g, ' ')).toBe('· Not sent');
    expect(line.get('i').classes()).toContain('pi-exclamation-circle');
  });

  it('useDraft says what became of the draft: nothing, saving, saved, or not saved', async () => {
    let answer = true;
    const scope = effectScope();
    const draft = scope.run(() => useDraft(async () => answer))!;
    expect(draft.note.value).toBe('');
    draft.open(1, '');
    draft.text.value = 'Hello';
    await draft.flush();
    await flushPromises();
    expect(draft.note.value).toBe('Draft saved');
    answer = false;
    draft.text.value = 'Hello again';
    await draft.flush();
    await flushPromises();
    expect(draft.note.value).toBe('The draft could not be saved');
    scope.stop();
  });

  it('useDraft says "Draft saved" only once its newest text is written, not while a change waits or an older save answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const scope = effectScope();
    try {
      // Each save waits for its answer, given by the test in order; saves go one at a time.
      const written: string[] = [];
      const answers: ((ok: boolean) => void)[] = [];
      const answer = async (ok: boolean) => {
        answers.shift()!(ok);
        await flushPromises();
      };
      const draft = scope.run(() =>
        useDraft((id, body) => {
          written.push(`${id}: ${body}`);
          return new Promise<boolean>((resolve) => answers.push(resolve));
        }),
      )!;
      draft.open(1, '');
      draft.text.value = 'Hello';
      expect(draft.note.value).toBe('Saving draft…');
      await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
      expect(written).toEqual(['1: Hello']);
      await answer(true);
      expect(draft.note.value).toBe('Draft saved');

      // A change waits: not saved, whatever the last save said, until its own save is written.
      draft.text.value = 'Hello, a longer paste';
      expect(draft.note.value).toBe('Saving draft…');
      await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS - 1);
      expect(written).toHaveLength(1);
      expect(draft.note.value).toBe('Saving draft…');
      await vi.advanceTimersByTimeAsync(1);
      expect(written.at(-1)).toBe('1: Hello, a longer paste');

      // Typed again while that save is on its way, and that text's save queued behind it: the older answer does
      // not call the newer text saved; the newer one's does.
      draft.text.value = 'Hello, a longer paste, and more';
      await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
      await answer(true);
      expect(draft.note.value).toBe('Saving draft…');
      expect(written.at(-1)).toBe('1: Hello, a longer paste, and more');
      await answer(true);
      expect(draft.note.value).toBe('Draft saved');

      // Another thread opened while the first one's save is on its way, and the first opened again: that save's
      // answer is the first thread's newest, and says so.
      draft.text.value = 'Back soon';
      await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
      draft.open(2, '');
      draft.text.value = 'Other thread';
      await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
      draft.open(1, 'Back soon');
      await answer(false);
      expect(draft.note.value).toBe('The draft could not be saved');
      await answer(true);
      expect(draft.note.value).toBe('The draft could not be saved');

      // The text is being sent: a pending save is dropped, and the box claims nothing until the send's outcome.
      draft.text.value = 'Back soon, sent';
      expect(draft.note.value).toBe('Saving draft…');
      await draft.cancel();
      expect(draft.note.value).toBe('');
      await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS);
      expect(written.at(-1)).toBe('2: Other thread');
    } finally {
      scope.stop();
      vi.useRealTimers();
    }
  });
});
