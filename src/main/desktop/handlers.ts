import { AppFailure, errorText } from '../../shared/result';
import type { StartAtLoginState } from '../../shared/desktop';
import type { HandlerSlice } from '../gateway/dispatcher';
import type { EventBus } from '../gateway/events';
import type { StartAtLogin } from './startAtLogin';

/**
 * The desktop slice: "Start Innkeeper when I log in". Applied at start and whenever the connection changes (a real
 * account turns the default on); every change is announced, so the window and the tray show the same.
 */
export function desktopHandlers(deps: { startAtLogin: StartAtLogin; events: EventBus }) {
  const { startAtLogin, events } = deps;
  let last: string | null = null;
  const announce = (state: StartAtLoginState) => {
    const key = JSON.stringify(state);
    if (key !== last) events.emit('desktop.changed', state);
    last = key;
    return state;
  };
  /** Brings the OS in line; a failure to register is logged, never stops the app. */
  const apply = () => {
    try {
      announce(startAtLogin.apply());
    } catch (error) {
      console.error(`Innkeeper could not set "start when I log in": ${errorText(error)}`);
    }
  };
  const handlers = {
    'desktop.startAtLogin': () => startAtLogin.state(),
    'desktop.setStartAtLogin': ({ on }) => {
      try {
        return announce(startAtLogin.choose(on));
      } catch (error) {
        // The choice itself is kept (the next start tries again); the OS refused to follow it now.
        announce(startAtLogin.state());
        throw new AppFailure({
          code: 'login_item_failed',
          message: `Your choice is kept, but your system did not let Innkeeper ${on ? 'add itself to' : 'remove itself from'} the programs started at login: ${errorText(error)}`,
          field: 'on',
          retryable: true,
        });
      }
    },
  } satisfies HandlerSlice<'desktop'>;
  return { handlers, apply };
}
