// The two Electron IPC channels, named once for the preload (renderer side) and the IPC gateway (main side).

/** The one channel every contract call travels on, renderer → main. */
export const CALL_CHANNEL = 'innkeeper:call';
/** The channel events travel on, main → renderer. */
export const EVENT_CHANNEL = 'innkeeper:event';
