import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PhotosView } from '@shared/photos';
import type { PropertySetup } from '@shared/rateSetups';
import { ok } from '@shared/result';
import PhotosTab from '@renderer/features/property/photos/PhotosTab.vue';
import { usePhotosStore } from '@renderer/features/property/photos/photosStore';
import { usePropertyStore } from '@renderer/features/property/propertyStore';
import { installFakeApi, settle } from './fakeApi';
import { photo, upload, view } from './photoFixtures';

const setup: PropertySetup = {
  hotelId: 'H1',
  name: 'Harbour View',
  channels: ['19', '244'],
  rooms: [{ id: 'DBL', name: 'Double', inventory: 2, rates: [] }],
};

let pinia: Pinia;
afterEach(() => vi.unstubAllGlobals());
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  document.body.innerHTML = '';
});

async function mountTab(answers: Parameters<typeof installFakeApi>[0], v: PhotosView) {
  const core = installFakeApi({ 'photos.list': () => ok(v), ...answers });
  const property = usePropertyStore();
  property.properties = [setup];
  property.hotelId = 'H1';
  await usePhotosStore().open('H1');
  const wrapper = mount(PhotosTab, {
    global: {
      plugins: [PrimeVue, pinia],
      stubs: { RouterLink: { props: ['to'], template: '<a :href="to.path + to.hash"><slot /></a>' } },
    },
    attachTo: document.body,
  });
  await flushPromises();
  return { core, wrapper };
}
const q = (testid: string) => document.querySelector(`[data-testid="${testid}"]`);
const all = (testid: string) => [...document.querySelectorAll(`[data-testid="${testid}"]`)];

describe('the Photos tab', () => {
  it('shows each photo with its size, its marks (refused in red, advice in amber) and that its location was removed', async () => {
    const small = photo({
      id: 2,
      width: 700,
      height: 480,
      original: { format: 'heic', width: 700, height: 480, bytes: 9, hadLocation: true },
      marks: [
        { channel: 'Booking.com', refused: false, message: 'Smaller than Booking.com recommends (700×480).' },
        { channel: 'Airbnb', refused: true, message: 'Too small for Airbnb (700×480, under 800×500).' },
      ],
    });
    await mountTab({}, view({ photos: [photo(), small] }));
    const card = document.querySelector('[data-testid="photo-card"][data-photo-id="2"]')!;
    expect(card.querySelector('[data-testid="photo-size"]')!.textContent).toBe('700×480');
    expect(card.querySelector('[data-testid="photo-location-removed"]')!.textContent).toContain('location removed');
    const marks = [...card.querySelectorAll('[data-testid="photo-mark"]')];
    expect(marks.map((m) => [m.className.includes('refused'), m.textContent!.trim()])).toEqual([
      [false, 'Smaller than Booking.com recommends (700×480).'],
      [true, 'Too small for Airbnb (700×480, under 800×500).'],
    ]);
    const first = document.querySelector('[data-testid="photo-card"][data-photo-id="1"]')!;
    expect(first.querySelector('[data-testid="photo-location-removed"]')).toBeNull();
    expect((first.querySelector('[data-testid="photo-caption"]') as HTMLInputElement).value).toBe('Sea view');
  });

  it('without a way for Su to reach this computer, the upload says why and links to where to set it up', async () => {
    await mountTab(
      {},
      view({ reach: { baseUrl: null, reason: 'Su cannot reach this computer: no tunnel or public address is set.' } }),
    );
    const button = q('photos-upload') as HTMLButtonElement;
    expect(button.textContent).toContain('Upload to Su (1)');
    expect(button.disabled).toBe(true);
    expect(q('photos-reach-note')!.textContent).toContain('no tunnel or public address is set.');
    expect(q('photos-reach-link')!.getAttribute('href')).toBe('/connection#su-reach');
  });

  it('a failed upload says why with Retry and Discard, which go to the outbox by its id', async () => {
    const decided: unknown[] = [];
    await mountTab(
      { 'outbox.retry': (args: never) => (decided.push(args), ok({} as never)) },
      view({
        photos: [
          photo({
            upload: upload({
              state: 'failed',
              outboxId: 41,
              error: { code: 'timeout', message: 'Su did not answer in time.', outcomeUnknown: true },
            }),
          }),
        ],
      }),
    );
    const state = q('photo-upload-state')!;
    expect(state.getAttribute('data-state')).toBe('failed');
    expect(state.textContent).toContain('Su did not answer in time.');
    expect(state.textContent).toContain('Retrying is safe');
    expect(q('photo-upload-discard')).not.toBeNull();
    (q('photo-upload-retry') as HTMLButtonElement).click();
    await flushPromises();
    expect(decided).toEqual([{ id: 41 }]);
  });

  it('lists the checks by scope and channel, with a tick where nothing is missing', async () => {
    await mountTab(
      {},
      view({
        checks: [
          { roomId: null, channel: 'Booking.com', ok: true, missing: [] },
          { roomId: null, channel: 'Airbnb', ok: false, missing: ['Add 6 more photos of at least 800×500.'] },
          { roomId: 'DBL', channel: 'Booking.com', ok: false, missing: ['Assign photos to this room.'] },
        ],
      }),
    );
    const scopes = all('photo-check-scope').map((s) => [
      s.querySelector('h4')!.textContent!.trim(),
      s.getAttribute('data-ok'),
    ]);
    expect(scopes).toEqual([
      ['The property', 'false'],
      ['Double', 'false'],
    ]);
    const lines = all('photo-check').map((c) => [c.getAttribute('data-channels'), c.getAttribute('data-ok')]);
    expect(lines).toEqual([
      ['Airbnb', 'false'],
      ['Booking.com', 'true'],
      ['Booking.com', 'false'],
    ]);
    expect(lines).toHaveLength(3);
    expect(q('photo-checks')!.textContent).toContain('nothing missing');
    expect(q('photo-checks')!.textContent).toContain('Add 6 more photos of at least 800×500.');
  });

  it('shows what Su holds, also images added elsewhere, and says the reconcile’s failure once', async () => {
    const { core } = await mountTab(
      {},
      view({
        atSu: {
          checkedAt: Date.now(),
          images: [
            {
              imageId: 5,
              pmsImageId: 'ik-1',
              name: 'Sea view',
              suUrl: 's',
              sourceUrl: 'x',
              associated: true,
              photoId: 1,
            },
            {
              imageId: 6,
              pmsImageId: null,
              name: 'Lobby',
              suUrl: 's',
              sourceUrl: 'y',
              associated: false,
              photoId: null,
            },
          ],
        },
      }),
    );
    const rows = all('photos-at-su-row');
    expect(rows.map((r) => r.getAttribute('data-image-id'))).toEqual(['5', '6']);
    expect(rows[1]!.textContent).toContain('added elsewhere');
    expect(rows[1]!.textContent).toContain('not linked');
    (q('photos-reconcile') as HTMLButtonElement).click();
    await settle();
    core
      .pending('photos.reconcile')[0]!
      .answer(ok(view({ atSuError: { code: 'network', message: 'Su is not reachable.' } })));
    await flushPromises();
    expect(all('photos-at-su-error')).toHaveLength(1);
    expect(q('photos-at-su-error')!.textContent).toContain('Su is not reachable.');
  });

  it('an image whose copy cannot be had says why, and is asked again when the photos open again: never a spinner', async () => {
    const atSu = {
      checkedAt: Date.now(),
      images: [
        { imageId: 7, pmsImageId: null, name: 'Garden', suUrl: 's', sourceUrl: 'y', associated: true, photoId: null },
      ],
    };
    // Every thumbnail is on screen at once (as with no IntersectionObserver: each asks as it is drawn).
    vi.stubGlobal('IntersectionObserver', undefined);
    const { core } = await mountTab({}, view({ atSu }));
    const thumb = () => document.querySelector('[data-testid="photos-at-su-row"] .thumb')!;
    const asked = core.pending('photos.suThumbnail');
    expect(asked.map((c) => c.args)).toEqual([{ hotelId: 'H1', imageId: 7 }]);
    expect(thumb().getAttribute('data-state')).toBe('loading');
    asked[0]!.answer({
      ok: false,
      error: { code: 'not_found', message: 'Su’s copy of this image does not answer, so there is no preview.' },
    });
    await flushPromises();
    expect(thumb().getAttribute('data-state')).toBe('failed');
    expect(q('photos-at-su-no-copy')!.textContent).toBe(
      'Su’s copy of this image does not answer, so there is no preview.',
    );

    // The photos open again (as after the app came back): the thumbnail on screen is asked for again, not left waiting.
    await usePhotosStore().open('H1');
    await flushPromises();
    const again = core.pending('photos.suThumbnail');
    expect(again).toHaveLength(1);
    expect(thumb().getAttribute('data-state')).toBe('loading');
    again[0]!.answer(ok({ dataUrl: 'data:image/jpeg;base64,AA==' }));
    await flushPromises();
    expect(thumb().getAttribute('data-state')).toBe('ready');
    expect(q('photos-at-su-no-copy')).toBeNull();
  });

  it('takes files dropped anywhere on the tab and images pasted, into the room on screen', async () => {
    const { core } = await mountTab({}, view());
    usePhotosStore().filter = { kind: 'room', roomId: 'DBL' };
    await flushPromises();
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    const file = new File([new Uint8Array(20)], 'dropped.jpg', { type: 'image/jpeg' });
    Object.defineProperty(drop, 'dataTransfer', { value: { types: ['Files'], files: [file] } });
    q('photos-none-here')!.dispatchEvent(drop);
    await settle();
    expect(core.pending('photos.addStart').map((c) => c.args)).toEqual([
      { hotelId: 'H1', fileName: 'dropped.jpg', bytes: 20, assignments: { property: false, rooms: ['DBL'] } },
    ]);
    expect(q('photo-add-progress')!.textContent).toContain('dropped.jpg');

    const paste = new Event('paste', { bubbles: true, cancelable: true });
    const image = new File([new Uint8Array(5)], 'image.png', { type: 'image/png' });
    Object.defineProperty(paste, 'clipboardData', { value: { files: [image] } });
    document.dispatchEvent(paste);
    await flushPromises();
    expect(all('photo-add-progress').map((r) => r.getAttribute('data-state'))).toEqual(['sending', 'waiting']);
  });
});
