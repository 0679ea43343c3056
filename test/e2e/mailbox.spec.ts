import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMailbox } from '../../src/mailbox/mailbox';
import { startApp, stopApp, expect, test } from './app';
import { airbnbMessage } from './deliveries';
import { closeToasts } from './inboxPage';

const shots = 'test-results/screenshots';
const rows = (page: Page) => page.getByTestId('thread-row');

/** The serious and critical accessibility violations (axe, WCAG 2.2 AA) inside `selector`, as rule and target. */
async function violations(page: Page, selector: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

test('the demo’s “Close the laptop for an hour”: the guests write to the mailbox, and it all comes in on opening', async ({
  page,
}) => {
  // The demo's own deliveries on, as for any owner: its sample inbox comes through the demo's own mailbox.
  const app = await startApp({ INNKEEPER_DEMO_INBOX: '1' });
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(app.url);
    await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
    await expect(rows(page)).toHaveCount(6, { timeout: 30_000 });

    // The Connection screen: the mailbox paired and working, nothing to register on the demo.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Connection' }).click();
    const section = page.getByTestId('mailbox-section');
    await expect(section.getByTestId('mailbox-state')).toContainText('Connected');
    await expect(section).toContainText('The demo’s own mailbox, inside Innkeeper');
    await expect(section.getByTestId('mailbox-register')).toContainText('nothing on the demo');
    await expect(section.getByTestId('mailbox-unpair')).toHaveCount(0);
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `${shots}/mailbox-demo-section.png`, animations: 'disabled' });

    // Close the laptop: collecting pauses while the demo's guests write.
    const demo = page.getByTestId('demo-section');
    await demo.getByTestId('demo-laptop-close').click();
    await expect(demo.getByTestId('demo-laptop-note')).toHaveText(
      'While the laptop is closed, 3 guest messages and a review reached your mailbox: they wait there until this computer collects again.',
    );
    await expect(section.getByTestId('mailbox-state')).toContainText('Collecting is paused');
    expect(await violations(page, '[data-testid="mailbox-section"]')).toEqual([]);
    expect(await violations(page, '[data-testid="demo-laptop"]')).toEqual([]);
    await demo.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/mailbox-laptop-closed.png`, animations: 'disabled' });
    await page.setViewportSize({ width: 1024, height: 680 });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/mailbox-laptop-closed-1024.png`, animations: 'disabled' });

    // Nothing came in meanwhile.
    await nav.getByRole('link', { name: 'Inbox' }).click();
    await expect(rows(page)).toHaveCount(6);
    await expect(page.getByTestId('mailbox-while-off')).toHaveCount(0);

    // Open it again: what waited comes in, with what arrived while this computer was off.
    await nav.getByRole('link', { name: 'Connection' }).click();
    await page.getByTestId('demo-section').getByTestId('demo-laptop-open').click();
    await expect(section.getByTestId('mailbox-section-while-off')).toContainText(
      '3 messages and 1 review arrived while this computer was off',
    );
    await expect(section.getByTestId('mailbox-state')).toContainText('Connected');
    await closeToasts(page);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/mailbox-section-1024.png`, animations: 'disabled' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await section.screenshot({ path: `${shots}/mailbox-section.png`, animations: 'disabled' });

    await nav.getByRole('link', { name: 'Inbox' }).click();
    await expect(rows(page)).toHaveCount(9);
    const note = page.getByTestId('mailbox-while-off');
    await expect(note).toContainText('3 messages and 1 review arrived while this computer was off');
    await closeToasts(page);
    await page.screenshot({ path: `${shots}/mailbox-inbox-note.png`, animations: 'disabled' });
    expect(await violations(page, '[data-testid="mailbox-while-off"]')).toEqual([]);
    await page.setViewportSize({ width: 1024, height: 680 });
    await page.screenshot({ path: `${shots}/mailbox-inbox-note-1024.png`, animations: 'disabled' });
    await page.getByTestId('tab-reviews').click();
    await expect(page.getByTestId('review-row')).toHaveCount(5);

    // Put away, it stays away (after a reload too).
    await note.getByTestId('mailbox-while-off-dismiss').click();
    await expect(note).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('review-row')).toHaveCount(5);
    await expect(page.getByTestId('mailbox-while-off')).toHaveCount(0);
  } finally {
    await stopApp(app);
  }
});

test('the devices paired with the demo’s mailbox: the front desk’s computer is unpaired after a confirmation', async ({
  page,
}) => {
  const app = await startApp({ INNKEEPER_DEMO_INBOX: '1' });
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(app.url);
    await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connection' }).click();
    const devices = page.getByTestId('mailbox-devices');
    await expect(devices.getByTestId('mailbox-device-self')).toContainText('This computer', { timeout: 20_000 });
    const desk = devices.getByTestId('mailbox-device');
    await expect(desk).toHaveCount(1);
    await expect(desk).toContainText('Front desk PC');
    await expect(desk).toContainText('last seen');
    await desk.getByRole('button', { name: 'Unpair Front desk PC' }).click();
    await expect(desk).toContainText('Unpair Front desk PC? It can no longer collect from the mailbox');
    expect(await violations(page, '[data-testid="mailbox-devices"]')).toEqual([]);
    await closeToasts(page);
    await devices.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/mailbox-devices.png`, animations: 'disabled' });
    await page.setViewportSize({ width: 1024, height: 680 });
    await devices.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/mailbox-devices-1024.png`, animations: 'disabled' });

    await desk.getByTestId('mailbox-device-unpair-confirm').click();
    await expect(desk).toHaveCount(0);
    await expect(devices.getByTestId('mailbox-device-self')).toBeVisible();
    // Gone at the mailbox itself: after a reload (the health read again), only this computer.
    await page.reload();
    await expect(page.getByTestId('mailbox-devices').getByTestId('mailbox-device-self')).toBeVisible({
      timeout: 20_000,
    });
    await expect(page.getByTestId('mailbox-devices').getByTestId('mailbox-device')).toHaveCount(0);
    await expect(page.getByTestId('mailbox-section').getByTestId('mailbox-state')).toContainText('Connected');
  } finally {
    await stopApp(app);
  }
});

test('an owner pairs with a mailbox of their own on the Connection screen: each step says what is missing', async ({
  page,
  app,
}) => {
  // A real mailbox program on loopback (plain http is allowed for a mailbox on this computer only).
  const dir = mkdtempSync(join(tmpdir(), 'innkeeper-e2e-mailbox-'));
  const mailbox = await startMailbox({ dataDir: dir, port: 0 });
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(app.url);
    await expect(page.locator('html')).toHaveAttribute('data-events', 'open');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connection' }).click();
    const section = page.getByTestId('mailbox-section');
    await expect(section.getByTestId('mailbox-no-password')).toContainText('Choose the password Su will use first');
    await section.getByTestId('mailbox-url').fill(mailbox.url);
    await section.getByTestId('mailbox-code').fill(mailbox.pairingCode!);
    await expect(section.getByTestId('mailbox-pair')).toBeDisabled();
    expect(await violations(page, '[data-testid="mailbox-section"]')).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/mailbox-pair-form.png`, animations: 'disabled' });
    await page.setViewportSize({ width: 1024, height: 680 });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/mailbox-pair-form-1024.png`, animations: 'disabled' });

    // The password for Su, under Receiving: the warning goes.
    await page.getByRole('button', { name: 'Generate' }).click();
    const password = await page.locator('#pushPasswordCopy').inputValue();
    await page.getByRole('button', { name: 'Save receiving settings' }).click();
    await expect(section.getByTestId('mailbox-no-password')).toHaveCount(0);

    // A wrong code: refused under the code, with the tries left.
    await section.getByTestId('mailbox-code').fill('ZZZZ-ZZZZ-ZZZZ');
    await section.getByTestId('mailbox-pair').click();
    await expect(section.getByTestId('mailbox-code-error')).toContainText('4 more tries before it stops working');

    // The right one: paired, connected, and exactly what to register with Su.
    await section.getByTestId('mailbox-code').fill(mailbox.pairingCode!);
    await section.getByTestId('mailbox-pair').click();
    await expect(section.getByTestId('mailbox-state')).toContainText('Connected');
    await expect(section.locator('#mailboxPushUrl')).toHaveValue(`${mailbox.url}/push`);
    await expect(section.locator('#mailboxPushUser')).toHaveValue('su-partner');
    await expect(section.getByTestId('mailbox-unpair')).toBeVisible();
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/mailbox-paired-1024.png`, animations: 'disabled' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/mailbox-paired.png`, animations: 'disabled' });

    // Su delivers to the mailbox with those credentials: the message reaches the inbox.
    const answer = await fetch(`${mailbox.url}/push`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`su-partner:${password}`).toString('base64')}`,
      },
      body: JSON.stringify(airbnbMessage()),
    });
    expect(answer.status).toBe(200);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
    await expect(rows(page)).toHaveCount(1);
  } finally {
    await mailbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
