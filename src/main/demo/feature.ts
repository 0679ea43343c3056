import { join } from 'node:path';
import { errorText } from '../../shared/result';
import { connectionFeature } from '../connection/feature';
import { defineFeature } from '../feature';
import { intakeFeature } from '../intake/feature';
import { createDemoProperty } from './demoProperty';
import { createDemoProvider, demoInfoFile, demoStateFile, EVERYDAY_EVERY_MS, type DemoProvider } from './demoProvider';
import { createDemoRates } from './demoRates';
import { demoHandlers } from './handlers';

/** How the demo behaves in this run (INNKEEPER_DEMO_INBOX=0 turns its deliveries off, for tests and headless runs). */
export interface DemoRunOptions {
  /** The sample inbox on an empty inbox, and an everyday guest message now and then (default true). */
  deliveries?: boolean;
  /** Time between everyday guest messages, [shortest, longest] in ms. */
  everydayEveryMs?: [number, number];
  /**
   * The demo's own mailbox (inside Innkeeper, on 127.0.0.1), paired at start, through which its deliveries come
   * (default: as `deliveries`; tests that push through the demo's emulator expect the listener).
   */
  mailbox?: boolean;
  /** "Close the laptop for an hour" opens again by itself after this long (default two minutes). */
  laptopReopensAfterMs?: number;
}

/**
 * The built-in demo provider: the Su emulator in-process while the demo is the active provider. Switching to
 * sandbox or production stops it (its port closes, its delivery credentials stop working), switching back starts
 * it again; each time it starts it enters its rooms, property content and payment accounts as the owner would
 * (through the contract) and, on an empty inbox, delivers its sample inbox through the intake's listener.
 *
 * Host option `demo`: `false` for a core without it, else its DemoRunOptions. Provides the demo provider (null
 * without one): its status, and its emulator for tests.
 */
export const demoFeature = defineFeature({
  name: 'demo',
  create(context) {
    const { bus, call } = context;
    const options = context.options.demo as DemoRunOptions | false | undefined;
    const deliveries = options !== false && (options?.deliveries ?? true);
    const demo: DemoProvider | null =
      options === false
        ? null
        : createDemoProvider({
            settings: context.settings,
            infoFile: demoInfoFile(context.dataDir),
            everydayEveryMs: deliveries ? (options?.everydayEveryMs ?? EVERYDAY_EVERY_MS) : null,
            mailboxDir: (options?.mailbox ?? deliveries) ? join(context.dataDir, 'demo-mailbox') : null,
            ...(options?.laptopReopensAfterMs ? { laptopReopensAfterMs: options.laptopReopensAfterMs } : {}),
            stateFile: demoStateFile(context.dataDir),
            moved: (from, to) => bus.emit('providerMoved', { provider: 'demo', from, to }),
          });
    const handlers = demoHandlers({
      demo: demo ?? undefined,
      events: context.events,
      // What the demo just did shows at once, not at the next background check.
      checkNotices: (hotelId) => call('notices.checkNow', { hotelId }),
      checkPayment: async (transactionId) => {
        const { links } = await call('payments.list', {});
        const link = links.find((l) => l.transactionId === transactionId && l.status !== 'draft');
        return link ? call('payments.checkNow', { id: link.id }) : null;
      },
    });
    if (!demo) return { handlers, provides: null };

    const { connection, demoRunsAt } = context.use(connectionFeature);
    demoRunsAt(() => demo.urls());
    // Its deliveries carry credentials of its own, accepted while it runs; they go to wherever the listener is.
    context.use(intakeFeature).alsoAccept(() => demo.intake.credentials());
    bus.on('intakeListening', ({ localUrl }) => demo.intake.listening(localUrl));

    const rates = createDemoRates(call, context.settings, demo.rateSetups);
    const property = createDemoProperty(call, context.settings, demo.propertyContent);
    const log = (error: unknown) => console.error(`demo: ${errorText(error)}`);
    /** The demo properties' payment accounts, entered by partner id as an owner would (kept if the owner changed them). */
    const enterPaymentAccounts = async () => {
      const { partners } = await call('payments.list', {});
      for (const account of demo.paymentAccounts()) {
        if (!partners.some((p) => p.hotelId === account.hotelId)) await call('payments.enterPartner', account);
      }
    };
    /** The demo's own mailbox, paired: from then on its deliveries come through it (a failure leaves the listener). */
    const useMailbox = () => demo.mailbox.start().catch(log);
    /** On an empty inbox the demo delivers its sample set, the same path a real delivery takes. */
    const sampleIfEmpty = async () => {
      if (!deliveries) return;
      const empty =
        (await call('inbox.threads', { limit: 1 })).total === 0 && (await call('inbox.reviews', {})).length === 0;
      if (empty) await demo.deliverSample();
    };
    const arrive = async () => {
      await demo.start();
      await rates.enter().catch(log);
      await property.enter().catch(log);
      await enterPaymentAccounts().catch(log);
    };
    const leave = async () => {
      await demo.stop();
      await rates.leave().catch(log);
      property.leave();
    };

    let onDemo = false;
    /** One change at a time, in the order the owner made them (switching back and forth quickly). */
    let settled: Promise<void> = Promise.resolve();
    return {
      handlers,
      provides: demo,
      async start() {
        onDemo = connection.state().active === 'demo';
        await (onDemo ? arrive() : leave()).catch(log);
        // The sample inbox goes out once every feature runs (the listener among them); the start does not wait.
        const stop = bus.on('coreStarted', () => {
          stop();
          if (onDemo) settled = settled.then(useMailbox).then(sampleIfEmpty).catch(log);
        });
        bus.on('connectionChanged', (state) => {
          if ((state.active === 'demo') === onDemo) return;
          onDemo = state.active === 'demo';
          // Leaving: the demo stops delivering now, not once the work queued before this switch is done.
          if (!onDemo) demo.revoke();
          settled = settled.then(onDemo ? () => arrive().then(useMailbox).then(sampleIfEmpty) : leave).catch(log);
        });
      },
      async stop() {
        await settled;
        await demo.stop();
      },
    };
  },
});
