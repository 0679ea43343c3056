import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IntakeStatus } from '@shared/intake';
import type { MailboxStatus } from '@shared/mailbox';
import { ErrorCode, fail, ok, type AppError } from '@shared/result';
import { useIntakeStore } from '@renderer/features/intake/intakeStore';
import MailboxSection from '@renderer/features/mailbox/MailboxSection.vue';
import WhileOffNote from '@renderer/features/mailbox/WhileOffNote.vue';
import { downPeriods } from '@renderer/features/mailbox/mailboxWords';
import { installFakeApi } from './fakeApi';

// "Receive through my mailbox" on the Connection screen, in each of its states, and the inbox's note of what arrived
// while this computer was off.

const MINUTE = 60_000;
const status = (over: Partial<MailboxStatus> = {}): MailboxStatus => ({
  paired: false,
  url: null,
  pushUrl: null,
  pushUser: null,
  deviceId: null,
  pairedAt: null,
  connected: false,
  unreachableSince: null,
  lastDeliveryAt: null,
  lastCollectedAt: null,
  waiting: null,
  up: [],
  checkedAt: null,
  whileOff: null,
  lastError: null,
  demo: false,
  paused: false,
  devices: [],
  ...over,
});
const paired = (over: Partial<MailboxStatus> = {}) =>
  status({
    paired: true,
    url: 'https://mailbox.example.com',
    pushUrl: 'https://mailbox.example.com/push',
    pushUser: 'su-partner',
    deviceId: 'd1',
    pairedAt: Date.now() - 60 * MINUTE,
    connected: true,
    lastDeliveryAt: Date.now() - 5 * MINUTE,
    waiting: 0,
    checkedAt: Date.now(),
    ...over,
  });
/** A refusal next to a field, as the core's mailbox service makes it. */
const fieldError = (field: 'url' | 'code', message: string): AppError => ({
  code: ErrorCode.Validation,
  message,
  field,
  fields: { [field]: message },
  retryable: false,
});

let pinia: Pinia;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  localStorage.clear();
});
afterEach(() => {
  document.body.innerHTML = '';
});

function mountSection(passwordSet = true) {
  useIntakeStore().status = { passwordSet } as IntakeStatus;
  return mount(MailboxSection, { global: { plugins: [PrimeVue, pinia] }, attachTo: document.body });
}

describe('pairing with the mailbox', () => {
  it('sends the address and code typed; each refusal shows next to its field', async () => {
    const core = installFakeApi({ 'mailbox.status': () => ok(status()) });
    const wrapper = mountSection();
    await flushPromises();
    await wrapper.get('input#mailboxUrl').setValue('https://mailbox.example.com');
    await wrapper.get('input#mailboxCode').setValue('7k3m q9px a2rt');
    await wrapper.get('[data-testid="mailbox-pair"]').trigger('click');
    const [call] = core.pending('mailbox.pair');
    expect(call?.args).toEqual({ url: 'https://mailbox.example.com', code: '7k3m q9px a2rt' });

    const refusals: [AppError, string, string][] = [
      [
        fieldError(
          'code',
          'This pairing code is not right: check it where the mailbox printed it. 4 more tries before it stops working.',
        ),
        '#mailboxCode-error',
        '4 more tries before it stops working.',
      ],
      [
        fieldError('code', 'This pairing code no longer works: it was entered wrong too many times. Make a new one…'),
        '#mailboxCode-error',
        'entered wrong too many times',
      ],
      [
        fieldError('code', 'This pairing code has expired or was already used (a code works once, for 15 minutes).'),
        '#mailboxCode-error',
        'has expired',
      ],
      [
        fieldError('url', 'Innkeeper could not reach the mailbox at https://mailbox.example.com: connection refused.'),
        '#mailboxUrl-error',
        'could not reach the mailbox',
      ],
    ];
    call!.answer(fail(refusals[0]![0]));
    await flushPromises();
    for (const [error, where, text] of refusals) {
      if (error !== refusals[0]![0]) {
        await wrapper.get('[data-testid="mailbox-pair"]').trigger('click');
        core.pending('mailbox.pair').at(-1)!.answer(fail(error));
        await flushPromises();
      }
      expect(wrapper.get(where).text()).toContain(text);
      expect(wrapper.findAll('.field__error')).toHaveLength(1);
      expect(wrapper.get(`input${where.replace('-error', '')}`).attributes('aria-invalid')).toBe('true');
    }
    wrapper.unmount();
  });

  it('an event heard before the pairing’s answer is not undone by it (connected at once on a near mailbox)', async () => {
    let reads = 0;
    const core = installFakeApi({
      'mailbox.status': () => ok(reads++ === 0 ? status() : paired()),
    });
    const wrapper = mountSection();
    await flushPromises();
    await wrapper.get('input#mailboxUrl').setValue('https://mailbox.example.com');
    await wrapper.get('input#mailboxCode').setValue('7K3M-Q9PX-A2RT');
    await wrapper.get('[data-testid="mailbox-pair"]').trigger('click');
    // The core connects before its answer to the pairing reaches the window.
    core.emit('mailbox.changed', paired());
    core.pending('mailbox.pair')[0]!.answer(ok(paired({ connected: false })));
    await flushPromises();
    expect(wrapper.get('[data-testid="mailbox-state"]').text()).toBe(
      'Connected: messages come in as soon as Su delivers them.',
    );
    wrapper.unmount();
  });

  it('refuses a plain http address and a code that cannot be one before asking the core', async () => {
    const core = installFakeApi({ 'mailbox.status': () => ok(status()) });
    const wrapper = mountSection();
    await flushPromises();
    await wrapper.get('input#mailboxUrl').setValue('http://mailbox.example.com');
    await wrapper.get('input#mailboxCode').setValue('1234');
    await wrapper.get('[data-testid="mailbox-pair"]').trigger('click');
    await flushPromises();
    expect(core.pending('mailbox.pair')).toHaveLength(0);
    expect(wrapper.get('#mailboxUrl-error').text()).toContain('Use the mailbox’s https:// address');
    expect(wrapper.get('#mailboxCode-error').text()).toContain('12 letters and digits');
    wrapper.unmount();
  });

  it('waits for a password for Su, and shows a refusal about no field', async () => {
    installFakeApi({
      'mailbox.status': () => ok(status()),
      'mailbox.pair': () =>
        fail({ code: ErrorCode.NotConfigured, message: 'Choose the password Su will use first.', retryable: false }),
    });
    const wrapper = mountSection(false);
    await flushPromises();
    expect(wrapper.get('[data-testid="mailbox-no-password"]').text()).toContain(
      'Choose the password Su will use first, under Receiving messages and reviews',
    );
    expect(wrapper.get('[data-testid="mailbox-pair"]').attributes('disabled')).toBeDefined();
    // Once set (the Receiving section saved it), Pair asks; a refusal about no field shows under the form.
    useIntakeStore().status = { passwordSet: true } as IntakeStatus;
    await flushPromises();
    expect(wrapper.find('[data-testid="mailbox-no-password"]').exists()).toBe(false);
    await wrapper.get('input#mailboxUrl').setValue('https://mailbox.example.com');
    await wrapper.get('input#mailboxCode').setValue('7K3M-Q9PX-A2RT');
    await wrapper.get('[data-testid="mailbox-pair"]').trigger('click');
    await flushPromises();
    expect(wrapper.get('[data-testid="mailbox-pair-error"]').text()).toBe('Choose the password Su will use first.');
    wrapper.unmount();
  });
});

describe('a paired mailbox', () => {
  it('shows its health, exactly what to register with Su, and unpairs', async () => {
    const core = installFakeApi({ 'mailbox.status': () => ok(paired({ waiting: 3 })) });
    const wrapper = mountSection();
    await flushPromises();
    expect(wrapper.get('[data-testid="mailbox-state"]').text()).toBe(
      'Connected: messages come in as soon as Su delivers them.',
    );
    expect(wrapper.text()).toContain('Paired with https://mailbox.example.com since');
    expect(wrapper.get('[data-testid="mailbox-waiting"]').text()).toBe('3 deliveries waiting for this computer');
    expect(wrapper.get<HTMLInputElement>('input#mailboxPushUrl').element.value).toBe(
      'https://mailbox.example.com/push',
    );
    expect(wrapper.get<HTMLInputElement>('input#mailboxPushUser').element.value).toBe('su-partner');
    expect(wrapper.get('[data-testid="mailbox-register"]').text()).toContain(
      'Password: the Password for Su under Receiving messages and reviews',
    );
    expect(wrapper.find('[data-testid="mailbox-unreachable-long"]').exists()).toBe(false);
    await wrapper.get('[data-testid="mailbox-unpair"]').trigger('click');
    const [call] = core.pending('mailbox.unpair');
    expect(call).toBeDefined();
    call!.answer(ok(status({ url: 'https://mailbox.example.com' })));
    await flushPromises();
    expect(wrapper.find('[data-testid="mailbox-pair"]').exists()).toBe(true);
    // The address fills the form again; the code is used once.
    expect(wrapper.get<HTMLInputElement>('input#mailboxUrl').element.value).toBe('https://mailbox.example.com');
    wrapper.unmount();
  });

  it('out of reach for a few minutes: says so and offers this computer’s own listener', async () => {
    const since = Date.now() - 5 * MINUTE;
    installFakeApi({
      'mailbox.status': () =>
        ok(
          paired({
            connected: false,
            unreachableSince: since,
            lastError: { message: 'The mailbox could not be reached: connection refused.', at: since },
          }),
        ),
    });
    const wrapper = mountSection();
    await flushPromises();
    expect(wrapper.get('[data-testid="mailbox-state"]').text()).toMatch(/^The mailbox cannot be reached since /);
    expect(wrapper.get('[data-testid="mailbox-problem"]').text()).toBe(
      'The mailbox could not be reached: connection refused.',
    );
    const offer = wrapper.get('[data-testid="mailbox-unreachable-long"]');
    expect(offer.text()).toContain('out of reach for 5 minutes');
    expect(offer.get('a[href="#receiving"]').text()).toBe('Receiving messages and reviews');
    wrapper.unmount();
  });

  it('a moment out of reach is not yet worth the fallback', async () => {
    installFakeApi({
      'mailbox.status': () => ok(paired({ connected: false, unreachableSince: Date.now() - 30_000 })),
    });
    const wrapper = mountSection();
    await flushPromises();
    expect(wrapper.get('[data-testid="mailbox-state"]').text()).toMatch(/^The mailbox cannot be reached since /);
    expect(wrapper.find('[data-testid="mailbox-unreachable-long"]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('says when the mailbox itself was not running, from its up periods', async () => {
    const t = Date.now() - 120 * MINUTE;
    const up = [
      { from: t, to: t + 30 * MINUTE },
      { from: t + 45 * MINUTE, to: t + 46 * MINUTE },
      { from: t + 46.5 * MINUTE, to: null },
    ];
    expect(downPeriods(up)).toEqual([
      { from: t + 30 * MINUTE, to: t + 45 * MINUTE },
      { from: t + 46 * MINUTE, to: t + 46.5 * MINUTE },
    ]);
    installFakeApi({ 'mailbox.status': () => ok(paired({ up })) });
    const wrapper = mountSection();
    await flushPromises();
    const downtime = wrapper.get('.downtime');
    expect(downtime.text()).toContain('The mailbox was not running:');
    // The half-minute restart cannot have cost a message (Su reposts): only the quarter of an hour is listed.
    expect(downtime.findAll('li')).toHaveLength(1);
    wrapper.unmount();
  });

  it('the demo’s own mailbox: paired and working, paused while the laptop is closed, nothing to register', async () => {
    const core = installFakeApi({
      'mailbox.status': () => ok(paired({ demo: true, url: 'http://127.0.0.1:40000', pushUser: null })),
    });
    const wrapper = mountSection();
    await flushPromises();
    expect(wrapper.text()).toContain('The demo’s own mailbox, inside Innkeeper: http://127.0.0.1:40000');
    expect(wrapper.get('[data-testid="mailbox-register"]').text()).toContain('nothing on the demo');
    expect(wrapper.find('[data-testid="mailbox-unpair"]').exists()).toBe(false);
    core.emit('mailbox.changed', paired({ demo: true, connected: false, paused: true }));
    await flushPromises();
    expect(wrapper.get('[data-testid="mailbox-state"]').text()).toBe(
      'Collecting is paused (the laptop is closed): what arrives waits in the mailbox until it opens (Open the laptop, under Demo deliveries above).',
    );
    expect(wrapper.find('[data-testid="mailbox-waiting"]').exists()).toBe(false);
    wrapper.unmount();
  });
});

describe('the devices paired with the mailbox', () => {
  const self = { id: 'd1', name: 'Laptop', pairedAt: Date.now() - 60 * MINUTE, lastSeenAt: Date.now(), self: true };
  const desk = {
    id: 'd2',
    name: 'Front desk PC',
    pairedAt: Date.now() - 600 * MINUTE,
    lastSeenAt: Date.now() - 180 * MINUTE,
    self: false,
  };
  const old = { id: 'd3', name: 'Old laptop', pairedAt: Date.now() - 900 * MINUTE, lastSeenAt: null, self: false };

  it('lists them, this computer first and not unpairable here; another is unpaired after a confirmation', async () => {
    const core = installFakeApi({ 'mailbox.status': () => ok(paired({ devices: [desk, old, self] })) });
    const wrapper = mountSection();
    await flushPromises();
    const rows = wrapper.findAll('[data-testid^="mailbox-device"]').filter((r) => r.element.tagName === 'LI');
    expect(rows.map((r) => r.find('.device__name').text())).toEqual([
      'Laptop This computer',
      'Old laptop',
      'Front desk PC',
    ]);
    expect(rows[0]!.find('[data-testid="mailbox-device-unpair"]').exists()).toBe(false);
    expect(rows[1]!.text()).toContain('not seen since it was paired');
    expect(rows[2]!.text()).toContain('last seen');

    // Nothing is asked before the owner confirms; "Keep it" takes the question back.
    await rows[2]!.get('[data-testid="mailbox-device-unpair"]').trigger('click');
    expect(rows[2]!.text()).toContain('Unpair Front desk PC? It can no longer collect from the mailbox');
    const keep = rows[2]!.findAll('button').find((b) => b.text() === 'Keep it')!;
    await keep.trigger('click');
    expect(rows[2]!.find('[data-testid="mailbox-device-unpair-confirm"]').exists()).toBe(false);
    expect(core.pending('mailbox.unpairDevice')).toEqual([]);

    await rows[2]!.get('[data-testid="mailbox-device-unpair"]').trigger('click');
    await rows[2]!.get('[data-testid="mailbox-device-unpair-confirm"]').trigger('click');
    const [call] = core.pending('mailbox.unpairDevice');
    expect(call!.args).toEqual({ deviceId: 'd2' });
    call!.answer(ok(paired({ devices: [old, self] })));
    await flushPromises();
    expect(wrapper.findAll('li[data-testid="mailbox-device"]').map((r) => r.find('.device__name').text())).toEqual([
      'Old laptop',
    ]);
    wrapper.unmount();
  });

  it('a refusal stays in the device’s row, with the question still open', async () => {
    const core = installFakeApi({ 'mailbox.status': () => ok(paired({ devices: [self, desk] })) });
    const wrapper = mountSection();
    await flushPromises();
    const row = wrapper.get('li[data-testid="mailbox-device"]');
    await row.get('[data-testid="mailbox-device-unpair"]').trigger('click');
    await row.get('[data-testid="mailbox-device-unpair-confirm"]').trigger('click');
    const message = 'Innkeeper could not reach the mailbox to unpair the device: connection refused. Try again.';
    core.pending('mailbox.unpairDevice')[0]!.answer(fail({ code: ErrorCode.Network, message, retryable: true }));
    await flushPromises();
    expect(row.get('[data-testid="mailbox-device-error"]').text()).toBe(message);
    expect(row.find('[data-testid="mailbox-device-unpair-confirm"]').exists()).toBe(true);
    wrapper.unmount();
  });

  it('alone on the mailbox: this computer listed, with nothing to unpair and no advice about others', async () => {
    installFakeApi({ 'mailbox.status': () => ok(paired({ devices: [self] })) });
    const wrapper = mountSection();
    await flushPromises();
    expect(wrapper.get('[data-testid="mailbox-device-self"]').text()).toContain('This computer');
    expect(wrapper.find('[data-testid="mailbox-device-unpair"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="mailbox-devices"]').text()).not.toContain('A computer you no longer have');
    wrapper.unmount();
  });

  it('shows no list before the mailbox’s health was read', async () => {
    installFakeApi({ 'mailbox.status': () => ok(paired({ devices: [] })) });
    const wrapper = mountSection();
    await flushPromises();
    expect(wrapper.find('[data-testid="mailbox-devices"]').exists()).toBe(false);
    wrapper.unmount();
  });
});

describe('what arrived while this computer was off, in the inbox', () => {
  const whileOff = (collectedAt: number) => ({
    messages: 3,
    reviews: 1,
    quarantined: 0,
    from: collectedAt - 50 * MINUTE,
    to: collectedAt - 10 * MINUTE,
    collectedAt,
    text: '3 messages and 1 review arrived while this computer was off',
  });

  it('shows until dismissed, stays away after a reload, and a later catch-up shows again', async () => {
    const first = Date.now() - MINUTE;
    const core = installFakeApi({ 'mailbox.status': () => ok(paired({ whileOff: whileOff(first) })) });
    const mountNote = async () => {
      const wrapper = mount(WhileOffNote, { global: { plugins: [PrimeVue, pinia] }, attachTo: document.body });
      const store = (await import('@renderer/features/mailbox/mailboxStore')).useMailboxStore();
      await store.load();
      store.listen();
      await flushPromises();
      return wrapper;
    };
    let wrapper = await mountNote();
    const note = wrapper.get('[data-testid="mailbox-while-off"]');
    expect(note.text()).toContain('3 messages and 1 review arrived while this computer was off');
    expect(note.text()).toContain('your mailbox kept them (between ');
    await note.get('[data-testid="mailbox-while-off-dismiss"]').trigger('click');
    expect(wrapper.find('[data-testid="mailbox-while-off"]').exists()).toBe(false);
    wrapper.unmount();

    // A new window (a reload): still put away.
    pinia = createPinia();
    setActivePinia(pinia);
    wrapper = await mountNote();
    expect(wrapper.find('[data-testid="mailbox-while-off"]').exists()).toBe(false);
    core.emit('mailbox.changed', paired({ whileOff: { ...whileOff(Date.now()), messages: 1, text: 'x' } }));
    await flushPromises();
    expect(wrapper.get('[data-testid="mailbox-while-off"]').text()).toContain('x');
    wrapper.unmount();
  });

  it('after a reload, says again the summary the core kept (not put away), with its counts and times', async () => {
    const kept = {
      ...whileOff(Date.now() - 5 * MINUTE),
      messages: 7,
      text: '7 messages arrived while this computer was off',
    };
    installFakeApi({ 'mailbox.status': () => ok(paired({ whileOff: kept })) });
    const mountNote = async () => {
      const wrapper = mount(WhileOffNote, { global: { plugins: [PrimeVue, pinia] }, attachTo: document.body });
      const store = (await import('@renderer/features/mailbox/mailboxStore')).useMailboxStore();
      await store.load();
      await flushPromises();
      return wrapper;
    };
    let wrapper = await mountNote();
    const before = wrapper.get('[data-testid="mailbox-while-off"]').text();
    expect(before).toContain('7 messages arrived while this computer was off');
    wrapper.unmount();

    // A new window (a reload), the core still saying the same summary: the same note, word for word.
    pinia = createPinia();
    setActivePinia(pinia);
    wrapper = await mountNote();
    expect(wrapper.get('[data-testid="mailbox-while-off"]').text()).toBe(before);
    wrapper.unmount();
  });
});
