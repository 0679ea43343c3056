import { describe, expect, it } from 'vitest';
import { createWindowKeeper, type KeptWindow } from '../../src/main/hosts/electron/windowKeeper';

/** A window as the lifecycle sees it, recording what was done to it; `close()` is the owner closing it. */
class FakeWindow implements KeptWindow {
  destroyed = false;
  minimized = false;
  calls: string[] = [];
  private onClosed: (() => void)[] = [];
  constructor(readonly route: string | undefined) {}
  isDestroyed = () => this.destroyed;
  isMinimized = () => this.minimized;
  restore = () => void (this.calls.push('restore'), (this.minimized = false));
  show = () => void this.calls.push('show');
  focus = () => void this.calls.push('focus');
  once(_event: 'closed', listener: () => void) {
    this.onClosed.push(listener);
  }
  close() {
    this.destroyed = true;
    for (const l of this.onClosed) l();
  }
}

function keeper() {
  const created: FakeWindow[] = [];
  const navigated: [FakeWindow, string][] = [];
  const windows = createWindowKeeper<FakeWindow>({
    create: (route) => {
      const w = new FakeWindow(route);
      created.push(w);
      return w;
    },
    navigate: (w, route) => void navigated.push([w, route]),
  });
  return { windows, created, navigated };
}

describe('the window lifecycle (tray, second launch, dock, notification click)', () => {
  it('the first request creates the window, which shows itself when ready', () => {
    const { windows, created } = keeper();
    const w = windows.show();
    expect(created).toEqual([w]);
    expect(windows.current()).toBe(w);
    expect(w.calls).toEqual([]);
  });

  it('asking again restores a minimized window, shows and focuses it, and creates no other', () => {
    const { windows, created } = keeper();
    const w = windows.show();
    w.minimized = true;
    expect(windows.show()).toBe(w);
    expect(w.calls).toEqual(['restore', 'show', 'focus']);
    expect(w.minimized).toBe(false);
    expect(created).toHaveLength(1);
  });

  it('after the owner closed the window, the tray opens a new one', () => {
    const { windows, created } = keeper();
    const first = windows.show();
    first.close();
    expect(windows.current()).toBeNull();
    const second = windows.show();
    expect(second).not.toBe(first);
    expect(created).toEqual([first, second]);
    expect(windows.current()).toBe(second);
    // The new window is kept just the same: asking again brings it forward.
    expect(windows.show()).toBe(second);
    expect(second.calls).toEqual(['show', 'focus']);
  });

  it('a window destroyed without its closed event is not reused', () => {
    const { windows, created } = keeper();
    const first = windows.show();
    first.destroyed = true;
    expect(windows.show()).not.toBe(first);
    expect(created).toHaveLength(2);
  });

  it('a notification click opens its thread: in the open window, or in a new one when it was closed', () => {
    const { windows, navigated, created } = keeper();
    const w = windows.show();
    windows.show('#/inbox/12');
    expect(navigated).toEqual([[w, '#/inbox/12']]);
    w.close();
    const again = windows.show('#/inbox/13');
    expect(again.route).toBe('#/inbox/13');
    expect(created).toHaveLength(2);
    expect(navigated).toHaveLength(1);
  });

  it('the closed event of an old window does not forget the new one', () => {
    const { windows } = keeper();
    const first = windows.show();
    first.destroyed = true;
    const second = windows.show();
    first.close(); // its 'closed' arrives late
    expect(windows.current()).toBe(second);
  });
});
