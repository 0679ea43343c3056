import { flushPromises, mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, reactive, ref } from 'vue';
import type { AppError } from '@shared/result';
import ChangeHeader from '@renderer/ui/reviewedChange/ChangeHeader.vue';
import ChangeProblem from '@renderer/ui/reviewedChange/ChangeProblem.vue';
import ChangeTable from '@renderer/ui/reviewedChange/ChangeTable.vue';
import HistoryItem from '@renderer/ui/reviewedChange/HistoryItem.vue';
import HistoryPanel from '@renderer/ui/reviewedChange/HistoryPanel.vue';
import PendingBar from '@renderer/ui/reviewedChange/PendingBar.vue';
import PreviewDialog from '@renderer/ui/reviewedChange/PreviewDialog.vue';
import type { ChangeRecord, PreviewSource } from '@renderer/ui/reviewedChange/types';

beforeEach(() => {
  document.body.innerHTML = '';
});
const global = { plugins: [PrimeVue] };
const $ = <E extends Element = HTMLElement>(selector: string) => document.querySelector<E>(selector);
const $$ = (selector: string) => [...document.querySelectorAll<HTMLElement>(selector)];
const click = async (selector: string) => {
  $(selector)!.click();
  await flushPromises();
};

const record = (over: Partial<ChangeRecord> = {}): ChangeRecord => ({
  id: 1,
  createdAt: Date.UTC(2026, 0, 5, 9),
  appliedAt: null,
  state: 'queued',
  error: null,
  reverts: null,
  ...over,
});

/** The dialog in a parent that owns `visible`, with a preview the test controls. */
function mountPreview(props: Record<string, unknown>, preview: PreviewSource['preview'] = null) {
  const visible = ref(true);
  const send = vi.fn<(confirmed: boolean) => Promise<AppError | null>>(async () => null);
  const source = reactive({
    preview,
    previewError: null as AppError | null,
    refreshPreview: vi.fn(async () => undefined),
    send,
  });
  const Parent = defineComponent(
    () => () =>
      h(
        PreviewDialog,
        {
          visible: visible.value,
          'onUpdate:visible': (v: boolean) => (visible.value = v),
          title: 'Rates update',
          source,
          endpoint: 'POST /somewhere',
          changesTitle: 'What changes',
          ready: true,
          action: { label: 'Push to Su', icon: 'pi pi-send', testid: 'push-button' },
          ...props,
        },
        {
          lead: () => 'This push changes 2 days.',
          default: () => h('p', { 'data-testid': 'domain-note' }, 'A domain note'),
          changes: () => h('table', { 'data-testid': 'domain-table' }),
        },
      ),
  );
  mount(Parent, { global, attachTo: document.body });
  return { visible, source, send };
}

describe('the preview dialog of a reviewed change', () => {
  it('draws the preview when it opens, says it is being worked out, then shows it with the exact request', async () => {
    const { source } = mountPreview({});
    await flushPromises();
    expect(source.refreshPreview).toHaveBeenCalledTimes(1);
    expect($('.preview__loading')?.getAttribute('aria-busy')).toBe('true');
    expect($('.preview__loading')?.textContent).toContain('Working out what changes…');
    source.previewError = { code: 'x', message: 'Su cannot be reached.' };
    await flushPromises();
    expect($('.preview__loading')?.getAttribute('role')).toBe('alert');
    expect($('.preview__loading')?.textContent).toContain('Su cannot be reached.');

    source.preview = { fingerprint: 'f', request: { hotelid: 'H1' } };
    await flushPromises();
    expect($('[data-testid="preview-dialog"]')?.textContent).toContain('Preview: Rates update');
    expect($('[data-testid="preview-lead"]')?.textContent).toContain('This push changes 2 days.');
    expect($('[data-testid="domain-note"]')).not.toBeNull();
    expect($('#preview-changes-title')?.textContent).toBe('What changes');
    expect($('[data-testid="domain-table"]')).not.toBeNull();
    expect($('[data-testid="preview-request"]')?.textContent).toContain('"hotelid": "H1"');
  });

  it('sends only once the owner said yes to what needs it, and closes; a new preview asks again', async () => {
    const { visible, source, send } = mountPreview(
      { confirm: 'This changes 9 days — push anyway', confirmTestid: 'push-confirm' },
      { fingerprint: 'f', request: {} },
    );
    await flushPromises();
    const button = $<HTMLButtonElement>('[data-testid="push-button"]')!;
    expect(button.disabled).toBe(true);
    expect($('.preview__confirm')?.textContent).toContain('This changes 9 days — push anyway');
    await click('[data-testid="push-confirm"] input');
    expect(button.disabled).toBe(false);
    source.preview = { fingerprint: 'g', request: {} };
    await flushPromises();
    expect(button.disabled).toBe(true);
    await click('[data-testid="push-confirm"] input');
    await click('[data-testid="push-button"]');
    expect(send).toHaveBeenCalledWith(true);
    expect(visible.value).toBe(false);
  });

  it('keeps the dialog open with why it was not sent, and what the error means', async () => {
    const { visible, send } = mountPreview(
      { explain: (e: AppError) => (e.providerCode === '573' ? 'No channel mapping.' : null) },
      { fingerprint: 'f', request: {} },
    );
    send.mockResolvedValueOnce({ code: 'provider', message: 'Refused', providerCode: '573' });
    await flushPromises();
    await click('[data-testid="push-button"]');
    expect(send).toHaveBeenCalledWith(false);
    expect(visible.value).toBe(true);
    expect($('[data-testid="send-error"]')?.getAttribute('role')).toBe('alert');
    expect($('[data-testid="send-error"]')?.textContent).toContain('Refused');
    expect($('.preview__explain')?.textContent).toBe('No channel mapping.');
  });

  it('lists what must be fixed first by field, sends nothing, and Show takes the owner to the field', async () => {
    vi.useFakeTimers();
    try {
      const field = document.createElement('input');
      field.id = 'details-city';
      document.body.append(field);
      const { visible, send } = mountPreview(
        {
          fields: {
            problems: { 'address.city': 'Enter the city.' },
            describe: () => 'City',
            locate: () => ['missing', 'details-city'],
          },
        },
        { fingerprint: null, request: null },
      );
      await flushPromises();
      expect($('[data-testid="preview-lead"]')?.textContent).toContain('Fix 1 problem first');
      expect($('[data-testid="preview-problems"]')?.textContent).toContain('City: Enter the city.');
      expect($('[data-testid="preview-request"]')).toBeNull();
      expect($<HTMLButtonElement>('[data-testid="push-button"]')!.disabled).toBe(true);
      expect($('[data-testid="preview-problem-show"]')?.getAttribute('aria-label')).toBe('Show City');
      await click('[data-testid="preview-problem-show"]');
      expect(visible.value).toBe(false);
      await vi.advanceTimersByTimeAsync(60);
      expect(document.activeElement).toBe(field);
      expect(send).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the pending bar of a reviewed change', () => {
  function mountBar(props: Record<string, unknown>, slots: Record<string, () => unknown> = {}) {
    return mount(PendingBar, {
      props: {
        label: 'Draft',
        progress: null,
        draft: null,
        preview: { label: 'Preview & push', icon: 'pi pi-send' },
        ...props,
      },
      slots,
      global,
      attachTo: document.body,
    });
  }

  it('says how the change sent is getting on, with History and Hide', async () => {
    const wrapper = mountBar({
      progress: { icon: 'pi pi-check-circle', text: 'Su confirmed “Spring”.', tone: 'good' },
      progressState: 'sent',
      hideable: true,
    });
    const line = wrapper.get('[data-testid="push-progress"]');
    expect(line.attributes('role')).toBe('status');
    expect(line.attributes('data-state')).toBe('sent');
    expect(line.classes()).toContain('bar--good');
    expect(line.text()).toContain('Su confirmed “Spring”.');
    await line.get('button').trigger('click');
    await line.get('button[aria-label="Hide"]').trigger('click');
    expect(wrapper.emitted('history')).toHaveLength(1);
    expect(wrapper.emitted('hide')).toHaveLength(1);
    expect(wrapper.find('.bar__draft').exists()).toBe(false);
    expect(wrapper.attributes('aria-label')).toBe('Draft');
  });

  it('shows the problem instead when the change did not go through, and no Hide while it is unsettled', () => {
    const wrapper = mountBar({ progressState: 'failed' }, { problem: () => h('p', 'Su refused it') });
    const problem = wrapper.get('[data-testid="push-progress"]');
    expect(problem.classes()).toContain('bar__problem');
    expect(problem.attributes('data-state')).toBe('failed');
    expect(problem.text()).toBe('Su refused it');
    expect(wrapper.find('button[aria-label="Hide"]').exists()).toBe(false);
  });

  it('asks before Discard (again when the draft changed), says why it failed, and opens the preview', async () => {
    const discard = vi.fn(async (): Promise<AppError | null> => ({ code: 'x', message: 'Could not discard.' }));
    const wrapper = mountBar(
      { draft: { question: 'Discard 2 edits?', discard }, docked: true, preview: { label: 'Preview', icon: 'x' } },
      { what: () => h('strong', 'Changes not yet sent'), tools: () => h('button', { class: 'tool' }, 'Edits') },
    );
    expect(wrapper.classes()).toContain('bar--docked');
    expect(wrapper.get('.bar__what').text()).toContain('Changes not yet sent');
    expect(wrapper.find('.tool').exists()).toBe(true);
    await wrapper.get('[data-testid="discard-draft"]').trigger('click');
    expect(discard).not.toHaveBeenCalled();
    expect(wrapper.get('.bar__confirm').text()).toBe('Discard 2 edits?');
    await wrapper.setProps({ draft: { question: 'Discard 3 edits?', discard } });
    expect(wrapper.find('[data-testid="discard-confirm"]').exists()).toBe(false);
    await wrapper.get('[data-testid="discard-draft"]').trigger('click');
    await wrapper.get('[data-testid="discard-confirm"]').trigger('click');
    await flushPromises();
    expect(discard).toHaveBeenCalledTimes(1);
    expect(wrapper.get('.bar__error').text()).toBe('Could not discard.');
    await wrapper.get('[data-testid="preview-button"]').trigger('click');
    expect(wrapper.emitted('preview')).toHaveLength(1);
  });
});

describe('a change that did not go through', () => {
  it('says what Su refused as a sentence, and offers the first choice, Send the same again and Discard', async () => {
    const decide = vi.fn(async () => null);
    const redo = vi.fn(async () => null);
    const wrapper = mount(ChangeProblem, {
      props: {
        error: { code: 'provider', message: 'no room SUITE' },
        decide,
        explained: 'Check the room ids.',
        redo: { label: 'Preview again', icon: 'pi pi-eye', testid: 'push-preview-again', run: redo },
      },
      slots: { default: () => h('p', 'Nothing changed at Su.') },
      global,
    });
    expect(wrapper.attributes('role')).toBe('alert');
    expect(wrapper.classes()).not.toContain('problem--unsure');
    expect(wrapper.get('.problem__what').text()).toBe('Su refused this push: no room SUITE.');
    expect(wrapper.get('[data-testid="push-problem-explained"]').text()).toBe('Check the room ids.');
    expect(wrapper.findAll('.problem__actions button').map((b) => b.text())).toEqual([
      'Preview again',
      'Send the same again',
      'Discard',
    ]);
    await wrapper.get('[data-testid="push-preview-again"]').trigger('click');
    await wrapper.get('[data-testid="push-discard"]').trigger('click');
    await flushPromises();
    expect(redo).toHaveBeenCalledTimes(1);
    expect(decide).toHaveBeenCalledWith('discard');
  });

  it('when nobody knows whether it arrived: Mark as sent, and a second yes before sending it again', async () => {
    let answer!: (error: AppError | null) => void;
    const decide = vi.fn(() => new Promise<AppError | null>((resolve) => (answer = resolve)));
    const wrapper = mount(ChangeProblem, {
      props: {
        error: { code: 'timeout', message: 'No answer from Su.', outcomeUnknown: true },
        decide,
        labels: { markSent: 'It did go through', retry: 'Retry' },
        retryQuestion: 'Send it again, although it may be there?',
      },
      global,
    });
    expect(wrapper.classes()).toContain('problem--unsure');
    expect(wrapper.get('.problem__what').text()).toBe('Su may or may not have received this push.');
    expect(wrapper.text()).toContain('No answer from Su.');
    expect(wrapper.get('[data-testid="push-mark-sent"]').text()).toBe('It did go through');
    expect(wrapper.get('[data-testid="push-retry"]').text()).toBe('Send again');
    await wrapper.get('[data-testid="push-retry"]').trigger('click');
    expect(decide).not.toHaveBeenCalled();
    expect(wrapper.get('[data-testid="push-again-confirm"]').text()).toBe('Send it again, although it may be there?');
    expect(wrapper.get('[data-testid="push-retry"]').text()).toBe('Yes, send again');
    await wrapper.get('[data-testid="push-retry"]').trigger('click');
    expect(decide).toHaveBeenCalledWith('retry');
    // One choice at a time.
    expect(wrapper.get('[data-testid="push-discard"]').attributes('disabled')).toBeDefined();
    answer({ code: 'invalid_state', message: 'It was sent meanwhile.' });
    await flushPromises();
    expect(wrapper.get('.problem__error').text()).toBe('It was sent meanwhile.');
    expect(wrapper.find('[data-testid="push-again-confirm"]').exists()).toBe(false);
  });
});

describe('a change in the history', () => {
  it('shows what it was, its state, when Su confirmed it, Su’s answer, and Revert', async () => {
    const wrapper = mount(HistoryItem, {
      props: {
        record: record({ state: 'sent', appliedAt: Date.UTC(2026, 0, 5, 10) }),
        summary: {
          title: 'Details',
          meta: 'Sent 5 Jan · 1 change',
          notes: ['Puts back the record of an earlier push'],
          answer: [
            { label: 'Su answered', value: 'OK' },
            { label: 'Property id', value: '7741203', code: true },
          ],
          sentLabel: 'Confirmed',
          revert: { label: 'Revert to this', title: 'Makes it your draft again' },
        },
      },
      slots: { problem: () => h('p', { class: 'problem' }), changes: () => h('table', { class: 'changes' }) },
      global,
    });
    expect(wrapper.attributes('data-state')).toBe('sent');
    expect(wrapper.get('strong').text()).toBe('Details');
    expect(wrapper.get('.item__meta').text()).toMatch(/^Sent 5 Jan · 1 change\s+· confirmed /);
    expect(wrapper.text()).toContain('Puts back the record of an earlier push');
    expect(wrapper.get('[data-testid="history-state"]').text()).toBe('Confirmed');
    expect(wrapper.get('[data-testid="history-answer"]').text()).toContain('Su answered');
    expect(wrapper.get('[data-testid="history-answer"] code').text()).toBe('7741203');
    expect(wrapper.find('.problem').exists()).toBe(false);
    expect(wrapper.find('.changes').exists()).toBe(false);
    await wrapper.get('[data-testid="history-changes-toggle"]').trigger('click');
    expect(wrapper.find('.changes').exists()).toBe(true);
    expect(wrapper.get('[data-testid="history-changes-toggle"]').attributes('aria-expanded')).toBe('true');
    expect(wrapper.get('[data-testid="revert-button"]').attributes('title')).toBe('Makes it your draft again');
    await wrapper.get('[data-testid="revert-button"]').trigger('click');
    expect(wrapper.emitted('revert')).toHaveLength(1);
  });

  it('shows the problem of a failed one, and says which one Su holds now instead of Revert', async () => {
    const wrapper = mount(HistoryItem, {
      props: {
        record: record({ state: 'failed' }),
        summary: { title: 'Spring', meta: '5 Jan', current: true, revert: { label: 'Revert…' } },
      },
      slots: { problem: () => h('p', { class: 'problem' }, 'Refused') },
      global,
    });
    expect(wrapper.get('[data-testid="history-state"]').text()).toBe('Failed');
    expect(wrapper.find('.problem').exists()).toBe(true);
    expect(wrapper.find('[data-testid="history-answer"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="history-current"]').text()).toBe('What Su holds now');
    expect(wrapper.find('[data-testid="revert-button"]').exists()).toBe(false);
  });
});

describe('the history panel of a reviewed change', () => {
  function mountPanel(source: Record<string, unknown>) {
    return mount(HistoryPanel, {
      props: {
        visible: true,
        source: { properties: null, hotelId: 'H1', property: null, history: null, historyError: null, ...source },
        empty: 'Nothing pushed yet.',
        width: 'min(40rem, 92vw)',
      },
      slots: { item: ({ record }: { record: ChangeRecord }) => h('li', { class: 'row' }, String(record.id)) },
      global,
      attachTo: document.body,
    });
  }

  it('says it is loading, then lists each change newest first under the property’s name', async () => {
    mountPanel({});
    await flushPromises();
    expect($('[data-testid="history-panel"] .history__empty')?.getAttribute('aria-busy')).toBe('true');
    document.body.innerHTML = '';
    mountPanel({ property: { hotelId: 'H1', name: 'Harbour View' }, history: [record({ id: 3 }), record({ id: 2 })] });
    await flushPromises();
    expect($('.history__title')?.textContent).toContain('Harbour View · newest first');
    expect($$('.history .row').map((r) => r.textContent)).toEqual(['3', '2']);
  });

  it('says when there is nothing yet, and why the history could not be read', async () => {
    mountPanel({ history: [] });
    await flushPromises();
    expect($('.history__empty')?.textContent).toBe('Nothing pushed yet.');
    document.body.innerHTML = '';
    mountPanel({ historyError: { code: 'x', message: 'The store is closed.' } });
    await flushPromises();
    expect($('[data-testid="history-panel"]')?.textContent).toContain('The store is closed.');
    expect($('.history__empty')).toBeNull();
  });
});

describe('the title row of a reviewed-change screen', () => {
  const ids = { title: 'rates-title', switcher: 'rates-property', history: 'history-button' };
  const screen = (over: Record<string, unknown>) => ({
    properties: [{ hotelId: 'H1', name: 'Harbour View' }],
    hotelId: 'H1',
    property: { hotelId: 'H1', name: 'Harbour View' },
    history: [record({ state: 'failed' }), record({ id: 2, state: 'failed' }), record({ id: 3, state: 'sent' })],
    historyError: null,
    ...over,
  });

  it('names the one property, counts the changes that failed, and toggles History', async () => {
    const wrapper = mount(ChangeHeader, {
      props: { historyOpen: false, title: 'Rates & availability', ids, source: screen({}) },
      slots: { actions: () => h('button', { class: 'setup' }, 'Rooms') },
      global,
    });
    expect(wrapper.get('h1').attributes('id')).toBe('rates-title');
    expect(wrapper.get('[data-testid="rates-property"]').text()).toBe('Harbour View · H1');
    const history = wrapper.get('[data-testid="history-button"]');
    expect(history.text()).toContain('2');
    expect(history.text()).toContain('failed');
    expect(wrapper.find('.setup').exists()).toBe(true);
    await history.trigger('click');
    expect(wrapper.emitted('update:historyOpen')).toEqual([[true]]);
  });

  it('offers a switcher between several properties, labelled, and no History without a property', () => {
    const wrapper = mount(ChangeHeader, {
      props: {
        historyOpen: false,
        title: 'Property',
        ids,
        source: screen({
          properties: [
            { hotelId: 'H1', name: 'Harbour View' },
            { hotelId: 'H2', name: '' },
          ],
          property: null,
          history: null,
        }),
      },
      global,
    });
    const input = wrapper.get('#rates-property');
    expect(input.attributes('aria-labelledby')).toBe('rates-property-label');
    expect(wrapper.get('#rates-property-label').text()).toBe('Property');
    expect(wrapper.find('[data-testid="history-button"]').exists()).toBe(false);
  });
});

describe('the table of what a change changes', () => {
  it('draws a row per change with the feature’s cells, and a line when there is none', async () => {
    const wrapper = mount(ChangeTable<{ path: string; after: string }>, {
      props: {
        columns: ['Field', 'Becomes'],
        rows: [{ path: 'name', after: 'Harbour House' }],
        rowKey: (row: { path: string }) => row.path,
        rowData: (row: { path: string }) => ({ 'data-path': row.path }),
        empty: 'No field changes.',
        compact: true,
      },
      slots: {
        row: ({ row }: { row: { path: string; after: string } }) => [h('th', row.path), h('td', row.after)],
      },
      global,
    });
    expect(wrapper.classes()).toContain('changes--compact');
    expect(wrapper.findAll('thead th').map((th) => th.text())).toEqual(['Field', 'Becomes']);
    const row = wrapper.get('[data-testid="diff-row"]');
    expect(row.attributes('data-path')).toBe('name');
    expect(row.text()).toBe('nameHarbour House');
    await wrapper.setProps({ rows: [] });
    expect(wrapper.get('.changes__none').text()).toBe('No field changes.');
    expect(wrapper.get('.changes__none').attributes('colspan')).toBe('2');
  });
});
