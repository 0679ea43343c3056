import type { Page } from '@playwright/test';
import { expect, startApp, stopApp, test, type RunningApp } from './app';

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
