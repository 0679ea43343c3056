import type { Locator, Page } from '@playwright/test';
import { addDays, daysOf, localToday, weekdayIndex } from '../../src/shared/dates';
import { expect, startApp, stopApp, test } from './app';

const shots = 'test-results/screenshots';
const BAR = 'rate:DBL:BAR';
const FRI = 4;
const SAT = 5;

const cell = (page: Page, target: string, channel: string, day: string) =>
  page.locator(`[data-testid="rate-cell"][data-target="${target}"][data-channel="${channel}"][data-day="${day}"]`);

/** The next summer season, June to September, within the 500 days Su takes rules for. */
function season() {
  const today = localToday();
  const year = Number(today.slice(0, 4)) + (today >= `${today.slice(0, 4)}-06-01` ? 1 : 0);
  return { from: `${year}-06-01`, to: `${year}-09-30` };
}

type Request = { ratecontrol?: { roomid: string; rateid: string; date: { from: string; to: string }[] }[] };

/** The editor fits: each date shows in full (its field is wide enough for the year) and "Add to draft" is one line in view. */
async function expectEditorFits(page: Page, editor: Locator) {
  for (const id of ['#rule-from', '#rule-to']) {
    const box = (await editor.locator(id).boundingBox())!;
    expect(box.width, id).toBeGreaterThanOrEqual(150);
  }
  const add = editor.getByRole('button', { name: 'Add to draft' });
  await expect(add).toBeInViewport({ ratio: 1 });
  expect((await add.boundingBox())!.height).toBeLessThan(44);
  const days = editor.getByTestId('rule-weekdays');
  await expect(days).toBeInViewport({ ratio: 1 });
  // Every day of the week is a whole toggle within the editor.
  const editorBox = (await editor.boundingBox())!;
  for (const box of await Promise.all((await days.locator('label').all()).map((l) => l.boundingBox())))
    expect(box!.x + box!.width).toBeLessThanOrEqual(editorBox.x + editorBox.width);
}

test('on the demo, one rule sets every Friday and Saturday from June to September, previewed as prices from → to', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const app = await startApp({ INNKEEPER_DEMO: '1' });
  const { from, to } = season();
  const weekends = daysOf(from, to).filter((d) => [FRI, SAT].includes(weekdayIndex(d)));
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}#/rates`);
    const start = addDays(localToday(), 1);
    await cell(page, BAR, '19', start).click();
    await page.keyboard.press('Enter');
    const editor = page.getByTestId('rule-editor');
    await expect(editor).toBeVisible();
    await expectEditorFits(page, editor);

    // The season, on Fridays and Saturdays only, on Airbnb and Booking.com: 25 more than the base.
    await editor.getByLabel('From', { exact: true }).fill(from);
    await editor.getByLabel('To', { exact: true }).fill(to);
    await editor.getByRole('checkbox', { name: 'Airbnb' }).check();
    const days = editor.getByTestId('rule-weekdays');
    for (const name of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])
      await days.getByRole('checkbox', { name }).uncheck();
    await editor.getByRole('radio', { name: 'Increase' }).check();
    await editor.getByLabel('Value', { exact: true }).fill('25');
    await editor.getByRole('button', { name: 'Add to draft' }).click();
    // No day chosen: said under the days, nothing added.
    await expect(days.getByRole('alert')).toHaveText('Choose at least one day of the week.');
    await days.getByRole('checkbox', { name: 'Friday' }).check();
    await days.getByRole('checkbox', { name: 'Saturday' }).check();
    await expect(days.getByRole('alert')).toHaveCount(0);
    // The demo's base is €145 on Fridays and Saturdays: only that base is named.
    await expect(editor).toContainText('From the base price: €145 → €170.');
    await page.screenshot({ path: `${shots}/C-editor-weekdays-1280.png`, animations: 'disabled' });
    await editor.getByRole('button', { name: 'Add to draft' }).click();
    await expect(editor).toBeHidden();
    await expect(page.getByTestId('draft-summary')).toContainText(`${weekends.length} days`);

    // The draft names the days of the week.
    await page.getByTestId('draft-edits-button').click();
    await expect(page.getByTestId('draft-edit')).toContainText(`Fri, Sat ·`);
    await expect(page.getByTestId('draft-edit')).toContainText(`(${weekends.length} days)`);
    await page.keyboard.press('Escape');

    // The preview: one line per channel for the whole season, with the price each day goes from and to.
    await page.getByTestId('preview-button').click();
    const preview = page.getByTestId('preview-dialog');
    const diff = preview.getByTestId('preview-diff');
    await expect(diff.getByTestId('diff-row')).toHaveCount(1);
    const row = diff.getByTestId('diff-row');
    await expect(row.getByTestId('diff-weekdays')).toHaveText('Fri, Sat');
    await expect(row).toContainText(`${weekends.length} days`);
    await expect(row).toContainText('no rule');
    await expect(row).toContainText('Increase 25');
    // Innkeeper never set these days: the price before is the base's, marked as such.
    await expect(row.getByTestId('diff-result')).toHaveText('≈€145 → €170');
    await expect(diff.getByTestId('diff-note')).toContainText('Su may hold another');
    // What goes to Su: exactly those days, each weekend its own range (Su has no day-of-week field).
    const request = JSON.parse((await preview.getByTestId('preview-request').textContent())!) as Request;
    const sent = request.ratecontrol!.flatMap((c) => c.date.flatMap((r) => daysOf(r.from, r.to)));
    expect(sent).toEqual(weekends);
    await page.screenshot({ path: `${shots}/C-preview-weekdays-1280.png`, animations: 'disabled' });
    await page.setViewportSize({ width: 1024, height: 680 });
    await page.screenshot({ path: `${shots}/C-preview-weekdays-1024.png`, animations: 'disabled' });

    await preview.getByTestId('push-confirm').check();
    await preview.getByTestId('push-button').click();
    await expect(page.getByTestId('push-progress')).toContainText('Su confirmed', { timeout: 20_000 });

    // History keeps it as one line; the next preview of these days knows the figure before (no ≈).
    await page.getByTestId('history-button').click();
    const history = page.getByTestId('history-panel');
    await expect(history.getByTestId('history-item').first()).toHaveAttribute('data-state', 'sent');
    await history.getByTestId('history-changes-toggle').first().click();
    await expect(history.getByTestId('diff-weekdays')).toHaveText('Fri, Sat');
    await page.screenshot({ path: `${shots}/C-history-weekdays-1024.png`, animations: 'disabled' });
    await history.getByTestId('revert-button').first().click();
    const revert = page.getByTestId('preview-dialog');
    await expect(revert.getByTestId('diff-result')).toHaveText('€170 → €145');
    await expect(revert.getByTestId('diff-note')).toHaveCount(0);
    await revert.getByRole('button', { name: 'Cancel' }).click();
    await page.keyboard.press('Escape');

    // The small laptop: docked under the calendar, every rule kind with the days of the week.
    await cell(page, 'inv:DBL', '19', start).click();
    await page.keyboard.press('Enter');
    await expect(editor).toBeVisible();
    await expectEditorFits(page, editor);
    await page.screenshot({ path: `${shots}/C-editor-weekdays-inventory-1024.png`, animations: 'disabled' });
    await cell(page, BAR, '19', start).click();
    await page.keyboard.press('Enter');
    await expect(editor.getByRole('heading')).toHaveText('Double Room · Best available rate');
    await editor.getByRole('radio', { name: 'Multiply' }).check();
    await expectEditorFits(page, editor);
    await page.screenshot({ path: `${shots}/C-editor-weekdays-rate-1024.png`, animations: 'disabled' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await editor.getByRole('radio', { name: 'Remove rule (Su’s own data)' }).check();
    await expectEditorFits(page, editor);
    await page.screenshot({ path: `${shots}/C-editor-weekdays-remove-1280.png`, animations: 'disabled' });
  } finally {
    await stopApp(app);
  }
});
