import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { channelMessage, startPushableApp } from './deliveries';
import { expect, startApp, stopApp } from './app';
import { push, rows, shots, test } from './inboxPage';

// Browser mode: the session link's token leaves the address bar once the page loaded, so a bookmark of the app has
// none. A browser that opened the link keeps an HttpOnly session cookie for the app's address and comes back with it.

test('a browser that opened the session link opens the app again from a bookmark; another browser does not', async ({
  app,
  page,
  browser,
}) => {
  const origin = new URL(app.url).origin;
  const port = new URL(app.url).port;
  // The start says so, under the link.
  expect(app.output()).toContain(`A browser that opened it once opens ${origin}/ without the session (a bookmark).`);
  await page.goto(app.url);
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  expect(page.url()).not.toContain('session=');
  const [cookie, ...more] = await page.context().cookies(origin);
  expect(more).toEqual([]);
  expect(cookie).toMatchObject({
    name: `innkeeper-session-${port}`,
    domain: '127.0.0.1',
    path: '/',
    httpOnly: true,
    secure: false,
    sameSite: 'Strict',
  });
  expect(cookie!.value).not.toContain(new URL(app.url).searchParams.get('session')!);
  // The page's scripts cannot read it.
  expect(await page.evaluate('document.cookie')).toBe('');

  // The bookmark, in a new tab of the same browser: the app, with its calls and its live events.
  const tab = await page.context().newPage();
  await tab.setViewportSize({ width: 1280, height: 800 });
  await tab.goto(`${origin}/#/inbox`);
  await expect(tab.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  await expect(tab.locator('html')).toHaveAttribute('data-events', 'open');
  await push(app, channelMessage('19', '4188800001', 'Is there parking?'));
  await expect(rows(tab)).toHaveCount(1);
  await expect(rows(tab).first()).toContainText('Is there parking?');
  await tab.screenshot({ path: `${shots}/D-bookmark-1280.png`, animations: 'disabled' });
  await tab.setViewportSize({ width: 1024, height: 680 });
  await tab.screenshot({ path: `${shots}/D-bookmark-1024.png`, animations: 'disabled' });

  // Another browser (no cookie) at the same address: the page that says how to open the app.
  const other = await browser.newContext();
  try {
    const stranger = await other.newPage();
    await stranger.setViewportSize({ width: 1280, height: 800 });
    await stranger.goto(origin);
    await expect(stranger.getByText('opened without its session link')).toBeVisible();
    await expect(stranger.getByText('this browser opens Innkeeper at this address without it')).toBeVisible();
    await stranger.screenshot({ path: `${shots}/D-no-session-1280.png`, animations: 'disabled' });
    await stranger.setViewportSize({ width: 1024, height: 680 });
    await stranger.screenshot({ path: `${shots}/D-no-session-1024.png`, animations: 'disabled' });
  } finally {
    await other.close();
  }
});

test('the bookmark keeps working after a restart, and opens nothing once the session is revoked', async ({ page }) => {
  let app = await startPushableApp();
  try {
    const origin = new URL(app.url).origin;
    await page.goto(app.url);
    await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();

    // Restarted on the same data folder: the same port and session, and the bookmark opens it.
    await stopApp(app, false);
    app = await startPushableApp(app);
    expect(new URL(app.url).origin).toBe(origin);
    const bookmark = await page.context().newPage();
    await bookmark.goto(origin);
    await expect(bookmark.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
    await bookmark.close();

    // The owner deletes web-session.json (revoking every link and cookie given out): a new session (on the same
    // port, asked for), and the bookmark gets the page that says how to open the app (its old cookie is removed).
    await stopApp(app, false);
    rmSync(join(app.dataDir, 'web-session.json'));
    const again = await startApp({ INNKEEPER_WEB_PORT: new URL(origin).port }, app.dataDir);
    app = { ...app, ...again };
    const revoked = await page.context().newPage();
    await revoked.goto(origin);
    await expect(revoked.getByText('opened without its session link')).toBeVisible();
    expect(await page.context().cookies(origin)).toEqual([]);
  } finally {
    await stopApp(app);
  }
});
