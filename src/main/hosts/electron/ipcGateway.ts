// Only types come from electron here, so this gateway is tested under plain Node with fake events.
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { CALL_CHANNEL } from '../../../shared/ipcChannels';
import { ErrorCode, fail } from '../../../shared/result';
import type { Dispatcher } from '../../gateway/dispatcher';

/**
 * Registers the single IPC entry point. SECURITY: a call is served only when it comes from the app's own main
 * frame (`isTrustedFrame`), so an iframe or a navigated-away page cannot reach the core; arguments are then
 * validated by the dispatcher against the shared schemas, and results are always `{ok, value} | {ok:false, error}`.
 */
export function registerIpcGateway(
  ipcMain: Pick<IpcMain, 'handle'>,
  dispatcher: Dispatcher,
  isTrustedFrame: (event: IpcMainInvokeEvent) => boolean,
): void {
  ipcMain.handle(CALL_CHANNEL, async (event, method: unknown, args: unknown) => {
    let trusted = false;
    try {
      trusted = isTrustedFrame(event);
    } catch {
      trusted = false;
    }
    if (!trusted) {
      return fail({ code: ErrorCode.Forbidden, message: 'This window is not allowed to talk to Innkeeper.' });
    }
    return dispatcher.dispatch(method, args);
  });
}

/**
 * True when `url` shows the app's own page: the same file for file:// (any #route), the same origin for the
 * dev server. SECURITY: compares parsed URLs, not prefixes (`http://localhost:5173.evil.example` is foreign).
 */
export function isAppPage(url: string, appUrl: string): boolean {
  try {
    const page = new URL(url);
    const app = new URL(appUrl);
    if (app.protocol === 'file:') return page.protocol === 'file:' && page.pathname === app.pathname;
    return page.origin === app.origin;
  } catch {
    return false;
  }
}

/** True when the event comes from the main frame of the app's window and that frame shows the app's page. */
export function isAppMainFrame(
  event: Pick<IpcMainInvokeEvent, 'senderFrame' | 'sender'>,
  expected: { webContentsId: number; appUrl: string },
): boolean {
  const frame = event.senderFrame;
  if (!frame || event.sender.id !== expected.webContentsId) return false;
  if (frame.parent !== null) return false;
  return isAppPage(frame.url, expected.appUrl);
}
