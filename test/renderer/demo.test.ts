import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import Select from 'primevue/select';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DemoStatus } from '@shared/demo';
import { fail, ok } from '@shared/result';
import DemoControls from '@renderer/features/demo/DemoControls.vue';
import { useDemoStore } from '@renderer/features/demo/demoStore';
import { DEMO_ROWS } from '@renderer/features/demo/slots';
import InboxEmpty from '@renderer/features/inbox/InboxEmpty.vue';
import { usePaymentsStore } from '@renderer/features/payments/paymentsStore';
import { appSections, loadSections } from './appSections';
import { installFakeApi, settle } from './fakeApi';
import { paymentLink, paymentsView } from './paymentFixtures';

const running: DemoStatus = {
  running: true,
  mainUrl: 'http://127.0.0.1:4100/SUAPI',
  liveMessages: true,
  properties: [
    { hotelId: 'DEMO-1', name: 'Seaside Inn' },
    { hotelId: 'DEMO-2', name: 'Mountain Lodge' },
  ],
  error: null,
  mailboxUrl: null,
  laptopClosedAt: null,
  laptopNote: null,
};
const stopped: DemoStatus = {
  running: false,
  mainUrl: null,
  liveMessages: true,
  properties: [],
  error: null,
  mailboxUrl: null,
  laptopClosedAt: null,
  laptopNote: null,
};

let pinia: Pinia;
// The controls' payment row is the payments feature's section of them.
beforeAll(() => loadSections(DEMO_ROWS));
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
});

function mountControls(status: DemoStatus | null) {
  useDemoStore().status = status;
  return mount(DemoControls, {
    global: {
      plugins: [PrimeVue, pinia],
      provide: appSections,
      stubs: { RouterLink: { template: '<a><slot /></a>' } },
    },
    attachTo: document.body,
  });
}

/** The toggle for `name` inside the channel choice `testId`. */
const channelButton = (wrapper: ReturnType<typeof mountControls>, testId: string, name: string) =>
  wrapper
    .get(`[data-testid="${testId}"]`)
    .findAll('button')
    .find((b) => b.text() === name)!;

describe('the demo store', () => {
  it('sends exactly the delivery asked for and keeps what the core says arrived', async () => {
    const core = installFakeApi();
    const demo = useDemoStore();
    const delivering = demo.deliver({ kind: 'review', channel: '9', hotelId: 'DEMO-2' });
    const [call] = core.pending('demo.deliver');
    expect(call?.args).toEqual({ kind: 'review', channel: '9', hotelId: 'DEMO-2' });
    expect(demo.delivering).toBe(true);

    call!.answer(ok({ acknowledged: true, summary: 'Pieter’s review arrived from Expedia.' }));
    expect(await delivering).toBe(true);
    expect(demo.result?.summary).toBe('Pieter’s review arrived from Expedia.');
    expect(demo.error).toBeNull();
    expect(demo.delivering).toBe(false);
  });

  it('sends nothing more while a delivery is on its way', async () => {
    const core = installFakeApi();
    const demo = useDemoStore();
    const first = demo.deliver({ kind: 'legacy-review', hotelId: 'DEMO-1' });
    const second = demo.deliver({ kind: 'message', channel: '244', hotelId: 'DEMO-1' });
    expect(core.pending('demo.deliver')).toHaveLength(1);
    expect(await second).toBe(false);

    core.pending('demo.deliver')[0]!.answer(ok({ acknowledged: true, summary: 'Arrived.' }));
    await first;
    // Once the first has an answer, the next one goes.
    void demo.deliver({ kind: 'message', channel: '244', hotelId: 'DEMO-1' });
    expect(core.pending('demo.deliver')).toHaveLength(1);
  });

  it('keeps the core’s error, and drops it with the demo when the demo stops', async () => {
    const core = installFakeApi({
      'demo.deliver': () => fail({ code: 'not_configured', message: 'The demo provider is not running.' }),
    });
    const demo = useDemoStore();
    demo.listen();
    expect(await demo.deliver({ kind: 'message', channel: '19', hotelId: 'DEMO-1' })).toBe(false);
    expect(demo.error?.message).toBe('The demo provider is not running.');
    expect(demo.action).toBe('message');

    core.emit('demo.changed', stopped);
    expect(demo.status).toEqual(stopped);
    expect(demo.error).toBeNull();
  });

  it('follows the demo as the core reports it starting and its settings changing', () => {
    const core = installFakeApi();
    const demo = useDemoStore();
    const stop = demo.listen();
    core.emit('demo.changed', running);
    expect(demo.status).toEqual(running);
    core.emit('demo.changed', { ...running, liveMessages: false });
    expect(demo.status?.liveMessages).toBe(false);

    stop();
    core.emit('demo.changed', stopped);
    expect(demo.status?.running).toBe(true);
  });
});

describe('DemoControls', () => {
  it('pays an open payment link as the guest, and says where to make one while there is none', async () => {
    const core = installFakeApi({ 'payments.list': () => ok(paymentsView({ links: [] })) });
    const wrapper = mountControls(running);
    await flushPromises();
    expect(wrapper.get('[data-testid="demo-payment"]').text()).toContain('No open payment link yet');

    const payments = usePaymentsStore();
    payments.view = paymentsView({
      links: [paymentLink({ id: 2, transactionId: null }), paymentLink({ id: 1, transactionId: 'T-9' })],
    });
    await flushPromises();
    // Only a link the host gave a transaction id can be paid here.
    expect(wrapper.get('[data-testid="demo-payment-link"]').text()).toContain('Deposit · €45.50 · Anna');
    await wrapper.get('[data-testid="demo-deliver-payment"]').trigger('click');
    expect(core.pending('demo.deliver')[0]?.args).toEqual({ kind: 'payment', transactionId: 'T-9' });
    wrapper.unmount();
  });

  it('shows nothing while the demo is not running', () => {
    expect(mountControls(stopped).find('[data-testid="demo-controls"]').exists()).toBe(false);
    expect(mountControls(null).find('[data-testid="demo-controls"]').exists()).toBe(false);
  });

  it('offers the demo’s properties, the first chosen, and every control labelled', () => {
    const wrapper = mountControls(running);
    const picker = wrapper.getComponent(Select);
    expect(picker.props('options')).toEqual([
      expect.objectContaining({ hotelId: 'DEMO-1', label: 'Seaside Inn' }),
      expect.objectContaining({ hotelId: 'DEMO-2', label: 'Mountain Lodge' }),
    ]);
    expect(wrapper.get('[data-testid="demo-property"]').text()).toContain('Seaside Inn');
    expect(
      wrapper
        .get('[data-testid="demo-message-channel"]')
        .findAll('button')
        .map((b) => b.text()),
    ).toEqual(['Airbnb', 'Booking.com', 'Expedia']);
    expect(
      wrapper
        .get('[data-testid="demo-review-channel"]')
        .findAll('button')
        .map((b) => b.text()),
    ).toEqual(['Booking.com', 'Expedia']);
    // Each choice and the switch is named by the words beside it.
    for (const [selector, name] of [
      ['[data-testid="demo-property"] [role="combobox"]', 'Property'],
      ['[data-testid="demo-message-channel"]', 'A guest message'],
      ['[data-testid="demo-review-channel"]', 'A review'],
    ]) {
      const labelId = wrapper.get(selector!).attributes('aria-labelledby');
      expect(document.getElementById(labelId!)?.textContent?.trim()).toBe(name);
    }
    const live = wrapper.get('[data-testid="demo-live-messages"] input');
    expect(wrapper.get(`label[for="${live.attributes('id')}"]`).text()).toBe('A new guest message now and then');
    expect((live.element as HTMLInputElement).checked).toBe(true);
    wrapper.unmount();
  });

  it('delivers on the property and channel chosen and shows what arrived', async () => {
    const core = installFakeApi();
    const wrapper = mountControls(running);
    wrapper.getComponent(Select).vm.$emit('update:modelValue', 'DEMO-2');
    await channelButton(wrapper, 'demo-message-channel', 'Expedia').trigger('click');
    await wrapper.get('[data-testid="demo-deliver-message"]').trigger('click');
    expect(core.pending('demo.deliver').map((c) => c.args)).toEqual([
      { kind: 'message', channel: '9', hotelId: 'DEMO-2' },
    ]);

    // Busy: no button can start another delivery until this one has its answer.
    await wrapper.vm.$nextTick();
    for (const id of ['demo-deliver-message', 'demo-deliver-review', 'demo-deliver-legacy-review'])
      expect(wrapper.get(`[data-testid="${id}"]`).attributes('disabled')).toBeDefined();
    await wrapper.get('[data-testid="demo-deliver-review"]').trigger('click');
    expect(core.pending('demo.deliver')).toHaveLength(1);

    core.pending('demo.deliver')[0]!.answer(ok({ acknowledged: true, summary: 'Anna’s message arrived on Expedia.' }));
    await flushPromises();
    const result = wrapper.get('[data-testid="demo-result"]');
    expect(result.text()).toBe('Anna’s message arrived on Expedia.');
    expect(result.find('[role="alert"]').exists()).toBe(false);

    await channelButton(wrapper, 'demo-review-channel', 'Expedia').trigger('click');
    await wrapper.get('[data-testid="demo-deliver-review"]').trigger('click');
    await wrapper.get('[data-testid="demo-deliver-legacy-review"]').trigger('click');
    expect(core.pending('demo.deliver').map((c) => c.args)).toEqual([
      { kind: 'review', channel: '9', hotelId: 'DEMO-2' },
    ]);
    wrapper.unmount();
  });

  it('shows the core’s error as a problem, with a field’s complaint next to its control', async () => {
    installFakeApi({
      'demo.deliver': () =>
        fail({
          code: 'validation',
          message: 'channel: Reviews of this kind come from Booking.com or Expedia.',
          field: 'channel',
          fields: { channel: 'Reviews of this kind come from Booking.com or Expedia.' },
        }),
    });
    const wrapper = mountControls(running);
    await wrapper.get('[data-testid="demo-deliver-review"]').trigger('click');
    await flushPromises();

    const problem = wrapper.get('[data-testid="demo-result"]');
    expect(problem.attributes('role')).toBe('alert');
    expect(problem.text()).toContain('channel: Reviews of this kind come from Booking.com or Expedia.');
    const reviewRow = wrapper.get('[data-testid="demo-review-channel"]').element.parentElement!;
    expect(reviewRow.querySelector('.demo__error')?.textContent).toBe(
      'Reviews of this kind come from Booking.com or Expedia.',
    );
    // Not next to the message's channel: that delivery did not fail.
    const messageRow = wrapper.get('[data-testid="demo-message-channel"]').element.parentElement!;
    expect(messageRow.querySelector('.demo__error')).toBeNull();
    wrapper.unmount();
  });

  it('shows a delivery the listener did not take as a problem', async () => {
    installFakeApi({
      'demo.deliver': () => ok({ acknowledged: false, summary: 'The listener did not take the review.' }),
    });
    const wrapper = mountControls(running);
    await wrapper.get('[data-testid="demo-deliver-legacy-review"]').trigger('click');
    await flushPromises();
    const problem = wrapper.get('[data-testid="demo-result"]');
    expect(problem.attributes('role')).toBe('alert');
    expect(problem.text()).toBe('The listener did not take the review.');
    wrapper.unmount();
  });

  it('switches the live messages through the core and shows what the core says', async () => {
    const core = installFakeApi();
    const wrapper = mountControls(running);
    await wrapper.get('[data-testid="demo-live-messages"] input').trigger('change');
    const [call] = core.pending('demo.setLiveMessages');
    expect(call?.args).toEqual({ enabled: false });
    call!.answer(ok({ ...running, liveMessages: false }));
    await flushPromises();
    expect((wrapper.get('[data-testid="demo-live-messages"] input').element as HTMLInputElement).checked).toBe(false);
    wrapper.unmount();
  });
});

describe('the inbox’s empty state', () => {
  function mountEmpty(demo: DemoStatus) {
    installFakeApi({
      'intake.status': () => fail({ code: 'internal', message: 'not in this test' }),
      'demo.status': () => ok(demo),
    });
    return mount(InboxEmpty, {
      props: { kind: 'messages' },
      global: { plugins: [PrimeVue, pinia], stubs: { RouterLink: { template: '<a><slot /></a>' } } },
    });
  }

  it('offers the demo controls while the demo runs', async () => {
    const wrapper = mountEmpty(running);
    await settle();
    await flushPromises();
    const empty = wrapper.get('[data-testid="messages-empty"]');
    expect(empty.text()).toContain('No messages yet');
    expect(empty.text()).toContain('you can make something arrive now');
    expect(empty.find('[data-testid="demo-controls"]').exists()).toBe(true);
    expect(empty.text()).not.toContain('password');
  });

  it('offers none when the demo is not running, and takes them away when it stops', async () => {
    const wrapper = mountEmpty(stopped);
    await flushPromises();
    expect(wrapper.find('[data-testid="demo-controls"]').exists()).toBe(false);
    expect(wrapper.text()).toContain('Su delivers to the public address you registered with it');

    const demo = useDemoStore();
    demo.status = running;
    await flushPromises();
    expect(wrapper.find('[data-testid="demo-controls"]').exists()).toBe(true);
    demo.status = stopped;
    await flushPromises();
    expect(wrapper.find('[data-testid="demo-controls"]').exists()).toBe(false);
  });
});

describe('“Close the laptop for an hour” in the demo controls', () => {
  const withMailbox: DemoStatus = { ...running, mailboxUrl: 'http://127.0.0.1:40000' };

  it('shows only with the demo’s own mailbox; closes, says what the guests wrote, and opens again', async () => {
    expect(mountControls(running).find('[data-testid="demo-laptop"]').exists()).toBe(false);
    document.body.innerHTML = '';
    const core = installFakeApi();
    const wrapper = mountControls(withMailbox);
    expect(wrapper.get('[data-testid="demo-controls"]').text()).toContain('through the demo’s mailbox');
    await wrapper.get('[data-testid="demo-laptop-close"]').trigger('click');
    const [close] = core.pending('demo.laptop');
    expect(close?.args).toEqual({ open: false });
    const note = 'While the laptop is closed, 3 guest messages and a review reached your mailbox: they wait there.';
    close!.answer(ok({ ...withMailbox, laptopClosedAt: Date.now(), laptopNote: note }));
    await flushPromises();
    expect(wrapper.get('[data-testid="demo-laptop-note"]').text()).toBe(note);
    await wrapper.get('[data-testid="demo-laptop-open"]').trigger('click');
    const [open] = core.pending('demo.laptop');
    expect(open?.args).toEqual({ open: true });
    open!.answer(ok(withMailbox));
    await flushPromises();
    expect(wrapper.find('[data-testid="demo-laptop-close"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('a refusal says why, next to the laptop', async () => {
    installFakeApi({
      'demo.laptop': () =>
        fail({ code: 'not_configured', message: 'The demo’s mailbox is not running.', retryable: false }),
    });
    const wrapper = mountControls(withMailbox);
    await wrapper.get('[data-testid="demo-laptop-close"]').trigger('click');
    await flushPromises();
    expect(wrapper.get('[data-testid="demo-laptop-error"]').text()).toContain('The demo’s mailbox is not running.');
    wrapper.unmount();
  });
});
