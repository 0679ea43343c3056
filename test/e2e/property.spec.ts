import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createEmulatorControl } from '../../src/emulator/controlClient';
import { expect, startApp, stopApp, test } from './app';
import { connectTo } from './connect';
import { startTestEmulator } from './deliveries';
import { saveRatesSetup } from './ratesSetup';
import { pickOption } from './selectOption';

const shots = 'test-results/screenshots';
const field = (page: Page, path: string) => page.getByTestId(`details-${path}`);
const fieldError = (page: Page, path: string) => page.getByTestId(`details-${path}-error`);

/** The demo provider's emulator inside the running app, through the developers' file in its data folder. */
function demoControl(dataDir: string) {
  const info = JSON.parse(readFileSync(join(dataDir, 'demo-provider.json'), 'utf8')) as {
    controlUrl: string;
    controlToken: string;
  };
  return createEmulatorControl(info);
}

test('details typed with mistakes show each by its field; sent while Su is away, they go out once it is back', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const su = await startTestEmulator();
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await connectTo(page, app, su.port, 'Rates & availability');
    // The property as the owner set it up for rates (Su cannot list properties).
    await page.getByTestId('rates-empty').getByRole('button', { name: 'Set up a property' }).click();
    await saveRatesSetup(page, { id: 'IK-DEMO-002', name: 'Old Town Loft', roomId: 'LOFT', rateId: 'BAR' });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Property' }).click();
    await expect(page.getByTestId('property-tab-details')).toBeVisible();
    // What the app knows already is filled in; Su never confirmed a record.
    await expect(field(page, 'property_name')).toHaveValue('Old Town Loft');
    await expect(field(page, 'room_count')).toHaveValue('1');

    await field(page, 'property_name').fill('Old Town Loft 旧城');
    await field(page, 'legal_entity_id').fill('LE-40021');
    // The kind of property by its name (the number goes in the request).
    await page.locator('#details-property_category').fill('apart');
    await page.getByRole('option', { name: /^Apartment/ }).click();
    await field(page, 'physical_address.address_line').fill('Læderstræde 12');
    await field(page, 'physical_address.city_name').fill('Copenhagen');
    await field(page, 'physical_address.postal_code').fill('1201');
    await pickOption(page, 'details-physical_address.country_code', 'Denmark');
    await field(page, 'position.latitude').fill('95.678');
    await field(page, 'position.longitude').fill('12.5775');
    await pickOption(page, 'details-check_in.from', '15:00');
    await pickOption(page, 'details-check_out.until', '11:00');
    await pickOption(page, 'details-currency_code', /Danish Krone/, 'DKK');
    await field(page, 'floor_count').fill('two');

    // Each mistake by its field, as it is typed.
    await expect(fieldError(page, 'property_name')).toContainText('ideographs');
    await expect(fieldError(page, 'position.latitude')).toContainText('90');
    await expect(fieldError(page, 'floor_count')).toContainText('number');
    await expect(page.getByTestId('draft-invalid')).toBeVisible();
    await page.screenshot({ path: `${shots}/property-details-mistakes.png`, animations: 'disabled', fullPage: true });

    // Nothing typed is lost: a reload shows the draft as typed, mistakes included.
    await expect(page.getByTestId('draft-state')).toContainText('Draft saved');
    await page.reload();
    await expect(field(page, 'floor_count')).toHaveValue('two');
    await expect(field(page, 'property_name')).toHaveValue('Old Town Loft 旧城');

    await field(page, 'property_name').fill('Old Town Loft');
    await field(page, 'position.latitude').fill('55.678');
    await field(page, 'floor_count').fill('2');
    await expect(page.getByTestId('draft-invalid')).toBeHidden();

    // Su goes away; the preview shows the exact request and every field it sets.
    await su.stop();
    await page.getByTestId('preview-button').click();
    const preview = page.getByTestId('preview-dialog');
    await expect(preview.getByTestId('preview-diff')).toContainText('Copenhagen');
    const request = JSON.parse(await preview.getByTestId('preview-request').innerText()) as Record<string, unknown>;
    expect(request).toMatchObject({
      hotel_id: 'IK-DEMO-002',
      legal_entity_id: 'LE-40021',
      property_name: 'Old Town Loft',
      position: { latitude: 55.678, longitude: 12.5775 },
      check_in: { from: '15:00' },
      check_out: { until: '11:00' },
      floor_count: 2,
      property_category: 3,
      currency_code: 'DKK',
      physical_address: { country_code: 'DK', city_name: 'Copenhagen', address_line: 'Læderstræde 12' },
    });
    await page.screenshot({ path: `${shots}/property-details-preview.png`, animations: 'disabled' });
    await preview.getByTestId('send-button').click();
    await expect(preview).toBeHidden();
    await expect(page.getByTestId('push-progress')).toContainText(/queued|Sending/);

    // Back: it goes out by itself, once, exactly as previewed.
    await su.start();
    await expect(page.getByTestId('push-progress')).toContainText('Su confirmed', { timeout: 60_000 });
    const sent = await su.sent('/bdc/property/update');
    expect(sent).toEqual([request]);
    const content = await su.control().content('IK-DEMO-002');
    expect(content.propertyRecord).toEqual(request);

    await page.getByTestId('property-history-button').click();
    const item = page.getByTestId('history-item').first();
    await expect(item.getByTestId('history-answer')).toContainText('Property updated successfully');
    await page.screenshot({ path: `${shots}/property-history.png`, animations: 'disabled' });
  } finally {
    await stopApp(app);
    await su.stop();
  }
});

test('on the demo, parking with its details is added to a room and Su holds exactly one instance', async ({ page }) => {
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}#/property/IK-DEMO-001/facilities`);
    await expect(page.getByTestId('facility-47')).toBeVisible();
    await page.screenshot({ path: `${shots}/property-facilities.png`, animations: 'disabled', fullPage: true });
    await page.setViewportSize({ width: 1024, height: 680 });
    await page.screenshot({ path: `${shots}/property-facilities-1024.png`, animations: 'disabled' });

    await pickOption(page, 'facilities-scope', /Twin Room/);
    await page.locator('#facility-picker').fill('Parking');
    await page
      .getByRole('option', { name: /Parking/ })
      .first()
      .click();
    const card = page.getByTestId('facility-2');
    await expect(card).toBeVisible();
    await card.getByTestId('add-instance').click();
    await card.getByTestId('facility-2-0-parking_details-name').fill('Garage on Toldbodgade');
    await pickOption(page, 'facility-2-0-parking_details-parking_location', /Nearby|NEARBY/);
    await card.getByTestId('add-detail-payment_details').click();
    await pickOption(page, 'facility-2-0-payment_details-charge_mode', /Paid|PAID/);

    await page.getByTestId('preview-button').click();
    const preview = page.getByTestId('preview-dialog');
    await expect(preview.getByTestId('preview-create')).toContainText(
      'a new Parking instance (“Garage on Toldbodgade”)',
    );
    await expect(preview.getByTestId('send-button')).toBeDisabled();
    await page.screenshot({ path: `${shots}/property-facilities-preview.png`, animations: 'disabled' });
    await preview.getByTestId('confirm-creates').click();
    await preview.getByTestId('send-button').click();
    await expect(page.getByTestId('push-progress')).toContainText('Su confirmed');
    await expect(card.getByTestId('instance-created')).toBeVisible();

    const control = demoControl(app.dataDir);
    const rooms = (await control.content('IK-DEMO-001')).facilities.rooms as Record<
      string,
      { facility_id: string; instances: Record<string, unknown>[] }[]
    >;
    const twin = Object.values(rooms)
      .flat()
      .filter((f) => f.facility_id === '2');
    expect(twin).toHaveLength(1);
    expect(twin[0]!.instances).toEqual([
      expect.objectContaining({
        parking_details: expect.objectContaining({ name: 'Garage on Toldbodgade', parking_location: 'NEARBY' }),
        payment_details: { charge_mode: 'PAID' },
      }),
    ]);

    // Renamed afterwards: Su never said the instance's id, so it is not sent again as a second one.
    await card.getByTestId('facility-2-0-parking_details-name').fill('Garage (Toldbodgade 5)');
    await page.getByTestId('preview-button').click();
    await expect(preview.getByTestId('preview-problems')).toContainText('second one');
    await expect(preview.getByTestId('send-button')).toBeDisabled();
    await page.screenshot({ path: `${shots}/property-facilities-trap-preview.png`, animations: 'disabled' });
    await preview.getByRole('button', { name: 'Cancel' }).click();
    await expect(card.getByTestId('instance-id-error')).toContainText('second one');
    await page.screenshot({ path: `${shots}/property-facilities-trap.png`, animations: 'disabled' });
  } finally {
    await stopApp(app);
  }
});

test('an Airbnb notice arrives on the demo, raises the badge, and opens at Airbnb', async ({ page, context }) => {
  const app = await startApp();
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}#/property/IK-DEMO-001/notices`);
    await expect(page.getByTestId('notice-row')).toHaveCount(2);
    const badge = page.getByTestId('nav-badge-property');
    const count = async () => Number(/^\d+/.exec(await badge.innerText())?.[0] ?? 0);
    const before = await count();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connection' }).click();
    const section = page.getByTestId('demo-section');
    await section.getByTestId('demo-deliver-notice').click();
    await expect(section.getByTestId('demo-result')).toContainText('Airbnb notice');
    await expect(badge).toHaveText(new RegExp(`^${before + 1}(?!\\d)`));

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Property' }).click();
    await page.getByTestId('property-tab-notices').click();
    const fresh = page.getByTestId('notice-row').filter({ hasText: 'Verify your identity' });
    await expect(fresh).toHaveAttribute('data-seen', 'false');
    await page.screenshot({ path: `${shots}/property-notices.png`, animations: 'disabled', fullPage: true });
    await page.setViewportSize({ width: 1024, height: 680 });
    await page.screenshot({ path: `${shots}/property-notices-1024.png`, animations: 'disabled' });

    // No internet here: Airbnb's page is answered locally; what matters is which address the app opened.
    await context.route('https://www.airbnb.com/**', (route) => route.fulfill({ body: '<title>Airbnb</title>' }));
    const popup = context.waitForEvent('page');
    await fresh.getByTestId('notice-open').click();
    expect((await popup).url()).toMatch(/^https:\/\/www\.airbnb\.com\/verify/);
    await expect(fresh).toHaveAttribute('data-seen', 'true');
    await expect(badge).toHaveText(new RegExp(`^${before}(?!\\d)`));
  } finally {
    await stopApp(app);
  }
});
