import { isDeepStrictEqual } from 'node:util';
import { propertySetupSchema, type PropertySetup, type PropertySetupInput } from '../../shared/rateSetups';
import type { Settings } from '../config/settings';
import type { ContractCaller } from '../gateway/dispatcher';

const DONE_KEY = 'rates.demoSetupDone';
const UNSETTLED = new Set(['queued', 'sending', 'failed']);

/**
 * The demo's rooms and rate plans belong to the demo. On the demo provider the owner has nothing to type in: they
 * are entered when the demo becomes the active provider (at start, or when the owner switches to it), once: removed
 * ones stay removed while the demo stays active. When the owner moves to sandbox or production, the ones still
 * exactly as the demo entered them are taken off the Rates screen again, so the demo's properties never sit among
 * the owner's own; one with a push still waiting or refused stays, so that push can be retried or discarded.
 * Entered through the contract, as the owner would.
 */
export function createDemoRates(call: ContractCaller, settings: Settings, demoSetups: () => PropertySetupInput[]) {
  const setups = () => demoSetups().map((input) => propertySetupSchema.parse(input));
  /** A setup without what the demo gained later (week prices, currency): how an earlier version entered it. */
  const earlier = (setup: PropertySetup) => ({
    ...setup,
    currency: undefined,
    rooms: setup.rooms.map((room) => ({
      ...room,
      rates: room.rates.map((rate) => ({ ...rate, weekPrices: undefined })),
    })),
  });
  return {
    async enter(): Promise<void> {
      if (settings.get(DONE_KEY)) {
        // Entered by an earlier version, and untouched since: it gains the weekend prices the demo charges.
        const entered = await call('rates.properties', {});
        for (const setup of setups()) {
          const now = entered.find((p) => p.hotelId === setup.hotelId);
          if (now && now.currency === undefined && isDeepStrictEqual(earlier(now), earlier(setup)))
            await call('rates.saveSetup', setup);
        }
        return;
      }
      settings.set(DONE_KEY, true);
      if ((await call('rates.properties', {})).length > 0) return;
      for (const setup of setups()) await call('rates.saveSetup', setup);
    },
    async leave(): Promise<void> {
      const entered = await call('rates.properties', {});
      for (const setup of setups()) {
        const now = entered.find((p) => p.hotelId === setup.hotelId);
        if (!now || !isDeepStrictEqual(now, setup)) continue;
        const history = await call('rates.history', { hotelId: setup.hotelId });
        if (history.some((push) => UNSETTLED.has(push.state))) continue;
        await call('rates.removeSetup', { hotelId: setup.hotelId });
      }
      settings.delete(DONE_KEY);
    },
  };
}
