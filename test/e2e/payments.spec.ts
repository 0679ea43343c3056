import type { Page } from '@playwright/test';
import { expect, startApp, stopApp, test } from './app';
import { connectTo } from './connect';
import { startTestEmulator } from './deliveries';
import { addSeaCabin, saveRatesSetup } from './ratesSetup';
import { pickOption } from './selectOption';

// Payments on the demo provider, as an owner: a partner account set up with mistakes first, then a deposit link
// made from a Booking.com conversation, put into the reply, sent, paid by the guest and seen Paid.

// Amounts read "€45.50" whatever the machine's locale.
test.use({ locale: 'en-GB' });

const shots = 'test-results/screenshots';
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

/** Both sizes an owner uses: a laptop, and a small window. */
async function shoot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${shots}/${name}.png`, animations: 'disabled', ...options });
  await page.setViewportSize({ width: 1024, height: 680 });
  await page.screenshot({ path: `${shots}/${name}-1024.png`, animations: 'disabled', ...options });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a partner account typed with mistakes shows each under its field, and the host’s refusal under the e-mail', async ({
  page,
}) => {
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    // A third property, set up for rates as an owner would (the demo enters two, with their accounts).
    await page.goto(`${app.url}#/rates`);
    await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
    await addSeaCabin(page);

    await nav(page, 'Payments');
    const rows = page.getByTestId('partner-row');
    await expect(rows).toHaveCount(3);
    // The demo's accounts, entered by their ids.
    await expect(rows.filter({ hasText: 'Harbour View' })).toContainText('IK-PARTNER-01');
    await expect(rows.filter({ hasText: 'Old Town Loft' })).toContainText('IK-PARTNER-02');
    await expect(page.getByTestId('payments-empty')).toBeVisible();
    await shoot(page, 'payments-first-start');

    await rows.filter({ hasText: 'Sea Cabin' }).getByTestId('partner-set-up').click();
    const dialog = page.getByTestId('partner-dialog');
    await expect(dialog.getByTestId('partner-partner_id')).toHaveValue('IK-SEA-004-PAY');
    await expect(dialog.getByTestId('partner-partner_name')).toHaveValue('Sea Cabin');
    await dialog.getByTestId('partner-email_address').fill('sea cabin@example');
    await dialog.getByTestId('partner-contact_name').fill('Maria Jensen');
    await dialog.getByTestId('partner-contact_number').fill('+45 1234');
    await pickOption(page, 'partner-currency_code', /Danish Krone/, 'DKK');
    await dialog.getByTestId('partner-save').click();
    await expect(dialog.getByTestId('partner-email_address-error')).toContainText('valid e-mail');
    await expect(dialog.getByTestId('partner-contact_number-error')).toContainText('not a valid number');
    await shoot(page, 'payments-partner-mistakes');

    // Fixed as typed; the number is shown the international way once the owner leaves it.
    await dialog.getByTestId('partner-contact_number').fill('+4520123456');
    await dialog.getByTestId('partner-contact_name').click();
    await expect(dialog.getByTestId('partner-contact_number')).toHaveValue('+45 20 12 34 56');
    await expect(dialog.getByTestId('partner-contact_number-error')).toHaveCount(0);
    // Another account's address: the host refuses it, and says so under the e-mail.
    await dialog.getByTestId('partner-email_address').fill('payments@harbourview.example');
    await expect(dialog.getByTestId('partner-email_address-error')).toHaveCount(0);
    await dialog.getByTestId('partner-save').click();
    await expect(dialog.getByTestId('partner-email_address-error')).toContainText(/already|another/);
    await expect(dialog).toBeVisible();

    await dialog.getByTestId('partner-email_address').fill('sea@cabin.example');
    await expect(dialog.getByTestId('partner-email_address-error')).toHaveCount(0);
    await dialog.getByTestId('partner-save').click();
    await expect(dialog).toBeHidden();
    const sea = rows.filter({ hasText: 'Sea Cabin' });
    await expect(sea).toContainText('IK-SEA-004-PAY');
    await expect(sea).toContainText('DKK');
    await expect(sea).toContainText('Created here');
  } finally {
    await stopApp(app);
  }
});

test('from a Booking.com conversation: a 45.50 EUR deposit link, put into the reply, sent, paid and seen Paid', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(app.url);
    await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
    // A guest writes on Booking.com (the demo controls, as the first start shows them).
    const controls = page.getByTestId('messages-empty').getByTestId('demo-controls');
    await controls.getByTestId('demo-message-channel').getByText('Booking.com').click();
    await controls.getByTestId('demo-deliver-message').click();
    const thread = page.getByTestId('thread-row').filter({ hasText: 'Booking.com' });
    await thread.click();
    await expect(page.getByTestId('thread')).toBeVisible();
    await expect(page.locator('.p-toast-message')).toHaveCount(0);

    await page.getByTestId('composer-payment-link').click();
    const dialog = page.getByTestId('link-dialog');
    await expect(dialog.getByTestId('link-rule')).toContainText('Booking.com delivers links only when');
    await expect(dialog.getByTestId('link-hotelId')).toContainText('Harbour View');
    await expect(dialog.getByTestId('link-currency_code')).toContainText('EUR');
    await expect(dialog.getByTestId('link-order_id')).toHaveValue(/^IK-\d{6}-[A-Z0-9]{4}$/);
    await expect(dialog.getByTestId('link-amount-error')).toHaveCount(0);
    // Three decimals are refused as typed (nothing is rounded), then the right amount.
    await dialog.getByTestId('link-amount').fill('45.505');
    await dialog.getByTestId('link-amount').blur();
    await expect(dialog.getByTestId('link-amount-error')).toContainText('EUR has 2 decimals');
    await dialog.getByTestId('link-amount').fill('45.50');
    await expect(dialog.getByTestId('link-amount-error')).toHaveCount(0);
    await expect(dialog).toContainText('EUR has 2 decimals, such as 45.50.');
    await dialog.getByTestId('link-purpose').locator('.p-select-dropdown').click();
    await page.getByRole('option', { name: 'Deposit', exact: true }).click();
    await expect(dialog.locator('#link-purpose')).toHaveValue('Deposit');
    await shoot(page, 'payments-link-form');

    await dialog.getByTestId('link-create').click();
    await expect(dialog.getByTestId('link-result')).toContainText('Deposit · €45.50');
    const url = await dialog.getByTestId('link-url').inputValue();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    await expect(dialog.getByTestId('link-qr')).toBeVisible();
    await expect(dialog.getByTestId('link-qr')).toHaveAttribute('alt', /QR code of the payment link/);
    expect(
      await dialog.getByTestId('link-qr').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
    ).toBeGreaterThan(0);
    await shoot(page, 'payments-link-qr');

    await dialog.getByTestId('link-insert').click();
    await expect(dialog).toBeHidden();
    const composer = page.getByLabel(/^Reply on /);
    await expect(composer).toHaveValue(`You can pay the deposit of €45.50 securely here: ${url}`);
    await expect(page.getByTestId('composer-warnings')).toContainText('whitelisted');
    await expect(page.getByTestId('draft-state')).toHaveText('Draft saved');
    const strip = page.getByTestId('thread-payments');
    await expect(strip.getByTestId('thread-payment')).toHaveAttribute('data-status', 'requested');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(composer).toHaveValue('');
    await expect(page.getByTestId('message').last()).toContainText(url);

    // The guest pays: the demo controls (under Connection while the demo is the provider in use).
    await nav(page, 'Connection');
    const section = page.getByTestId('demo-section');
    await expect(section.getByTestId('demo-payment-link')).toContainText('Deposit · €45.50');
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/payments-demo-controls.png`, animations: 'disabled' });
    await section.getByTestId('demo-deliver-payment').click();
    await expect(section.getByTestId('demo-result')).toBeVisible();
    const toast = page.locator('.p-toast-message').filter({ hasText: 'Paid · Deposit · €45.50' });
    await expect(toast).toBeVisible();
    await page.screenshot({ path: `${shots}/payments-paid-toast.png`, animations: 'disabled' });

    // The toast opens the link in the ledger, Paid.
    await toast.locator('.p-toast-message-text').click();
    await expect(page).toHaveURL(/#\/payments\/\d+$/);
    const row = page.getByTestId('ledger-row').first();
    await expect(row.getByTestId('payment-status')).toHaveText('Paid');
    await expect(row.getByTestId('ledger-amount')).toHaveText('€45.50');
    await expect(row).toContainText('Booking');
    await shoot(page, 'payments-ledger');

    // And in the conversation it belongs to.
    await row.getByTestId('ledger-thread').click();
    await expect(strip.getByTestId('thread-payment')).toHaveAttribute('data-status', 'paid');
    await expect(strip).toContainText('Paid');
    await shoot(page, 'payments-conversation');
  } finally {
    await stopApp(app);
  }
});

test('without the payment key the screen says where to enter it; a link asked for while the host is away is a draft, created once it is back', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Su sandbox's links are https: the app hands out a plain http link only from its built-in demo.
  const su = await startTestEmulator({ paymentPageBase: 'https://pay.sandbox.test' });
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await connectTo(page, app, su.port, 'Rates & availability');
    await page.getByTestId('rates-empty').getByRole('button', { name: 'Set up a property' }).click();
    await saveRatesSetup(page, { id: 'IK-DEMO-001', name: 'Harbour View Guesthouse', roomId: 'DBL', rateId: 'BAR' });

    await nav(page, 'Payments');
    const notReady = page.getByTestId('payments-not-ready');
    await expect(notReady).toBeVisible();
    await shoot(page, 'payments-not-ready');
    await notReady.getByRole('link', { name: 'Go to Connection' }).click();
    await page.locator('#paymentApiName').fill('DEMOAPP');
    await page.locator('#paymentApiKey').fill('demo-payment-key');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('All changes saved')).toBeVisible();
    await nav(page, 'Payments');
    await expect(notReady).toBeHidden();

    // An account made elsewhere, entered by its id.
    await page.getByTestId('partner-set-up').click();
    const partner = page.getByTestId('partner-dialog');
    await partner.getByText('Enter an existing account').click();
    await partner.getByTestId('partner-partner_id').fill('IK-PARTNER-01');
    await pickOption(page, 'partner-currency_code', /^EUR · Euro$/, 'EUR');
    await partner.getByTestId('partner-save').click();
    await expect(partner).toBeHidden();
    await expect(page.getByTestId('partner-row')).toContainText('Entered by its id');

    // The host goes away while a link is asked for: what was typed is kept as a draft.
    await page.getByTestId('new-payment-link').click();
    const dialog = page.getByTestId('link-dialog');
    await expect(dialog.getByTestId('link-order_id')).toHaveValue(/^IK-/);
    await dialog.getByTestId('link-amount').fill('120');
    await dialog.getByTestId('link-forWhom').fill('Pieter de Vries');
    await su.stop();
    await dialog.getByTestId('link-create').click();
    await expect(dialog.getByTestId('link-problem')).toContainText('could not be reached');
    await dialog.locator('footer').getByRole('button', { name: 'Close' }).click();
    const draft = page.getByTestId('ledger-row').filter({ hasText: 'Pieter de Vries' });
    await expect(draft.getByTestId('payment-status')).toHaveText('Draft');
    await expect(draft.getByTestId('ledger-amount')).toHaveText('€120.00');
    await expect(page.getByTestId('ledger-note')).toContainText('Not created yet');
    await shoot(page, 'payments-draft');

    // Back: the draft opens as typed and becomes the link.
    await su.start();
    await draft.getByTestId('ledger-open').click();
    // The draft kept the amount exactly as typed.
    await expect(dialog.getByTestId('link-amount')).toHaveValue('120');
    await dialog.getByTestId('link-create').click();
    await expect(dialog.getByTestId('link-result')).toContainText('€120.00 for Pieter de Vries');
    // Not a conversation's link: nothing to put it into.
    await expect(dialog.getByTestId('link-insert')).toHaveCount(0);
    await dialog.getByTestId('link-done').click();
    await expect(draft.getByTestId('payment-status')).toHaveText('Requested');
    await expect(page.getByTestId('ledger-row')).toHaveCount(1);

    // A widget link for a booking, as a button.
    await page.getByTestId('new-widget-link').click();
    await dialog.getByTestId('link-booking_id').fill('4711');
    await dialog.getByTestId('link-is_button').getByText('A button').click();
    await dialog.getByTestId('link-create').click();
    await expect(dialog.getByTestId('link-result')).toContainText('Card details for booking 4711');
    await dialog.getByTestId('link-done').click();
    await expect(page.getByTestId('ledger-row')).toHaveCount(2);
    await shoot(page, 'payments-ledger-open');
  } finally {
    await stopApp(app);
    await su.stop();
  }
});
