import type { Page } from '@playwright/test';

/** Drops files on the Photos tab, as dragging them from the desktop does. */
export async function drop(page: Page, files: { name: string; bytes: Buffer }[]) {
  const transfer = await page.evaluateHandle(
    (list) => {
      // In the page (browser globals), not in Node.
      const browser = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
      };
      const dt = new browser.DataTransfer();
      for (const f of list) {
        const bytes = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
        dt.items.add(new browser.File([bytes], f.name, { type: 'image/jpeg' }));
      }
      return dt;
    },
    files.map((f) => ({ name: f.name, b64: f.bytes.toString('base64') })),
  );
  const tab = page.getByTestId('photos-tab');
  await tab.dispatchEvent('dragenter', { dataTransfer: transfer });
  await tab.dispatchEvent('dragover', { dataTransfer: transfer });
  await tab.dispatchEvent('drop', { dataTransfer: transfer });
}
