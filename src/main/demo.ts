import type { PropertySetupInput } from '../shared/rateSetups';
import { startEmulator, type RunningEmulator } from '../emulator/emulator';
import type { EmulatorState } from '../emulator/state';
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
 * On the demo provider the owner has nothing to type in: the demo's rooms and rate plans are entered once, when
 * the demo is the active provider (at start, or when the owner switches to it). Removed ones stay removed.
 */
async function enterDemoRates(core: Core, deps: Pick<CoreDeps, 'settings'>, state: EmulatorState): Promise<void> {
  if (core.connection.state().active !== 'demo' || deps.settings.get('rates.demoSetupDone')) return;
  deps.settings.set('rates.demoSetupDone', true);
  const existing = await core.dispatcher.dispatch('rates.properties', {});
  if (!existing.ok || (existing.value as unknown[]).length > 0) return;
  for (const setup of demoRateSetups(state)) {
    const saved = await core.dispatcher.dispatch('rates.saveSetup', setup);
    if (!saved.ok) console.error(`demo: the demo property ${setup.hotelId} was not entered: ${saved.error.message}`);
  }
}

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
  await enterDemoRates(core, deps, emulator.state);
  core.events.on('connection.changed', (state) => {
    if (state.active === 'demo') void enterDemoRates(core, deps, emulator.state);
  });
  return {
    ...core,
    emulator,
    close: async () => {
      await core.close();
      await emulator.close();
    },
  };
}
