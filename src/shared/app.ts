import { defineSlice } from './contractSlice';
import { noArgs } from './validation';

/** How the app is running: a real Electron window, or browser mode on loopback. */
export type HostKind = 'electron' | 'browser';

/** Facts about the running app, for the shell and the Settings footer. */
export interface AppInfo {
  version: string;
  host: HostKind;
  dataDir: string;
  /** 'os-encrypted' under Electron safeStorage; 'file' (0600 file, weaker) under plain Node. */
  secretStorage: 'os-encrypted' | 'file';
}

export const appMethods = { 'app.info': noArgs } as const;

export interface AppResults {
  'app.info': AppInfo;
}

/** The app itself: its version, how it runs, where its data is. */
export const appContract = defineSlice<AppResults>()(appMethods, []);
