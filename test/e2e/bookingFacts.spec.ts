import type { Locator, Page } from '@playwright/test';
import { expect, shootBoth as shootPair, startApp, stopApp, test, type RunningApp } from './app';

// Issue 26 on the demo: a Booking.com guest given a name and dates once is known by them (row, header, search), the
// Welcome reply fills completely, what it cannot fill is asked for under the reply, and it all survives a restart;
// the inbox's search field cuts a huge paste itself; Anna's enquiry asks for the days her card shows.

const rows = (page: Page) => page.getByTestId('thread-row');
const composer = (page: Page) => page.getByLabel(/^Reply on /);
const search = (page: Page) => page.getByLabel('Search conversations');

const shootBoth = (page: Page, name: string, show?: Locator) => shootPair(page, `booking-facts-${name}`, show);

async function demoInbox(page: Page, app: RunningApp) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(app.url);
  await expect(rows(page)).toHaveCount(6, { timeout: 30_000 });
}

test('a Booking.com guest given a name and dates once is known by them, and the Welcome reply fills completely', async ({
  page,
}) => {
  const first = await startApp({ INNKEEPER_DEMO_INBOX: '1' });
  let second: RunningApp | null = null;
  try {
    await demoInbox(page, first);
    const loft = rows(page).filter({ hasText: 'We will arrive late' });
    await expect(loft).toContainText(/Booking \d{10}/);
    await expect(loft).toContainText('Old Town Loft');
    await loft.click();
    await expect(page.locator('.p-toast-message')).toHaveCount(0);

    // The Welcome reply: the listing is the property the app knows; the guest and the day are asked for.
    await page.getByTestId('saved-replies').click();
    await page.locator('#saved-replies-menu').getByText('Welcome').click();
    await expect(composer(page)).toHaveValue(
      'Hi {{guest_first_name}}, thank you for your message! We look forward to welcoming you at Old Town Loft on {{check_in}}.',
    );
    const ask = page.getByTestId('placeholder-ask');
    await expect(ask.getByLabel('Guest’s first name')).toBeVisible();
    await expect(ask.getByLabel('Arrival')).toBeVisible();
    await expect(page.getByTestId('composer-send')).toBeDisabled();
    await shootBoth(page, 'ask', ask);

    await ask.getByLabel('Guest’s first name').fill('Marguerite');
    await ask.getByLabel('Arrival').fill('2026-12-04');
    await ask.getByTestId('ask-fill').click();
    await expect(composer(page)).toHaveValue(
      /^Hi Marguerite, thank you for your message! We look forward to welcoming you at Old Town Loft on Fri.*\b4\b.*2026\.$/,
    );
    await expect(ask).toHaveCount(0);
    await expect(page.getByTestId('composer-send')).toBeEnabled();
    // Kept on the booking: the header and the row name her, the row shows the stay.
    await expect(page.locator('#thread-guest')).toHaveText('Marguerite');
    await expect(rows(page).filter({ hasText: 'We will arrive late' })).toContainText('Marguerite');

    // The rest of the stay, in the booking card.
    const card = page.getByTestId('booking');
    await expect(card.getByTestId('booking-added')).toContainText('Added by you');
    await card.getByTestId('booking-facts-edit').click();
    await expect(card.getByLabel('Guest’s first name')).toHaveValue('Marguerite');
    await expect(card.getByLabel('Arrival')).toHaveValue('2026-12-04');
    await card.getByLabel('Departure').fill('2026-12-07');
    await card.getByLabel('Guests').fill('2');
    await shootBoth(page, 'card-form', card);
    await card.getByTestId('booking-facts-save').click();
    await expect(card.getByTestId('booking-facts-form')).toHaveCount(0);
    await expect(card.getByTestId('booking-nights')).toHaveText('3');
    await expect(card.getByTestId('booking-guests')).toHaveText('2 guests');
    await page.getByTestId('composer-send').click();
    await expect(page.getByTestId('message').last()).toContainText('Hi Marguerite');
    // The payment dialog knows her too.
    await page.getByTestId('composer-payment-link').click();
    const dialog = page.getByTestId('link-dialog');
    await expect(dialog.getByTestId('link-forWhom')).toHaveValue('Marguerite');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await shootBoth(page, 'card');

    await search(page).fill('Marguerite');
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Marguerite');
    await shootBoth(page, 'search');
    await stopApp(first, false);

    // After a restart (the same data file): the same name, the same stay, found by the same search.
    second = await startApp({ INNKEEPER_DEMO_INBOX: '1' }, first.dataDir);
    await demoInbox(page, second);
    await search(page).fill('margue');
    await expect(rows(page)).toHaveCount(1);
    await rows(page).first().click();
    await expect(page.locator('#thread-guest')).toHaveText('Marguerite');
    await expect(page.getByTestId('booking-nights')).toHaveText('3');
  } finally {
    await stopApp(second ?? first);
  }
});

test('a 20,000-character paste in the inbox search is cut at the field, which says so, and the list keeps working', async ({
  page,
}) => {
  const app = await startApp({ INNKEEPER_DEMO_INBOX: '1' });
  try {
    await demoInbox(page, app);
    await search(page).focus();
    // Typed in at once, as a paste is (the browser applies the field's limit to it).
    await search(page).fill(`late ${'x'.repeat(20_000)}`);
    await expect(search(page)).toHaveValue(/^late x+$/);
    expect((await search(page).inputValue()).length).toBe(200);
    await expect(page.getByTestId('search-cut')).toContainText('A search takes at most 200 characters');
    await expect(page.getByTestId('threads-error')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await shootBoth(page, 'search-cut');
    await search(page).fill('late');
    await expect(page.getByTestId('search-cut')).toHaveCount(0);
    await expect(rows(page)).toHaveCount(1);
  } finally {
    await stopApp(app);
  }
});

test('Anna’s enquiry asks for the days and the party her card shows', async ({ page }) => {
  const app = await startApp({ INNKEEPER_DEMO_INBOX: '1' });
  try {
    await demoInbox(page, app);
    await rows(page).filter({ hasText: 'Is the loft free' }).click();
    const card = page.getByTestId('booking');
    const checkIn = await card.getByTestId('booking-check-in').innerText();
    const checkOut = await card.getByTestId('booking-check-out').innerText();
    // The card writes "Sat, 5 Dec 2026" (in the browser's words); the guest "Saturday 5 December".
    const weekday = (shown: string) => /[A-Z][a-z]{2}/.exec(shown)![0];
    const dayOf = (shown: string) => /\b\d{1,2}\b/.exec(shown)![0];
    const message = page.getByTestId('message').first();
    await expect(message).toContainText(
      new RegExp(
        `from ${weekday(checkIn)}[a-z]+ ${dayOf(checkIn)} [A-Z][a-z]+ to ${weekday(checkOut)}[a-z]+ ${dayOf(checkOut)} `,
      ),
    );
    await expect(message).toContainText('two adults and a baby');
    await expect(card.getByTestId('booking-guests')).toContainText('2 adults, 1 infant');
  } finally {
    await stopApp(app);
  }
});
