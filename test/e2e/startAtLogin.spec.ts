import { expect, startApp, stopApp, test } from './app';
import { connectTo } from './connect';
import { startTestEmulator } from './deliveries';

// "Start Innkeeper when I log in" on the Connection screen, in browser mode: the choice is kept in the data folder
// for the desktop app, which shares it; the screen says so. (The desktop side, the OS login item, is unit-tested.)
const shots = 'test-results/screenshots';

test('the owner sees start-at-login turn on once a real account connects, turns it off, and it stays off after a restart', async ({
  page,
}) => {
  const su = await startTestEmulator();
  const first = await startApp();
  try {
    await page.goto(`${first.url}#/connection`);
    const section = page.getByTestId('start-at-login');
    const toggle = page.getByLabel('Start Innkeeper when I log in');
    await expect(section).toContainText('only 3 more times');
    await expect(section).toContainText('This applies to the desktop app: browser mode cannot start by itself.');
    await expect(toggle).not.toBeChecked(); // on the demo

    // A sandbox account saved: not connected yet, so not started at login.
    await connectTo(page, first, su.port, 'Connection');
    await expect(toggle).not.toBeChecked();
    // Connected (its test worked): the default turns on.
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('test-success')).toContainText('Connected');
    await expect(toggle).toBeChecked();

    await toggle.click();
    await expect(toggle).not.toBeChecked();
    for (const [width, height] of [
      [1280, 800],
      [1024, 680],
    ] as const) {
      await page.setViewportSize({ width, height });
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/D-start-at-login-${width}.png`, animations: 'disabled' });
    }
  } finally {
    await stopApp(first, false);
  }

  const second = await startApp({}, first.dataDir);
  try {
    await page.goto(`${second.url}#/connection`);
    await expect(page.getByTestId('start-at-login')).toBeVisible();
    await expect(page.getByLabel('Start Innkeeper when I log in')).not.toBeChecked(); // the owner's choice wins
  } finally {
    await stopApp(second);
    await su.stop();
  }
});
