import { expect, startApp, stopApp, test, type RunningApp } from './app';

const shots = 'test-results/screenshots';

test('a tab whose app stopped says so calmly, waits to send, and reconnects by itself when the app is back', async ({
  page,
}) => {
  let app: RunningApp = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(app.url);
    await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
    // A conversation to answer, delivered by the demo provider as an owner would ask for one.
    const controls = page.getByTestId('messages-empty').getByTestId('demo-controls');
    await controls.getByTestId('demo-message-channel').getByText('Expedia').click();
    await controls.getByTestId('demo-deliver-message').click();
    await page.getByTestId('thread-row').first().click();
    await expect(page.getByTestId('message')).toHaveCount(1);
    const reply = page.getByTestId('composer').getByRole('textbox').first();
    await reply.fill('Your room is ready from 2 pm.');
    const send = page.getByTestId('composer').getByRole('button', { name: 'Send', exact: true });
    await expect(send).toBeEnabled();
    const line = page.getByTestId('core-link');
    await expect(line).toHaveCount(0);

    // The app stops (its data folder stays): one calm line, and Send waits.
    await stopApp(app, false);
    await expect(line).toHaveText('Innkeeper is not running. This page reconnects by itself when it starts again.');
    await expect(line).toHaveAttribute('role', 'status');
    await expect(send).toBeDisabled();
    await expect(reply).toHaveValue('Your room is ready from 2 pm.');
    // The sidebar counts down no token meanwhile: nobody can say which the app holds while it is stopped.
    const badge = page.getByTestId('connection-badge-status');
    await expect(badge).toHaveText('Innkeeper is not running');
    await expect(page.getByTestId('connection-badge')).not.toContainText('Token valid');
    await page.screenshot({ path: `${shots}/D-reconnect-disconnected.png`, animations: 'disabled' });
    await page.setViewportSize({ width: 1024, height: 680 });
    await page.screenshot({ path: `${shots}/D-reconnect-disconnected-1024.png`, animations: 'disabled' });

    // The app starts again on the same data folder: same port, same session token, no new link needed.
    app = await startApp({}, app.dataDir);
    expect(new URL(app.url).origin).toBe(new URL(page.url()).origin);
    await expect(line).toHaveCount(0, { timeout: 20_000 });
    await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
    // The badge says again what the app holds now (read again on reconnecting: the restarted demo has issued no
    // token yet), and counts down the one sending the reply brings.
    await expect(badge).toHaveText(/(No token yet|Token valid · \d+ min \d\d s)$/);
    await expect(send).toBeEnabled();
    await send.click();
    await expect(page.getByTestId('message')).toHaveCount(2);
    await expect(page.getByTestId('message').last()).toContainText('Your room is ready from 2 pm.');
    await expect(badge).toHaveText(/Token valid · \d+ min \d\d s$/);

    // A reload of the same tab (the token is kept for the tab, not in the address) still works.
    await page.reload();
    await expect(page.getByTestId('message')).toHaveCount(2);
  } finally {
    await stopApp(app);
  }
});

test('a tab is told when the app no longer accepts its session, instead of waiting forever', async ({ page }) => {
  const first = await startApp();
  const second = await startApp();
  try {
    await page.goto(first.url);
    await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
    const port = new URL(first.url).port;
    await stopApp(first);
    // Another install takes the same port (a new data folder, so a new token): the old tab's token is refused.
    await stopApp(second, false);
    const other = await startApp({ INNKEEPER_WEB_PORT: port }, second.dataDir);
    try {
      await expect(page.getByTestId('core-link')).toContainText('restarted with a new session', { timeout: 20_000 });
      await expect(page.getByTestId('core-link')).toContainText('Open it with the address it printed');
    } finally {
      await stopApp(other);
    }
  } finally {
    await stopApp(first);
  }
});
