import { z } from 'zod';
import { noArgs } from './validation';
import { defineSlice } from './contractSlice';

// The installed desktop app: "Start Innkeeper when I log in", so that it keeps receiving Su's pushes (Su reposts a
// message only 3 times). The choice is kept in the settings of the data folder, which browser mode shares: chosen
// in browser mode, it applies when the desktop app next runs.

/** "Start Innkeeper when I log in" as the Connection screen and the tray show it. */
export interface StartAtLoginState {
  /** Whether this app can register with the OS: the installed desktop app only (not browser mode or a dev run). */
  available: boolean;
  /** Whether Innkeeper starts at login: the owner's choice, or else on once a real account is connected. */
  on: boolean;
  /** True once the owner chose; their choice then always wins over the default. */
  chosenByOwner: boolean;
  /** True when the provider in use is a real Su account (sandbox or production), which turns the default on. */
  realAccount: boolean;
}

/** The desktop slice of the contract: method → argument schema. */
export const desktopMethods = {
  'desktop.startAtLogin': noArgs,
  'desktop.setStartAtLogin': z
    .object({ on: z.boolean({ message: 'Choose whether Innkeeper starts when you log in (on or off).' }) })
    .strict(),
} as const;

export interface DesktopResults {
  'desktop.startAtLogin': StartAtLoginState;
  'desktop.setStartAtLogin': StartAtLoginState;
}

export interface DesktopEvents {
  /** The start-at-login state changed (the owner chose, in the window or the tray, or a real account was connected). */
  'desktop.changed': StartAtLoginState;
}

/** The desktop slice of the contract (listed in contract.ts). */
export const desktopContract = defineSlice<DesktopResults, DesktopEvents>()(desktopMethods, ['desktop.changed']);
