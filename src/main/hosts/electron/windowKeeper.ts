// Only types from electron: the lifecycle is tested under plain Node with a fake window factory.

/** What the lifecycle needs of a window (a BrowserWindow, or a fake in tests). */
export interface KeptWindow {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
  once(event: 'closed', listener: () => void): unknown;
}

export interface WindowKeeperOptions<W extends KeptWindow> {
  /** Creates the window on the app page at `route` (a hash such as `#/inbox/12`); it shows itself when ready. */
  create(route?: string): W;
  /** Takes an open window to `route`. */
  navigate(window: W, route: string): void;
}

/**
 * The one window's lifecycle, for every way the owner asks for it: the tray, a second launch, the dock (macOS
 * `activate`) and a notification click. Closing the window does not quit the app (the tray keeps it receiving
 * pushes), so asking for the window again creates a new one when the last one was closed.
 */
export function createWindowKeeper<W extends KeptWindow>(options: WindowKeeperOptions<W>) {
  let window: W | null = null;
  const current = (): W | null => (window && !window.isDestroyed() ? window : null);

  return {
    /** The open window, or null when there is none. */
    current,

    /** Creates the window if there is none, otherwise restores, shows and focuses it; then goes to `route`. */
    show(route?: string): W {
      const open = current();
      if (!open) {
        const created = options.create(route);
        window = created;
        created.once('closed', () => {
          if (window === created) window = null;
        });
        return created;
      }
      if (open.isMinimized()) open.restore();
      open.show();
      open.focus();
      if (route) options.navigate(open, route);
      return open;
    },
  };
}
