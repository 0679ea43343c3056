import type { Page } from '@playwright/test';
import { expect, shootBoth, startApp, stopApp, test } from './app';
import { expectWords } from './words';

// The owner reads words on the property screens: no enumeration code of the contract (ONLY_GUESTS, NEARBY, …), no
// code of Airbnb's (PAYOUT), no request path (`2.instances.0.instance_id`, `physical_address`) anywhere but in the
// exact-request block of a preview. Scanned on the demo, tab by tab, with the previews and History open.

/** Both screen sizes, back at 1280×800 for what follows. */
async function both(page: Page, name: string) {
  await shootBoth(page, `words-${name}`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the property, facilities, notices and photos screens of the demo show words, not codes or paths', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}#/property/IK-DEMO-001/details`);
    const category = page.locator('#details-property_category');
    await expect(category).toHaveValue('Hotel (20)');
    await expectWords(page, 'details');
    await both(page, 'details');

    // The kind of property by its name; the number goes into the request.
    await category.fill('guest');
    await page.getByRole('option', { name: /Guest house/ }).click();
    await expect(category).toHaveValue('Guest house (16)');
    await page.getByTestId('preview-button').click();
    const preview = page.getByTestId('preview-dialog');
    await expect(preview.getByTestId('preview-diff')).toContainText('Guest house (16)');
    expect(JSON.parse(await preview.getByTestId('preview-request').innerText())).toMatchObject({
      property_category: 16,
    });
    await expectWords(page, 'details preview');
    await both(page, 'details-preview');
    await preview.getByRole('button', { name: 'Cancel' }).click();

    await page.getByTestId('property-tab-facilities').click();
    const parking = page.getByTestId('facility-2');
    await expect(parking).toBeVisible();
    await expect(parking.locator('#facility-2-0-parking_details-parking_access')).toHaveValue('Guests only');
    await expectWords(page, 'facilities');
    await both(page, 'facilities');

    // A new instance with every kind of choice: its changes read as words.
    await parking.getByTestId('add-instance').click();
    await parking.getByTestId('facility-2-1-parking_details-name').fill('Garage');
    await parking.locator('#facility-2-1-parking_details-parking_access').fill('anyone');
    await page.getByRole('option', { name: 'Anyone (public parking)' }).click();
    await expect(parking.locator('#facility-2-1-parking_details-parking_access')).toHaveValue(
      'Anyone (public parking)',
    );
    await page.getByTestId('preview-button').click();
    await expect(preview.getByTestId('preview-diff')).toContainText('Parking, new instance (“Garage”): Who may park');
    await expect(preview.getByTestId('preview-diff')).toContainText('Anyone (public parking)');
    expect(await preview.getByTestId('preview-request').innerText()).toContain('GENERAL_PUBLIC');
    await expectWords(page, 'facilities preview');
    await both(page, 'facilities-preview');
    await preview.getByTestId('confirm-creates').click();
    await preview.getByTestId('send-button').click();
    await expect(page.getByTestId('push-progress')).toContainText('Su confirmed');

    // A restaurant with meal types and opening hours, in a room: its card and its preview in words too.
    await page.locator('#facility-picker').fill('Restaurant');
    await page
      .getByRole('option', { name: /Restaurant/ })
      .first()
      .click();
    const restaurant = page.getByTestId('facility-3');
    await restaurant.getByTestId('add-instance').click();
    await restaurant.getByTestId('facility-3-0-restaurant_details-name').fill('Havnen');
    await restaurant.locator('#facility-3-0-restaurant_details-meal_types_list').fill('gluten');
    await page.getByRole('option', { name: 'Gluten-free' }).click();
    await restaurant.getByTestId('add-detail-schedule_details').click();
    await restaurant.getByTestId('schedule-add').click();
    await expectWords(page, 'restaurant');
    await page.getByTestId('preview-button').click();
    await expect(preview.getByTestId('preview-diff')).toContainText('Meal types');
    await expect(preview.getByTestId('preview-diff')).toContainText('Monday 09:00–17:00');
    await expectWords(page, 'restaurant preview');
    await preview.getByRole('button', { name: 'Cancel' }).click();

    await page.getByTestId('property-history-button').click();
    const item = page.getByTestId('history-item').first();
    // Every push's changes open: the demo's first ones too.
    const toggles = page.getByTestId('history-changes-toggle');
    for (let i = 0; i < (await toggles.count()); i++) await toggles.nth(i).click();
    await expect(item).toContainText('Anyone (public parking)');
    await expectWords(page, 'history');
    await both(page, 'history');
    await page.keyboard.press('Escape');

    // Each room's facilities.
    for (const room of ['Double Room', 'Twin Room', 'Family Suite']) {
      await page.getByTestId('facilities-scope').click();
      await page.getByRole('option', { name: new RegExp(room) }).click();
      await expect(page.getByTestId('facilities-status')).toBeVisible();
      await expectWords(page, `facilities of ${room}`);
    }

    await page.getByTestId('property-tab-notices').click();
    await expect(page.getByTestId('notice-row').first()).toBeVisible();
    await expectWords(page, 'notices');
    await both(page, 'notices');

    await page.getByTestId('property-tab-photos').click();
    await expect(page.getByText('At Su', { exact: true }).first()).toBeVisible();
    await expectWords(page, 'photos');
    await both(page, 'photos');
  } finally {
    await stopApp(app);
  }
});

test('a number that is not one says so, and a long paste stays whole with what is too much said at the field', async ({
  page,
}) => {
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}#/property/IK-DEMO-001/details`);
    const field = (path: string) => page.getByTestId(`details-${path}`);
    const error = (path: string) => page.getByTestId(`details-${path}-error`);
    await expect(field('position.latitude')).toHaveValue('55.6797');

    await field('position.latitude').fill('abc');
    await expect(error('position.latitude')).toContainText('Latitude is not a number');
    await expect(error('position.latitude')).toContainText('−90 to 90');
    await field('position.longitude').fill('12,5,9');
    await expect(error('position.longitude')).toContainText('Longitude is not a number');
    await field('room_count').fill('eight');
    await expect(error('room_count')).toContainText('not a number');
    await field('position.longitude').fill('');
    await field('position.longitude').blur();
    await expect(error('position.longitude')).toContainText('Longitude is required');

    // Pasted, 245 characters: all of it stays in the field, and the field says how much is too long.
    const long = `Harbour View Guesthouse ${'by the old harbour '.repeat(12)}`.slice(0, 245);
    await field('property_name').fill(long);
    await expect(field('property_name')).toHaveValue(long);
    await expect(error('property_name')).toContainText('at most 200 characters (this is 245, 45 too many)');
    await field('physical_address.postal_code').fill('1051 1051 1051 1051 1051');
    await expect(error('physical_address.postal_code')).toContainText('4 too many');
    await expect(page.getByTestId('draft-invalid')).toBeVisible();
    await shootBoth(page, 'words-details-mistakes', field('property_name'));

    // Nothing typed is lost: after a reload the draft holds it all.
    await expect(page.getByTestId('draft-state')).toContainText('Draft saved');
    await page.reload();
    await expect(field('property_name')).toHaveValue(long);
    await expect(field('position.latitude')).toHaveValue('abc');
  } finally {
    await stopApp(app);
  }
});
