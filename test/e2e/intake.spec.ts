import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, startApp, stopApp, test } from './app';

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const shots = 'test-results/screenshots';

test('the owner sees where messages arrive, generates credentials for Su and saves them', async ({ page }) => {
  // A data folder whose saved settings put the listener on a free port (an environment variable would lock the field).
  const dataDir = mkdtempSync(join(tmpdir(), 'innkeeper-e2e-'));
  const [first, second] = [await freePort(), await freePort()];
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ push: { port: first } }));
  const app = await startApp({ INNKEEPER_PUSH_PORT: '' }, dataDir);
  test.info().attach('ports', { body: `${first} ${second}` });
  try {
    await page.goto(app.url);
    // The app's first screen first: a hash changed before its router has taken the start was overridden by it (the
    // inbox stayed open on a loaded CI run).
    await expect(page.getByRole('heading', { name: 'Inbox', level: 1 })).toBeVisible();
    await page.goto(new URL('#/connection', page.url()).toString());
    const listening = page.getByTestId('intake-listening');
    await expect(listening).toContainText(/Listening on this computer at http:\/\/127\.0\.0\.1:\d+\/push/);
    await expect(
      page.getByText('The built-in demo provider delivers its messages and reviews here automatically.'),
    ).toBeVisible();

    // Bad values are named next to their fields, before anything is saved.
    await page.getByLabel('Port on this computer').fill('80');
    await page.getByText('My own public address').click();
    await page.getByLabel('Your public address', { exact: true }).fill('http://inn.example.com/push');
    await page.getByRole('button', { name: 'Save receiving settings' }).click();
    await expect(page.locator('#pushPort-error')).toContainText('1024');
    await expect(page.locator('#pushPublicUrl-error')).toContainText('https://');

    await page.getByLabel('Your public address', { exact: true }).fill('https://inn.example.com/push');
    await expect(listening).toContainText(`:${first}/push`);
    await page.getByLabel('Port on this computer').fill(String(second));
    await page.getByRole('button', { name: 'Generate' }).click();
    const generated = await page.getByLabel('Password for Su').inputValue();
    expect(generated.length).toBeGreaterThanOrEqual(16);
    await expect(page.getByLabel('the new password', { exact: true })).toHaveValue(generated);
    await page.getByRole('button', { name: 'Save receiving settings' }).click();
    await expect(page.getByText('Saved; the listener restarted.')).toBeVisible();
    await expect(page.getByLabel('the address for Su', { exact: true })).toHaveValue('https://inn.example.com/push');
    // The saved password is never sent back to the page: only that one is set.
    await expect(page.getByLabel('Password for Su')).toHaveValue('');
    await expect(page.getByLabel('Password for Su')).toHaveAttribute('placeholder', 'Saved — type to replace');
    // The listener moved to the new port.
    await expect(listening).toContainText(`:${second}/push`);
    // Choosing the tunnel without an authtoken is refused next to the authtoken field.
    await page.getByText('A tunnel through ngrok').click();
    await page.getByRole('button', { name: 'Save receiving settings' }).click();
    await expect(page.locator('#tunnelAuthtoken-error')).toContainText('authtoken');
    await page.getByTestId('intake-listening').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/connection-receiving.png`, animations: 'disabled' });

    // Something Su sends that fits no kind is acknowledged, kept, and shown here.
    const odd = await fetch(`http://127.0.0.1:${second}/push`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`su-partner:${generated}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: '{"event":"listing_updated"}',
    });
    expect(odd.status).toBe(200);
    await page.reload();
    await expect(page.getByTestId('intake-quarantined')).toContainText('1 delivery was received but not understood');
    await page.getByRole('button', { name: 'Show them' }).click();
    await expect(page.getByTestId('quarantine-list')).toContainText('{"event":"listing_updated"}');
    await page.getByTestId('intake-quarantined').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/connection-quarantine.png`, animations: 'disabled' });
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByTestId('quarantine-list').locator('li')).toHaveCount(0);
  } finally {
    await stopApp(app);
  }
});

test('a demo whose port another program holds listens on a free port, says so, and its messages arrive', async ({
  page,
}) => {
  // Another program on the port the settings choose.
  const other: Server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const taken = (other.address() as { port: number }).port;
  const dataDir = mkdtempSync(join(tmpdir(), 'innkeeper-e2e-'));
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ push: { port: taken } }));
  const app = await startApp({ INNKEEPER_PUSH_PORT: '', INNKEEPER_DEMO_INBOX: '1' }, dataDir);
  try {
    // Said in the start-up lines too.
    await expect
      .poll(() => app.output())
      .toContain(`Port ${taken} is taken by another program, so the demo listens on`);
    await page.goto(app.url);
    // The demo's sample inbox arrived (through the demo's own mailbox; the listener stands by on its free port).
    await expect(page.getByTestId('thread-row').first()).toBeVisible();
    await page.goto(new URL('#/connection', page.url()).toString());
    const note = page.getByTestId('intake-port-note');
    await expect(note).toContainText(`Port ${taken} is taken by another program, so the demo listens on port`);
    await expect(page.getByTestId('intake-listening')).not.toContainText(`:${taken}/push`);
    // The field keeps the port set: the one a real account receives on.
    await expect(page.getByLabel('Port on this computer')).toHaveValue(String(taken));
    for (const [width, height] of [
      [1280, 800],
      [1024, 680],
    ] as const) {
      await page.setViewportSize({ width, height });
      await note.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/connection-demo-port-${width}.png`, animations: 'disabled' });
    }
  } finally {
    await stopApp(app);
    await new Promise((resolve) => other.close(resolve));
  }
});
