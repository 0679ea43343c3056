import type { Page } from '@playwright/test';
import { damage } from './damage';
import { join } from 'node:path';
import { addDays, localToday } from '../../src/shared/dates';
import { expect, shootBoth, startApp, stopApp, test } from './app';
import { closeToasts } from './inboxPage';
import { addSeaCabin } from './ratesSetup';
import { pickOption } from './selectOption';
import { expectWords as expectNoCodes, readable } from './words';

// The owner reads words on the Rates, Payments and Connection screens too: no code, request path or raw value (the
// shared scan of words.ts), and none of the payment host's own words shown bare — its result flags ("Success",
// "Fail"), its status word after "Host:", or a reason that names no field ("failed: invalid.", "already
// registered…" where the host wrote `email_address : already registered…`). Scanned on the demo, screen by screen.

/** The payment host's words as it writes them: a result flag, its status word, a reason without its field. */
const hostWord =
  /\bSuccess\b|\bFail\b|\bHost: |:\s*(invalid|missing|inactive|already|too long)\b|^\s*(invalid|missing|inactive|already|too long)\b/;

/** The shared scan, and then the host's words: each line that shows one is named. */
async function expectWords(page: Page, screen: string, allow: (string | RegExp)[] = []) {
  await expectNoCodes(page, screen, allow);
  const lines = (await readable(page)).split('\n').filter((l) => hostWord.test(l));
  expect(lines, `${screen} shows the payment host's words as it writes them`).toEqual([]);
}

test.use({ locale: 'en-GB' });

const BAR = 'rate:DBL:BAR';
const cell = (page: Page, target: string, channel: string, day: string) =>
  page.locator(`[data-testid="rate-cell"][data-target="${target}"][data-channel="${channel}"][data-day="${day}"]`);
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

/** Both screen sizes, back at 1280×800 for what follows. */
async function both(page: Page, name: string) {
  await shootBoth(page, `words-${name}`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the rates screens of the demo show words, not codes or paths', async ({ page }) => {
  test.setTimeout(150_000);
  const app = await startApp({ INNKEEPER_DEMO: '1' });
  const d = (n: number) => addDays(localToday(), n);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}#/rates`);
    await expect(cell(page, BAR, '19', d(2))).toHaveAttribute('data-result', /^1\d\d$/);
    await expect(page.getByTestId('rate-row-label').first()).toBeVisible();
    await expectWords(page, 'rates calendar');

    // The rule editor, with each kind of rule chosen in turn.
    await cell(page, BAR, '19', d(2)).click();
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Enter');
    const editor = page.getByTestId('rule-editor');
    await expect(editor).toBeVisible();
    for (const kind of ['Fixed', 'Increase', 'Decrease', 'Multiply', 'No price rule', /^Remove rule/]) {
      await editor.getByRole('radio', { name: kind }).check();
      await expectWords(page, `rule editor (${String(kind)})`);
    }
    await editor.getByRole('radio', { name: 'Increase' }).check();
    await editor.getByLabel('Value', { exact: true }).fill('20');
    const days = editor.getByTestId('rule-weekdays');
    await days.getByRole('checkbox', { name: 'Sunday' }).uncheck();
    await editor.getByRole('checkbox', { name: 'Airbnb' }).check();
    await expect(editor).toContainText('From the base price');
    await expectWords(page, 'rule editor with weekdays');
    await editor.getByRole('button', { name: 'Add to draft' }).click();
    await expect(editor).toBeHidden();

    // An inventory rule and a closing in the same draft.
    await cell(page, 'inv:DBL', '19', d(4)).click();
    await page.keyboard.press('Enter');
    await expect(editor.getByTestId('rule-close-note')).toBeVisible();
    await expectWords(page, 'rule editor (inventory)');
    await editor.getByLabel('Value', { exact: true }).fill('2');
    await editor.getByRole('button', { name: 'Add to draft' }).click();
    await cell(page, 'rate:DBL:NRF', '9', d(3)).click();
    await page.keyboard.press('Enter');
    await editor.getByRole('radio', { name: 'No price rule' }).check();
    await editor.getByLabel('Closed', { exact: true }).check();
    await editor.getByRole('button', { name: 'Add to draft' }).click();

    // The draft and its edits.
    await expect(page.getByTestId('draft-summary')).toContainText('channel changes');
    await page.getByTestId('draft-name').fill('Autumn weekend');
    await expectWords(page, 'rates draft');
    await page.getByTestId('draft-edits-button').click();
    await expect(page.getByTestId('draft-edit').first()).toBeVisible();
    await expectWords(page, 'draft edits');
    await page.keyboard.press('Escape');

    // The preview: its diff in words (the request block is left out of the scan).
    await page.getByTestId('preview-button').click();
    const preview = page.getByTestId('preview-dialog');
    await expect(preview.getByTestId('preview-diff')).toContainText('Increase 20');
    await expect(preview.getByTestId('preview-request')).toContainText('ratecontrol');
    await expectWords(page, 'rates preview');
    await both(page, 'rates-preview');
    await preview.getByTestId('push-confirm').check();
    await preview.getByTestId('push-button').click();
    await expect(page.getByTestId('push-progress')).toContainText('Su confirmed', { timeout: 20_000 });
    await expectWords(page, 'rates after sending');

    // History, each entry's changes open, and the revert's preview.
    await page.getByTestId('history-button').click();
    const history = page.getByTestId('history-panel');
    await expect(history.getByTestId('history-item').first()).toContainText('Autumn weekend');
    const toggles = history.getByTestId('history-changes-toggle');
    for (let i = 0; i < (await toggles.count()); i++) await toggles.nth(i).click();
    await expect(history.getByTestId('diff-row').first()).toBeVisible();
    await expectWords(page, 'rates history');
    await both(page, 'rates-history');
    await history.getByTestId('revert-button').first().click();
    await expect(preview.getByTestId('preview-diff')).toContainText('Increase 20');
    await expectWords(page, 'rates revert preview');
    await preview.getByRole('button', { name: 'Cancel' }).click();
    await page.keyboard.press('Escape');

    // Rooms & rate plans, and one mistake in it.
    await page.getByTestId('rates-setup-button').click();
    const setup = page.getByTestId('rates-setup-dialog');
    await expect(setup.getByTestId('setup-currency')).toContainText('EUR');
    await expectWords(page, 'rates setup');
    await setup.getByLabel('Base price', { exact: true }).first().fill('-5');
    await setup.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(setup.getByRole('alert').first()).toBeVisible();
    await expectWords(page, 'rates setup mistake');
    await setup.getByRole('button', { name: 'Cancel' }).click();

    // A new property: the empty setup.
    await page.getByTestId('rates-add-property').click();
    await expect(setup).toBeVisible();
    await expectWords(page, 'rates new property');
    await setup.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(setup.getByRole('alert').first()).toBeVisible();
    await expectWords(page, 'rates new property mistakes');
    await setup.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    await stopApp(app);
  }
});

test('the payments screens of the demo show words, not codes or paths', async ({ page }) => {
  test.setTimeout(150_000);
  const app = await startApp({ INNKEEPER_DEMO: '1' });
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}#/payments`);
    await expect(page.getByTestId('partner-row').first()).toContainText('IK-PARTNER-01');
    await expectWords(page, 'payments first start');

    // A payment link, with a refused field first.
    await page.getByTestId('new-payment-link').click();
    const dialog = page.getByTestId('link-dialog');
    await expectWords(page, 'new payment link, empty');
    await dialog.getByTestId('link-hotelId').click();
    await page.getByRole('option', { name: /Harbour View/ }).click();
    await expect(dialog.getByTestId('link-order_id')).toHaveValue(/^IK-/);
    await expectWords(page, 'new payment link');
    await dialog.getByTestId('link-amount').fill('12.345');
    await dialog.getByTestId('link-create').click();
    await expect(dialog.getByTestId('link-amount-error')).toBeVisible();
    await expectWords(page, 'new payment link mistakes');
    await dialog.getByTestId('link-amount').fill('80');
    await dialog.getByTestId('link-forWhom').fill('Pieter de Vries');
    await both(page, 'payments-link-dialog');
    await dialog.getByTestId('link-create').click();
    await expect(dialog.getByTestId('link-result')).toContainText('€80.00');
    await expectWords(page, 'payment link made');
    await dialog.getByTestId('link-done').click();

    // A second one, paid by the guest (the demo's button).
    await page.getByTestId('new-payment-link').click();
    await dialog.getByTestId('link-hotelId').click();
    await page.getByRole('option', { name: /Harbour View/ }).click();
    await dialog.getByTestId('link-amount').fill('45.50');
    await dialog.getByTestId('link-forWhom').fill('Anna Berg');
    await dialog.getByTestId('link-create').click();
    await expect(dialog.getByTestId('link-result')).toContainText('€45.50');
    await dialog.getByTestId('link-done').click();

    // The widget (card details).
    await page.getByTestId('new-widget-link').click();
    await expectWords(page, 'widget link');
    await dialog.getByTestId('link-hotelId').click();
    await page.getByRole('option', { name: /Harbour View/ }).click();
    await dialog.getByTestId('link-booking_id').fill('4711');
    await dialog.getByTestId('link-create').click();
    await expect(dialog.getByTestId('link-result')).toContainText('Card details for booking 4711');
    await expectWords(page, 'widget link made');
    await dialog.getByTestId('link-done').click();

    const rows = page.getByTestId('ledger-row');
    const anna = rows.filter({ hasText: 'Anna Berg' });
    await anna.getByTestId('ledger-more').click();
    await page.getByRole('menuitem', { name: 'Pay as the guest (demo)' }).click();
    await expect(anna.getByTestId('payment-status')).toHaveText('Paid');

    // Check now, on the paid and on the unpaid one; every row's menu.
    for (const who of ['Anna Berg', 'Pieter de Vries']) {
      await rows.filter({ hasText: who }).getByTestId('ledger-more').click();
      await expectWords(page, `ledger menu of ${who}`);
      await page.getByRole('menuitem', { name: 'Check now' }).click();
      await expect(rows.filter({ hasText: who }).getByTestId('ledger-more')).not.toHaveClass(/loading/);
    }
    await expect(rows).toHaveCount(3);
    await expectWords(page, 'payments ledger');
    await both(page, 'payments-ledger');

    // The transaction id by hand, wrong.
    await rows.filter({ hasText: 'Pieter de Vries' }).getByTestId('ledger-more').click();
    await page.getByRole('menuitem', { name: 'Correct the transaction id' }).click();
    await page.getByTestId('transaction-id').fill('no-such-transaction');
    await expectWords(page, 'transaction id dialog');
    await page.getByTestId('transaction-save').click();
    await expect(page.getByTestId('transaction-dialog')).toBeHidden();
    // The host does not know it: said with the field in words, and no status word of the old transaction's.
    const pieter = rows.filter({ hasText: 'Pieter de Vries' });
    await expect(pieter.getByTestId('payment-status')).toHaveText('Unknown');
    await expect(page.getByTestId('ledger-note')).toContainText(
      'Checking the payment failed: The transaction id is not one the payment host knows.',
    );
    await expectWords(page, 'ledger after an unknown transaction');

    // QR dialog.
    await rows.filter({ hasText: 'Pieter de Vries' }).getByTestId('ledger-more').click();
    await page.getByRole('menuitem', { name: 'Show QR code' }).click();
    await expect(page.getByTestId('qr-dialog')).toBeVisible();
    await expectWords(page, 'qr dialog');
    await page.keyboard.press('Escape');

    // Partner accounts: a third property's, refused by its own checks, then by the host.
    await nav(page, 'Rates & availability');
    await addSeaCabin(page);
    await nav(page, 'Payments');
    const partner = page.getByTestId('partner-dialog');
    await page.getByTestId('partner-row').filter({ hasText: 'Sea Cabin' }).getByTestId('partner-set-up').click();
    await expect(partner.getByTestId('partner-partner_id')).toHaveValue('IK-SEA-004-PAY');
    await expectWords(page, 'partner dialog');
    await partner.getByTestId('partner-email_address').fill('sea cabin@example');
    await partner.getByTestId('partner-contact_name').fill('Maria Jensen');
    await partner.getByTestId('partner-contact_number').fill('+45 1234');
    await partner.getByTestId('partner-save').click();
    await expect(partner.getByTestId('partner-email_address-error')).toBeVisible();
    await expect(partner.getByTestId('partner-contact_number-error')).toContainText('not a valid number');
    await expectWords(page, 'partner dialog mistakes');
    await both(page, 'payments-partner-mistakes');
    await partner.getByTestId('partner-contact_number').fill('+4520123456');
    await partner.getByTestId('partner-email_address').fill('payments@harbourview.example');
    await pickOption(page, 'partner-currency_code', /Euro/, 'EUR');
    await partner.getByTestId('partner-save').click();
    // The host refuses another account's address: said under the e-mail, naming it in words.
    await expect(partner.getByTestId('partner-email_address-error')).toHaveText(
      'The e-mail address is already registered for another partner.',
    );
    await expectWords(page, 'partner dialog refused');
    await both(page, 'payments-partner-refused');
    await partner.getByTestId('partner-email_address').fill('sea@cabin.example');
    await partner.getByTestId('partner-save').click();
    await expect(partner).toBeHidden();
    await expect(page.getByTestId('partner-row').filter({ hasText: 'Sea Cabin' })).toContainText('IK-SEA-004-PAY');
    await expectWords(page, 'partner accounts');
  } finally {
    await stopApp(app);
  }
});

/**
 * Said as they are on the Connection screen: "production" is the name of Su's live system (the scan flags it as the
 * property's target code); INNKEEPER_PUSH_PORT is the variable whoever started Innkeeper set (every test app sets
 * it), named so they know why the port cannot be changed here.
 */
const CONNECTION_ALLOW = [/\bproduction\b/, 'Set by INNKEEPER_PUSH_PORT.'];

test('the connection screen of the demo shows words, not codes or paths', async ({ page }) => {
  test.setTimeout(120_000);
  let app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}#/connection`);
    await expect(page.getByTestId('first-run')).toBeVisible();
    await expect(page.getByTestId('setup-guide')).toContainText('Su is a channel manager');
    await expect(page.getByTestId('intake-listening')).toBeVisible();
    // The mailbox not paired, the demo's controls, start at login.
    await expect(page.getByTestId('mailbox-section').getByTestId('mailbox-pair')).toBeVisible();
    await expect(page.getByTestId('demo-section').getByTestId('demo-controls')).toBeVisible();
    await expect(page.getByTestId('start-at-login')).toContainText('Start Innkeeper when I log in');
    await expectWords(page, 'connection first start', CONNECTION_ALLOW);

    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('test-success')).toContainText('Connected to Built-in demo provider');
    // Every part of the guide checked on the demo, deliveries with the test delivery.
    for (const part of ['token', 'facility', 'payment', 'notifications'] as const) {
      await page.getByTestId(`guide-${part}-check`).click();
      await expect(page.getByTestId(`guide-${part}-result`)).toContainText('Passed:');
    }
    await page.getByTestId('guide-deliveries-check').click();
    await expect(page.getByTestId('guide-deliveries-result')).toContainText('Test delivery:');
    await expectWords(page, 'connection guide checked', CONNECTION_ALLOW);
    await closeToasts(page);
    await both(page, 'connection-guide');

    // A wrong payment key: its check fails in words, next to the field.
    await page.locator('#paymentApiKey').fill('this-is-not-the-payment-key');
    await page.getByTestId('guide-payment-check').click();
    await expect(page.getByTestId('guide-payment-result')).toContainText('Not yet:');
    await expectWords(page, 'connection payment key refused', CONNECTION_ALLOW);
    await page.locator('#paymentApiKey').fill('');
  } finally {
    await stopApp(app, false);
  }

  // The data file's health: damaged, with its backups to restore.
  damage(join(app.dataDir, 'innkeeper.db'));
  app = await startApp({}, app.dataDir);
  try {
    await page.goto(`${app.url}#/connection`);
    await expect(page.getByTestId('store-problem')).toContainText('The last check that found it sound was at');
    await expect(page.getByTestId('store-backup').first()).toBeVisible();
    await expectWords(page, 'connection data file damaged', CONNECTION_ALLOW);
    await expect(page.getByTestId('store-copy-report')).toBeVisible();
    await shootBoth(page, 'words-connection-data-file', page.getByTestId('store-problem'));
  } finally {
    await stopApp(app);
  }
});
