import { isDeepStrictEqual } from 'node:util';
import type { Method, MethodArgs } from '../shared/contract';
import type { RatePushRecord } from '../shared/rates';
import { propertySetupSchema, type PropertySetup, type PropertySetupInput } from '../shared/rateSetups';
import { errorText } from '../shared/result';
import { startEmulator, type RunningEmulator } from '../emulator/emulator';
import type { EmulatorState } from '../emulator/state';
import type { SettingsStore } from './config/settingsStore';
import { createCore, type Core, type CoreDeps } from './core';

// The built-in demo provider: the Su emulator running in this process, so that a new owner can try every screen
// with no account. This is the only module of the app that imports the emulator.

/** The demo's own rooms and rate plans, as the owner would enter them on the Rates screen. */
function demoRateSetups(state: EmulatorState): PropertySetupInput[] {
  return state.properties
    .filter((p) => p.active)
    .map((p) => ({
      hotelId: p.hotelid,
      name: p.name,
      channels: Object.keys(p.channels).sort((a, b) => Number(b) - Number(a)),
      rooms: p.rooms.map((room) => ({
        id: room.roomid,
        name: room.name,
        inventory: room.baseInventory,
        rates: room.ratePlans.map((plan) => ({ id: plan.rateid, name: plan.name, price: plan.baseRate })),
      })),
    }));
}

/**
 * The demo's rooms and rate plans belong to the demo. On the demo provider the owner has nothing to type in: they
 * are entered when the demo becomes the active provider (at start, or when the owner switches to it), once: removed
 * ones stay removed while the demo stays active. When the owner moves to sandbox or production, the ones still
 * exactly as the demo entered them are taken off the Rates screen again, so the demo's properties never sit among
 * the owner's own.
 */
function createDemoRates(core: Core, settings: SettingsStore, state: EmulatorState) {
  const setups = () => demoRateSetups(state).map((input) => propertySetupSchema.parse(input));
  const call = async <M extends Method>(method: M, args: MethodArgs<M>): Promise<unknown> => {
    const result = await core.dispatcher.dispatch(method, args);
    if (!result.ok) throw new Error(`demo: ${method}: ${result.error.message}`);
    return result.value;
  };
  return {
    async enter(): Promise<void> {
      if (settings.get(DONE_KEY)) return;
      settings.set(DONE_KEY, true);
      if (((await call('rates.properties', {})) as PropertySetup[]).length > 0) return;
      for (const setup of setups()) await call('rates.saveSetup', setup);
    },
    async leave(): Promise<void> {
      const entered = (await call('rates.properties', {})) as PropertySetup[];
      for (const setup of setups()) {
        const now = entered.find((p) => p.hotelId === setup.hotelId);
        if (!now || !isDeepStrictEqual(now, setup)) continue;
        // A push of it still waiting (or refused) stays in sight, so the owner can retry or discard it.
        const history = (await call('rates.history', { hotelId: setup.hotelId })) as RatePushRecord[];
        if (history.some((push) => UNSETTLED.has(push.state))) continue;
        await call('rates.removeSetup', { hotelId: setup.hotelId });
      }
      settings.delete(DONE_KEY);
    },
  };
}

const DONE_KEY = 'rates.demoSetupDone';
const UNSETTLED = new Set(['queued', 'sending', 'failed']);

/** Starts the built-in demo provider in this process, builds the core on top of it, and starts listening. */
export async function startCoreWithDemo(deps: Omit<CoreDeps, 'demo'>): Promise<Core & { emulator: RunningEmulator }> {
  const emulator = await startEmulator();
  const core = createCore({
    ...deps,
    demo: {
      urls: { mainBaseUrl: emulator.mainUrl, tokenBaseUrl: emulator.tokenUrl },
      // In-process: the demo provider delivers its pushes to this app's own listener, with its credentials.
      connect: (target) => {
        emulator.state.partnerEndpoint = target;
      },
    },
  });
  await core.start();
  const rates = createDemoRates(core, deps.settings, emulator.state);
  // One change at a time, in the order the owner made them (switching back and forth quickly).
  let onDemo = core.connection.state().active === 'demo';
  // A demo that could not enter its rooms is still a demo: the owner can enter them by hand.
  const log = (error: unknown) => console.error(errorText(error));
  let settled = (onDemo ? rates.enter() : rates.leave()).catch(log);
  await settled;
  core.events.on('connection.changed', (state) => {
    if ((state.active === 'demo') === onDemo) return;
    onDemo = state.active === 'demo';
    const next = onDemo ? rates.enter : rates.leave;
    settled = settled.then(next).catch(log);
  });
  return {
    ...core,
    emulator,
    close: async () => {
      await settled;
      await core.close();
      await emulator.close();
    },
  };
}
