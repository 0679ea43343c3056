import { startApp, stopApp, expect, test } from './app';
import { closeToasts } from './inboxPage';

const shots = 'test-results/screenshots';
const rows = (page: import('@playwright/test').Page) => page.getByTestId('thread-row');

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
