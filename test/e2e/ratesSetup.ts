// A property set up for rates as an owner does it in the setup dialog (Su cannot list properties, rooms or rate
// plans): the dialog is opened by the spec (from the empty calendar or "Add a property"), filled here by its labels,
// and saved.
import { expect, type Page } from '@playwright/test';

export interface PropertyEntries {
  id: string;
  name: string;
  roomId: string;
  roomName?: string;
  inventory?: string;
  rateId: string;
  rateName?: string;
  price?: string;
}

/** Types the entries given into the open setup dialog, saves it and waits until it has closed. */
export async function saveRatesSetup(page: Page, entries: PropertyEntries): Promise<void> {
  const setup = page.getByTestId('rates-setup-dialog');
  const fields: [string, string | undefined][] = [
    ['Property id', entries.id],
    ['Property name', entries.name],
    ['Room id', entries.roomId],
    ['Room name', entries.roomName],
    ['Base inventory', entries.inventory],
    ['Rate plan id', entries.rateId],
    ['Rate plan name', entries.rateName],
    ['Base price', entries.price],
  ];
  for (const [label, value] of fields)
    if (value !== undefined) await setup.getByLabel(label, { exact: true }).fill(value);
  await setup.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(setup).toBeHidden();
}

/** The demo's third property, "Sea Cabin", added on the Rates screen (the demo enters two). */
export async function addSeaCabin(page: Page): Promise<void> {
  await page.getByTestId('rates-add-property').click();
  await saveRatesSetup(page, { id: 'IK-SEA-004', name: 'Sea Cabin', roomId: 'CAB', rateId: 'BAR' });
}
