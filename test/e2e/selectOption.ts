import type { Page } from '@playwright/test';
import { expect } from './app';

/**
 * Picks an option of a PrimeVue select (by its test id), typing `search` (or the option's text) into its filter when
 * it has one; a long list without a filter (times) is moved through by typing, as with a native select.
 *
 * The list of the select picked before must be gone first: still fading out, its filter would be taken for this
 * one's (a faster machine typed '15:00' into the countries' filter as that list closed, and waited for an option
 * never shown).
 */
export async function pickOption(page: Page, testid: string, option: string | RegExp, search?: string) {
  const overlay = page.locator('.p-select-overlay');
  await expect(overlay).toHaveCount(0);
  await page.getByTestId(testid).click();
  await expect(overlay).toBeVisible();
  const filter = overlay.locator('input.p-select-filter');
  const typed = search ?? (typeof option === 'string' ? option : '');
  if (await filter.isVisible()) await filter.fill(typed);
  else if (typed) {
    await page.keyboard.type(typed);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(testid)).toContainText(option);
    return;
  }
  await page.getByRole('option', { name: option }).first().click();
}
