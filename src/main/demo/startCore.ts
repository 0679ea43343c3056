import { errorText } from '../../shared/result';
import { createCore, type Core, type CoreDeps } from '../core';
import { contractCaller } from '../gateway/dispatcher';
import { createDemoProvider, demoInfoFile, EVERYDAY_EVERY_MS, type DemoProvider } from './demoProvider';
import { createDemoProperty } from './demoProperty';
import { createDemoRates } from './demoRates';

/** How the demo behaves in this run (INNKEEPER_DEMO_INBOX=0 turns its deliveries off, for tests and headless runs). */
export interface DemoRunOptions {
  /** The sample inbox on an empty inbox, and an everyday guest message now and then (default true). */
  deliveries?: boolean;
  /** Time between everyday guest messages, [shortest, longest] in ms. */
  everydayEveryMs?: [number, number];
}

/**
 * Builds the core with the built-in demo provider and starts it. The demo provider runs only while the demo is the
 * active provider: switching to sandbox or production stops it (its port closes, its push credentials stop
 * working), switching back starts it again. Each time it starts it enters its rooms and, on an empty inbox,
 * delivers its sample inbox through the push listener.
 */
export async function startCoreWithDemo(
  deps: Omit<CoreDeps, 'demo'> & { demoRun?: DemoRunOptions },
): Promise<Core & { demo: DemoProvider }> {
  const deliveries = deps.demoRun?.deliveries ?? true;
  const demo = createDemoProvider({
    settings: deps.settings,
    infoFile: demoInfoFile(deps.dataDir),
    everydayEveryMs: deliveries ? (deps.demoRun?.everydayEveryMs ?? EVERYDAY_EVERY_MS) : null,
  });
  const core = createCore({ ...deps, demo });
  const rates = createDemoRates(core.dispatcher, deps.settings, demo.rateSetups);
  const property = createDemoProperty(core.dispatcher, deps.settings, demo.propertyContent);
  const log = (error: unknown) => console.error(`demo: ${errorText(error)}`);
  /** The demo properties' payment accounts, entered by partner id as an owner would (kept if the owner changed them). */
  const enterPaymentAccounts = async () => {
    const call = contractCaller(core.dispatcher);
    const { partners } = await call('payments.list', {});
    for (const account of demo.paymentAccounts()) {
      if (!partners.some((p) => p.hotelId === account.hotelId)) await call('payments.enterPartner', account);
    }
  };

  /** On an empty inbox the demo delivers its sample set, the same path a real push takes. */
  const sampleIfEmpty = async () => {
    if (!deliveries) return;
    const call = contractCaller(core.dispatcher);
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

  let onDemo = core.connection.state().active === 'demo';
  await (onDemo ? arrive() : leave()).catch(log);
  await core.start();
  // One change at a time, in the order the owner made them (switching back and forth quickly). The sample inbox
  // goes out once the listener runs; start-up does not wait for it.
  let settled: Promise<void> = onDemo ? sampleIfEmpty().catch(log) : Promise.resolve();
  core.events.on('connection.changed', (state) => {
    if ((state.active === 'demo') === onDemo) return;
    onDemo = state.active === 'demo';
    // Leaving: the demo stops pushing now, not once the work queued before this switch is done.
    if (!onDemo) demo.revoke();
    settled = settled.then(onDemo ? () => arrive().then(sampleIfEmpty) : leave).catch(log);
  });
  return {
    ...core,
    demo,
    close: async () => {
      await settled;
      await core.close();
      await demo.stop();
    },
  };
}
