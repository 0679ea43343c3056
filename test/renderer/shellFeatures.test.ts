/* eslint-disable vue/one-component-per-file -- small components standing in for features' screens and sections */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, type Component } from 'vue';
import type { DemoStatus } from '@shared/demo';
import type { Environment } from '@shared/environments';
import type { ThreadDetail } from '@shared/inbox';
import type { IntakeStatus } from '@shared/intake';
import { fail, ok } from '@shared/result';
import { CONNECTION_AFTER, CONNECTION_FORM, CONNECTION_GUIDE } from '@renderer/features/connection/slots';
import DemoControls from '@renderer/features/demo/DemoControls.vue';
import { useDemoStore } from '@renderer/features/demo/demoStore';
import DemoSection from '@renderer/features/demo/DemoSection.vue';
import { DEMO_ROWS } from '@renderer/features/demo/slots';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';
import IntakeSection from '@renderer/features/intake/IntakeSection.vue';
import { useIntakeStore } from '@renderer/features/intake/intakeStore';
import ReplyComposer from '@renderer/features/inbox/replies/ReplyComposer.vue';
import { REPLY_TOOLS } from '@renderer/features/inbox/slots';
import { useOutboxStore } from '@renderer/features/outbox/outboxStore';
import { usePaymentsStore } from '@renderer/features/payments/paymentsStore';
import { useNoticesStore } from '@renderer/features/property/notices/noticesStore';
import { defineFeature, type Feature } from '@renderer/lib/feature';
import {
  createSections,
  defineSlot,
  section,
  SECTIONS,
  useSections,
  type Sections,
  type Slot,
} from '@renderer/lib/sections';
import App from '@renderer/shell/App.vue';
import AppNav from '@renderer/shell/AppNav.vue';
import { FEATURES } from '@renderer/shell/features';
import { navEntries, routes, routesOf } from '@renderer/shell/router';
import { appSections, loadSections } from './appSections';
import { installFakeApi } from './fakeApi';
import { paymentLink, paymentsView } from './paymentFixtures';
import { blankRouter, mountIt } from './paymentsDom';

// The shell builds itself from one ordered list of feature objects (shell/features.ts): routes, navigation, the
// sections one feature puts into another's screen, and what it does for each while the app runs.

let pinia: Pinia;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  document.body.innerHTML = '';
});

/** A component that shows its name and props, as a feature's section would. */
const part = (name: string) =>
  defineComponent({
    name,
    props: { who: { type: String, required: true } },
    setup: (props) => () => h('p', { 'data-part': name }, `${name} for ${props.who}`),
  });

/** The sections of `slot`, drawn by a screen of the feature that defined it, each given `who`. */
const screenOf = (slot: Slot<{ who: string }>) =>
  defineComponent({
    setup() {
      const parts = useSections(slot);
      return () =>
        h(
          'div',
          parts.value.map((p) => h(p.component, { key: p.key, who: 'Anna' })),
        );
    },
  });

describe('sections: a feature’s parts of another feature’s screen', () => {
  it('a screen draws what later features put into its slot, in the list’s order, with the props it gives them', async () => {
    const slot = defineSlot<{ who: string }>('test.slot');
    const other = defineSlot<{ who: string }>('test.other');
    let loaded!: (module: { default: Component }) => void;
    const features = [
      { name: 'owner' },
      { name: 'first', sections: [section(slot, { component: part('First') })] },
      {
        name: 'second',
        sections: [
          section(slot, { load: () => new Promise((resolve) => (loaded = resolve)) }),
          section(other, { component: part('Elsewhere') }),
        ],
      },
    ];
    const wrapper = mount(screenOf(slot), {
      global: { provide: { [SECTIONS as symbol]: createSections(features) } },
    });
    // A section drawn at once shows with the screen; one in its own chunk once the chunk is there.
    expect(wrapper.findAll('[data-part]').map((p) => p.text())).toEqual(['First for Anna']);
    loaded({ default: part('Second') });
    await flushPromises();
    expect(wrapper.findAll('[data-part]').map((p) => p.text())).toEqual(['First for Anna', 'Second for Anna']);
  });

  it('loads the sections of the slots asked for, once each, and asks again for a chunk that failed', async () => {
    const slot = defineSlot<{ who: string }>('test.slot');
    const other = defineSlot<{ who: string }>('test.other');
    let fails = true;
    const flaky = vi.fn(async () => {
      if (fails) throw new Error('the app was stopped');
      return { default: part('Flaky') };
    });
    const elsewhere = vi.fn(async () => ({ default: part('Elsewhere') }));
    const sections = createSections([
      { name: 'a', sections: [section(slot, { load: flaky })] },
      { name: 'b', sections: [section(other, { load: elsewhere })] },
    ]);
    await expect(sections.load(slot)).rejects.toThrow('the app was stopped');
    fails = false;
    // Drawing the slot asks again; loading it meanwhile waits for that same load.
    expect(sections.of(slot)).toEqual([]);
    await sections.load(slot);
    await sections.load(slot);
    // The first try, the one after it failed, and no more.
    expect(flaky).toHaveBeenCalledTimes(2);
    expect(elsewhere).not.toHaveBeenCalled();
    expect(sections.of(slot).map((s) => s.key)).toEqual(['a-0']);
  });

  it('a screen mounted with no sections provided draws none', () => {
    const wrapper = mount(screenOf(defineSlot<{ who: string }>('test.slot')));
    expect(wrapper.findAll('[data-part]')).toHaveLength(0);
  });

  it('the reply box has the Payment link only from the payments feature', async () => {
    installFakeApi({ 'savedReplies.list': () => ok([]) });
    const thread = { id: 7, channel: '19', channelName: 'Booking.com', messages: [] } as unknown as ThreadDetail;
    const alone = mount(ReplyComposer, { props: { thread }, global: { plugins: [PrimeVue, pinia] } });
    expect(alone.find('[data-testid="composer-payment-link"]').exists()).toBe(false);
    expect(alone.text()).toContain('Saved replies');
    alone.unmount();

    await loadSections(REPLY_TOOLS);
    const withPayments = mountIt(ReplyComposer, pinia, { thread });
    const tools = withPayments.get('.composer__tools');
    expect(tools.findAll('button').map((b) => b.text())).toEqual(['Payment link', 'Saved replies']);
    withPayments.unmount();
  });

  it('the demo controls’ payment row is named by its section’s label', async () => {
    installFakeApi({
      'payments.list': () => ok(paymentsView({ links: [paymentLink({ id: 1, transactionId: 'T-9' })] })),
    });
    const running = { running: true, liveMessages: false, properties: [{ hotelId: 'H1', name: 'Harbour View' }] };
    useDemoStore().status = running as DemoStatus;
    usePaymentsStore().view = paymentsView({ links: [paymentLink({ id: 1, transactionId: 'T-9' })] });
    await loadSections(DEMO_ROWS);
    const wrapper = mount(DemoControls, {
      global: { plugins: [PrimeVue, pinia], provide: appSections, stubs: { RouterLink: true } },
      attachTo: document.body,
    });
    await flushPromises();
    const select = wrapper.get('[data-testid="demo-payment-link"] [role="combobox"]');
    expect(document.getElementById(select.attributes('aria-labelledby')!)?.textContent?.trim()).toBe('A payment');
    wrapper.unmount();
  });
});

describe('the Connection screen’s sections, each following its own store', () => {
  const running: DemoStatus = {
    running: true,
    mainUrl: 'http://127.0.0.1:4100/SUAPI',
    liveMessages: false,
    properties: [{ hotelId: 'H1', name: 'Harbour View' }],
    error: null,
    mailboxUrl: null,
    laptopClosedAt: null,
    laptopNote: null,
  };
  const mountDemo = (environment: Environment) =>
    mount(DemoSection, {
      props: { environment },
      global: { plugins: [PrimeVue, pinia], provide: appSections, stubs: { RouterLink: true } },
    });

  it('the demo’s deliveries show only while the demo runs and its settings are on screen, and follow it', async () => {
    const core = installFakeApi({ 'demo.status': () => ok(running), 'payments.list': () => ok(paymentsView()) });
    const demo = mountDemo('demo');
    await flushPromises();
    expect(demo.find('[data-testid="demo-section"] [data-testid="demo-controls"]').exists()).toBe(true);
    expect(demo.text()).toContain('Demo deliveries');
    core.emit('demo.changed', { ...running, running: false });
    await flushPromises();
    expect(demo.find('[data-testid="demo-section"]').exists()).toBe(false);
    demo.unmount();
    // Under another provider's settings it would read as theirs.
    const sandbox = mountDemo('sandbox');
    await flushPromises();
    expect(sandbox.find('[data-testid="demo-section"]').exists()).toBe(false);
    sandbox.unmount();
  });

  it('the listener’s section reads its status when it shows and follows it until it goes', async () => {
    const core = installFakeApi();
    const wrapper = mount(IntakeSection, { global: { plugins: [PrimeVue, pinia] } });
    expect(core.pending('intake.status')).toHaveLength(1);
    const status: IntakeStatus = {
      port: 8787,
      username: 'su-partner',
      passwordSet: false,
      fromEnvironment: { port: false, username: false, password: false },
      listening: true,
      localUrl: 'http://127.0.0.1:8787/push',
      portNote: null,
      publicUrl: '',
      error: null,
      downtime: [],
      quarantined: 0,
      demoConnected: false,
      tunnel: { enabled: false, state: 'off', url: null, error: null, authtokenSet: false, domain: '' },
      registerUrl: null,
    };
    core.emit('intake.changed', status);
    await flushPromises();
    expect(wrapper.get('[data-testid="intake-listening"]').text()).toContain('http://127.0.0.1:8787/push');
    wrapper.unmount();
    core.emit('intake.changed', { ...status, port: 9000 });
    expect(useIntakeStore().status?.port).toBe(8787);
  });
});

describe('the shell built from a feature list', () => {
  const screen = (path: string) => ({ path, component: () => Promise.resolve({ default: part(path) }) });

  it('lists the navigation in the entries’ order, opens the first at / and at unknown addresses, and titles each screen', () => {
    const features: Feature[] = [
      defineFeature({ name: 'settings', routes: [screen('/settings')], nav: nav('/settings', 'Settings', 30) }),
      defineFeature({ name: 'quiet', routes: [screen('/quiet')] }),
      defineFeature({ name: 'home', routes: [screen('/home')], nav: nav('/home', 'Home', 10) }),
    ];
    expect(navEntries(features).map((entry) => entry.title)).toEqual(['Home', 'Settings']);
    const built = routesOf(features, createSections([]));
    expect(built.map((r) => r.path)).toEqual(['/', '/home', '/settings', '/quiet', '/:pathMatch(.*)*']);
    expect(built[0]!.redirect).toBe('/home');
    expect(built.at(-1)!.redirect).toBe('/home');
    expect(built[1]!.meta).toEqual({ title: 'Home', icon: 'pi pi-home' });
    expect(built[3]!.meta).toBeUndefined();
  });

  it('loads the sections of a screen’s slots with the screen, so that it draws them at once', async () => {
    const slot = defineSlot<{ who: string }>('test.slot');
    let loaded!: (module: { default: Component }) => void;
    const sections: Sections = createSections([
      { name: 'owner' },
      { name: 'later', sections: [section(slot, { load: () => new Promise((resolve) => (loaded = resolve)) })] },
    ]);
    const owner = defineFeature({
      name: 'owner',
      routes: [{ path: '/owner', children: [{ ...screen('/owner'), path: '', meta: { sections: [slot] } }] }],
    });
    const [, record] = routesOf([owner], sections);
    const load = record!.children![0]!.component as () => Promise<{ default: unknown }>;
    let done = false;
    void load().then(() => (done = true));
    await flushPromises();
    expect(done).toBe(false); // the screen's code is there, its section's not yet
    loaded({ default: part('Later') });
    await flushPromises();
    expect(done).toBe(true);
    expect(sections.of(slot).map((s) => s.key)).toEqual(['later-0']);
  });

  it('holds one feature per folder, named by its folder', () => {
    // Every folder under features/ (each holds a store or a view), by the files in it.
    const files = Object.keys(import.meta.glob('@renderer/features/*/*.{ts,vue}'));
    const folders = [...new Set(files.map((file) => /features\/([^/]+)\//.exec(file)![1]!))];
    expect(folders).toHaveLength(13);
    expect(FEATURES.map((feature) => feature.name).sort()).toEqual(folders.sort());
  });

  it('opens the Connection screen with the sections of intake, demo, mailbox, desktop and the delivery check', async () => {
    const connection = routes.find((r) => r.path === '/connection')!;
    await (connection.component as () => Promise<unknown>)();
    const { sections } = await import('@renderer/shell/sections');
    expect(sections.of(CONNECTION_FORM).map((s) => s.key)).toEqual(['demo-0']);
    expect(sections.of(CONNECTION_AFTER).map((s) => s.key)).toEqual(['intake-0', 'mailbox-0', 'desktop-0']);
    const [intake, mailbox, desktop] = sections.of(CONNECTION_AFTER).map((s) => s.component);
    expect(intake).toBe((await import('@renderer/features/intake/IntakeSection.vue')).default);
    expect(mailbox).toBe((await import('@renderer/features/mailbox/MailboxSection.vue')).default);
    expect(desktop).toBe((await import('@renderer/features/desktop/StartAtLoginSection.vue')).default);
    // The setup guide's part on Su's deliveries, loaded with the screen.
    const guide = sections.of(CONNECTION_GUIDE);
    expect(guide.map((s) => s.key)).toEqual(['deliveryCheck-0']);
    expect(guide[0]!.component).toBe((await import('@renderer/features/deliveryCheck/DeliveriesPart.vue')).default);
  }, 60_000);

  it('shows each entry’s badge, with what it counts in words, and none at 0', async () => {
    const router = blankRouter();
    const wrapper = mount(AppNav, { global: { plugins: [pinia, router] } });
    expect(wrapper.findAll('a').map((a) => a.attributes('title'))).toEqual([
      'Inbox',
      'Rates & availability',
      'Property',
      'Payments',
      'Connection',
    ]);
    expect(wrapper.find('.nav__badge').exists()).toBe(false);
    useInboxStore().counts = { unreadThreads: 2, unreadReviews: 1, quarantined: 0 };
    useNoticesStore().unseen = 1;
    await flushPromises();
    const badge = (name: string) => {
      const el = wrapper.get(`[data-testid="nav-badge-${name}"]`);
      return [el.element.firstChild?.textContent, el.get('.visually-hidden').text()];
    };
    expect(badge('inbox')).toEqual(['3', 'unread']);
    expect(badge('property')).toEqual(['1', 'unseen notice']);
    expect(wrapper.findAll('.nav__badge')).toHaveLength(2);
  });
});

/** A navigation entry. */
function nav(path: string, title: string, order: number) {
  return { path, title, icon: `pi pi-${title.toLowerCase()}`, order };
}

describe('the shell’s hooks of each feature', () => {
  it('reads each feature’s state at start, shows its banner and its count in the window title', async () => {
    installFakeApi({
      'app.info': () => fail({ code: 'internal', message: 'not in this test' }),
      'connection.get': () => fail({ code: 'internal', message: 'The settings could not be read.' }),
      'inbox.counts': () => ok({ unreadThreads: 2, unreadReviews: 1, quarantined: 0 }),
      'outbox.status': () => fail({ code: 'internal', message: 'not in this test' }),
      'notices.list': () => ok({ unseen: 0 } as never),
      'intake.status': () => fail({ code: 'internal', message: 'not in this test' }),
      'dataFile.status': () =>
        ok({
          problem: { kind: 'cannot-write', since: 1, reason: 'the disk is full' },
          backups: [],
          restorePending: null,
          lastRestore: null,
          downtime: [],
        }),
    });
    const wrapper = mountIt(App, pinia);
    // Each feature's reading at start: the data file's banner, the inbox's count in the title, and the connection
    // that could not be read said in place of the screens.
    await vi.waitFor(() => expect(document.title).toBe('(3) Innkeeper'));
    await vi.waitFor(() => expect(wrapper.find('[data-testid="store-banner"]').exists()).toBe(true));
    await vi.waitFor(() => expect(wrapper.get('.shell__error').text()).toBe('The settings could not be read.'));
    wrapper.unmount();
  });

  it('an outbox change reads the open conversation again while a reply in it is unsettled', async () => {
    const core = installFakeApi();
    const inbox = useInboxStore();
    const stops = [useOutboxStore().listen(), inbox.listen()];
    const opening = inbox.openThread(7);
    const delivery = { state: 'sending' };
    core
      .pending('inbox.thread')[0]!
      .answer(ok({ id: 7, unread: 0, messages: [{ id: 1, delivery }] } as unknown as ThreadDetail));
    await opening;
    const status = { queued: 0, sending: 1, failed: 0, paused: null, unreachableUntil: null, firstFailed: null };
    core.emit('outbox.changed', status);
    expect(core.pending('inbox.thread').map((call) => call.args)).toEqual([{ id: 7 }]);
    stops.forEach((stop) => stop());
    core.emit('outbox.changed', { ...status, sending: 0 });
    expect(core.pending('inbox.thread')).toHaveLength(1);
  });
});
