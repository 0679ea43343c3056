import type { HostKind } from '@shared/contract';
import type { StartAtLoginState } from '@shared/desktop';

/** The line under "Start Innkeeper when I log in": what is in force, why, and where it applies. */
export function startAtLoginNote(state: StartAtLoginState, host: HostKind | undefined): string {
  if (!state.available) {
    const where =
      host === 'browser'
        ? 'This applies to the desktop app: browser mode cannot start by itself.'
        : 'This applies to the installed desktop app: a development run does not register with your system.';
    return `${where} Your choice is kept, and the installed app follows it when it runs.`;
  }
  if (state.chosenByOwner) {
    return state.on
      ? 'Innkeeper starts in the tray when you log in, and keeps receiving.'
      : 'After a restart, messages arrive only once you open Innkeeper yourself.';
  }
  return state.on
    ? 'On because you connected your Su account: after a restart, messages keep arriving.'
    : 'Turns on by itself once you connect a sandbox or production account.';
}
