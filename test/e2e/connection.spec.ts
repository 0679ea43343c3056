import type { Page } from '@playwright/test';
import { expect, shootBoth, startApp, stopApp, test, type RunningApp } from './app';

const shots = 'test-results/screenshots';

/** The app opens on the inbox; the Connection screen has its own address. */
const openConnection = (page: Page, app: RunningApp) => page.goto(`${app.url}#/connection`);

test('a new owner opens the app, picks the demo provider, tests the connection and sees it work', async ({
  app,
  page,
}) => {
  await page.goto(app.url);
  // The app opens on the inbox; the owner goes to Connection from the navigation.
  await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
  // The session token is taken out of the address bar.
  expect(page.url()).not.toContain('session=');
  // The navigation lists only screens that exist.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText([
    'Inbox',
    'Rates & availability',
    /^Property/,
    'Payments',
    'Connection',
  ]);
  await nav.getByRole('link', { name: 'Connection' }).click();
  await expect(page.getByRole('heading', { name: 'Connection' })).toBeVisible();
  await expect(page.getByTestId('first-run')).toContainText('built-in demo provider');
  await page.screenshot({ path: `${shots}/shell-first-run.png`, fullPage: true, animations: 'disabled' });

  await page.getByRole('radio', { name: /Built-in demo provider/ }).click();
  await expect(page.getByLabel('Domain')).toHaveValue('demo.innkeeper.test');
  await expect(page.getByLabel('Client id (computed)')).toHaveValue('ZGVtby5pbm5rZWVwZXIudGVzdA==');
  await page.getByRole('button', { name: 'Test connection' }).click();

  const success = page.getByTestId('test-success');
  await expect(success).toContainText('Connected to Built-in demo provider');
  await expect(success).toContainText('2 properties');
  await expect(page.getByTestId('token-countdown')).toHaveText(/^(59 min \d\d s|60 min 00 s)$/);
  await expect(page.getByTestId('connection-badge')).toContainText('Token valid');
  await page.screenshot({ path: `${shots}/connection-success.png`, fullPage: true, animations: 'disabled' });
});

test('a wrong client secret shows the provider’s error next to the client secret field', async ({ app, page }) => {
  await openConnection(page, app);
  await page.getByRole('radio', { name: /Built-in demo provider/ }).click();
  await page.getByLabel('Client secret').fill('this-is-not-the-secret');
  await page.getByRole('button', { name: 'Test connection' }).click();

  const fieldError = page.locator('#clientSecret-error');
  await expect(fieldError).toContainText('Su did not accept this client secret');
  await expect(fieldError).toContainText('Invalid client-secret');
  await expect(page.getByLabel('Client secret')).toHaveAttribute('aria-describedby', 'clientSecret-error');
  await expect(page.getByTestId('test-error')).toContainText('The connection did not work');
  // What the owner typed is still there.
  await expect(page.getByLabel('Client secret')).toHaveValue('this-is-not-the-secret');
  await page.screenshot({ path: `${shots}/connection-wrong-secret.png`, fullPage: true, animations: 'disabled' });

  // Editing the field clears the provider's complaint about it.
  await page.getByLabel('Client secret').fill('');
  await expect(fieldError).toHaveCount(0);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByTestId('test-success')).toBeVisible();
  await expect(fieldError).toHaveCount(0);
});

test('sandbox settings are checked before anything is sent, and saved ones survive a restart', async ({ page }) => {
  const first = await startApp();
  try {
    await openConnection(page, first);
    await page.getByRole('radio', { name: /Su sandbox/ }).click();
    await expect(page.getByLabel('API base URL')).toHaveValue('https://connect-sandbox.su-api.com/SUAPI');
    await page.getByLabel('API base URL').fill('http://connect-sandbox.su-api.com/SUAPI');
    await page.getByLabel('Domain').fill('https://my guesthouse');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.locator('#mainBaseUrl-error')).toContainText('https://');
    await expect(page.locator('#domain-error')).toContainText('domain name');

    await page.getByLabel('API base URL').fill('https://connect-sandbox.su-api.com/SUAPI');
    await page.getByLabel('Domain').fill('myguesthouse.com');
    await expect(page.getByLabel('Client id (computed)')).toHaveValue('bXlndWVzdGhvdXNlLmNvbQ==');
    await page.getByLabel('Client secret').fill('my-sandbox-secret');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('All changes saved')).toBeVisible();
    await expect(page.getByRole('radio', { name: /Su sandbox/ })).toContainText('In use');
    await page.screenshot({ path: `${shots}/connection-sandbox-saved.png`, fullPage: true, animations: 'disabled' });
  } finally {
    await stopApp(first, false);
  }

  const second = await startApp({}, first.dataDir);
  try {
    await openConnection(page, second);
    await expect(page.getByRole('radio', { name: /Su sandbox/ })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByLabel('Domain')).toHaveValue('myguesthouse.com');
    await expect(page.getByLabel('Client secret')).toHaveValue('');
    await expect(page.getByLabel('Client secret')).toHaveAttribute('placeholder', 'Saved — type to replace');
    await expect(page.getByTestId('first-run')).toHaveCount(0);
  } finally {
    await stopApp(second);
  }
});

test('picking another environment is an unsaved change that Revert undoes', async ({ app, page }) => {
  await openConnection(page, app);
  await expect(page.getByText('All changes saved')).toBeVisible();
  await page.getByRole('radio', { name: /Su production/ }).click();
  await expect(page.getByLabel('API base URL')).toHaveValue('https://connect.su-api.com/SUAPI');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('button', { name: 'Revert' }).click();
  await expect(page.getByRole('radio', { name: /Built-in demo provider/ })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByText('All changes saved')).toBeVisible();
});

test('without the session link the page explains how to open the app and reaches nothing', async ({ app, page }) => {
  await page.goto(new URL(app.url).origin);
  await expect(page.getByText('opened without its session link')).toBeVisible();
});

test('INNKEEPER_DEMO=1 starts on the demo provider and says so', async ({ page }) => {
  const app = await startApp({ INNKEEPER_DEMO: '1' });
  try {
    await openConnection(page, app);
    await expect(page.getByText('INNKEEPER_DEMO=1')).toBeVisible();
    await expect(page.getByRole('radio', { name: /Built-in demo provider/ })).toContainText('In use');
  } finally {
    await stopApp(app);
  }
});

test('a key too short or a password easy to guess is refused next to its field, and nothing is saved', async ({
  app,
  page,
}) => {
  await openConnection(page, app);
  await page.getByRole('radio', { name: /Built-in demo provider/ }).click();
  await page.locator('#notificationPassword').fill('Welcome');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const keyError = page.locator('#notificationPassword-error');
  await expect(keyError).toHaveText(
    'The notification password is too short: Su’s keys and passwords have at least 12 characters. Paste the whole value Su gave you.',
  );
  await expect(page.locator('#notificationPassword')).toHaveAttribute('aria-describedby', 'notificationPassword-error');
  await expect(page.getByText('Unsaved changes')).toBeVisible();

  await page.getByLabel('Password for Su').fill('aaaaaaaaaaaaaaaa');
  await page.getByRole('button', { name: 'Save receiving settings' }).click();
  const passwordError = page.locator('#pushPassword-error');
  await expect(passwordError).toHaveText(
    'The password for Su is easy to guess: it repeats one character. Use Generate for a strong one.',
  );
  for (const [width, height] of [
    [1280, 800],
    [1024, 680],
  ] as const) {
    await page.setViewportSize({ width, height });
    await keyError.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/connection-short-key-${width}.png`, animations: 'disabled' });
    await passwordError.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/connection-guessable-password-${width}.png`, animations: 'disabled' });
  }
  // Generate always makes one that passes.
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByRole('button', { name: 'Save receiving settings' }).click();
  // Saved: the field is emptied (the saved password is never shown again), and the complaint is gone.
  await expect(page.getByLabel('Password for Su')).toHaveValue('');
  await expect(passwordError).toHaveCount(0);
});

test('the setup guide names every credential and checks each part on the demo, through the core', async ({
  app,
  page,
}) => {
  await openConnection(page, app);
  const guide = page.getByTestId('setup-guide');
  await expect(guide).toContainText('Su is a channel manager');
  // Only what Su's documentation says, with Su's own addresses.
  await expect(page.getByTestId('guide-account')).toContainText('does not say how a partner account is ordered');
  const sandboxLink = guide.getByRole('link', { name: 'https://connect-sandbox.su-api.com/SUAPI' });
  await expect(sandboxLink).toHaveAttribute('target', '_blank');
  await expect(guide.getByRole('link', { name: 'https://token.suissu.com' })).toBeVisible();
  for (const [part, fields] of [
    ['token', 'Domain, Client secret'],
    ['facility', 'App id, API key'],
    ['payment', 'API name, API key'],
    ['notifications', 'User name, Password'],
  ] as const) {
    await expect(page.getByTestId(`guide-${part}`)).toContainText(fields);
    await expect(page.getByTestId(`guide-${part}`)).toContainText('Where from');
    await expect(page.getByTestId(`guide-${part}`)).toContainText('Needed for');
  }
  await expect(page.getByTestId('guide-payment')).toContainText('Without them guest messages, reviews and rates');
  // The demo delivers by itself: nothing to register, and it says so.
  await expect(page.getByTestId('guide-give-su')).toContainText('The demo delivers to this computer by itself');

  // Every part passes with the demo's own credentials, each checked by the demo's Su through the core.
  for (const part of ['token', 'facility', 'payment', 'notifications'] as const) {
    await page.getByTestId(`guide-${part}-check`).click();
    await expect(page.getByTestId(`guide-${part}-result`)).toContainText('Passed:');
  }
  await expect(page.getByTestId('guide-payment-result')).toContainText('Su accepted the API name and key');
  await page.getByTestId('guide-deliveries-check').click();
  const deliveries = page.getByTestId('guide-deliveries-result');
  await expect(deliveries).toContainText('Innkeeper’s listener is running on this computer');
  await expect(deliveries).toContainText('Test delivery:');
  await expect(deliveries.locator('.step--failed')).toHaveCount(0);

  // The test message's notification would sit on the screenshots.
  for (const close of await page.locator('.p-toast-close-button').all()) await close.click();
  await shootBoth(page, 'connection-guide', page.getByTestId('guide-account'));
  await shootBoth(page, 'connection-guide-parts', page.getByTestId('guide-payment'));
  await shootBoth(page, 'connection-guide-deliveries', page.getByTestId('guide-deliveries'));
  // The owner may fold the guide away; it stays folded on the next visit.
  await page.getByRole('button', { name: 'Hide the guide' }).click();
  await expect(page.getByTestId('guide-token')).toBeHidden();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Show the guide' })).toBeVisible();
  await page.screenshot({ path: `${shots}/connection-guide-folded.png`, animations: 'disabled' });
  await page.getByRole('button', { name: 'Show the guide' }).click();
  await expect(page.getByTestId('guide-token')).toBeVisible();

  // The test delivery is in the inbox, like any guest message.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
  await expect(page.getByTestId('thread-row')).toHaveCount(1);
});

test('a wrong payment key fails its check in owner words, next to the field to fix; typed values stay', async ({
  app,
  page,
}) => {
  await openConnection(page, app);
  await page.locator('#paymentApiKey').fill('this-is-not-the-payment-key');
  await page.getByTestId('guide-payment-check').click();
  const result = page.getByTestId('guide-payment-result');
  await expect(result).toContainText('Not yet: Su refused the API name and key');
  await expect(result).toContainText('under Payments');
  await expect(page.locator('#paymentApiKey-error')).toContainText('Su refused the API name and key');
  await expect(page.locator('#paymentApiKey')).toHaveValue('this-is-not-the-payment-key');
  // The other parts are not affected.
  await page.getByTestId('guide-facility-check').click();
  await expect(page.getByTestId('guide-facility-result')).toContainText('Passed:');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('guide-payment').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: `${shots}/connection-guide-payment-refused.png`, animations: 'disabled' });

  // Changing the key makes the check stale: its result and the field's message go.
  await page.locator('#paymentApiKey').fill('');
  await expect(result).toHaveCount(0);
  await expect(page.locator('#paymentApiKey-error')).toHaveCount(0);
  await page.getByTestId('guide-payment-check').click();
  await expect(result).toContainText('Passed:');
});

test('with a real account not set up yet, each check says what is missing and where to set it', async ({
  app,
  page,
}) => {
  await openConnection(page, app);
  await page.getByRole('radio', { name: /Su sandbox/ }).click();
  await page.getByLabel('Domain').fill('myguesthouse.com');
  await page.getByLabel('Client secret').fill('my-sandbox-secret-0042');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('radio', { name: /Su sandbox/ })).toContainText('In use');
  for (const close of await page.locator('.p-toast-close-button').all()) await close.click();
  await expect(page.getByTestId('setup-guide')).toContainText('Each check uses what is typed below, saved or not');

  // A part without its keys asks for them before anything is sent.
  await page.getByTestId('guide-facility-check').click();
  await expect(page.getByTestId('guide-facility-result')).toContainText(
    'Not yet: Enter the App id under Property facilities first.',
  );
  await expect(page.locator('#facilityAppId-error')).toContainText('Enter the App id');

  // Deliveries: the listener runs, but Su has no password and no address to deliver to yet; no test delivery at Su.
  await page.getByTestId('guide-deliveries-check').click();
  const steps = page.getByTestId('guide-deliveries-result');
  await expect(steps).toContainText('Innkeeper’s listener is running on this computer');
  await expect(steps).toContainText(
    'No password for Su is set, so nothing Su sends can be accepted. Fix: Password for Su, under Receiving messages and reviews',
  );
  await expect(steps).toContainText(
    'Su cannot reach this computer: there is no public address yet. Fix: How Su reaches',
  );
  await expect(steps).toContainText('Su’s partner API has no way to ask for a test delivery');
  await expect(page.getByTestId('guide-give-su')).toContainText('none yet: choose how Su reaches your computer');
  await expect(page.getByTestId('guide-give-su')).not.toContainText('The demo delivers');
  await shootBoth(page, 'connection-guide-sandbox', page.getByTestId('guide-deliveries'));
});
