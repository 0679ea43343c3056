/**
 * The window title: the unread count first (so it shows in the taskbar and on the browser tab), then the screen,
 * e.g. "(3) Inbox · Innkeeper". The router sets the screen; the inbox store sets the count.
 */
let screen: string | null = null;
let unread = 0;

function render() {
  const base = screen ? `${screen} · Innkeeper` : 'Innkeeper';
  document.title = unread > 0 ? `(${unread}) ${base}` : base;
}

export function setScreenTitle(title: string | null): void {
  screen = title;
  render();
}

export function setUnreadCount(count: number): void {
  unread = count;
  render();
}
