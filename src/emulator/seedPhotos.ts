import type { EmulatorState, StoredImage } from './state';

/** The demo's photos already held at Su: drawn here (no image files to ship), as JPEGs of a realistic size. */
const SCENES = [
  { key: 'outside', name: 'The house from the street', sky: '#9cc7e8', ground: '#7a9a5b', body: '#e9d8b4' },
  { key: 'room', name: 'Bedroom with a view', sky: '#f3e7d3', ground: '#b98b5e', body: '#ffffff' },
  { key: 'breakfast', name: 'Breakfast table', sky: '#fbe9c6', ground: '#8c5a3c', body: '#f6c453' },
] as const;

function scene(title: string, s: (typeof SCENES)[number]): string {
  const safe = title.replace(/[<>&"]/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1067" viewBox="0 0 1600 1067">
  <rect width="1600" height="700" fill="${s.sky}"/>
  <rect y="700" width="1600" height="367" fill="${s.ground}"/>
  <rect x="460" y="360" width="680" height="420" rx="12" fill="${s.body}" stroke="#5b4636" stroke-width="8"/>
  <polygon points="420,380 800,150 1180,380" fill="#a0522d" stroke="#5b4636" stroke-width="8"/>
  <rect x="740" y="560" width="120" height="220" fill="#6b4f3a"/>
  <rect x="540" y="460" width="130" height="110" fill="#cfe8f7" stroke="#5b4636" stroke-width="6"/>
  <rect x="930" y="460" width="130" height="110" fill="#cfe8f7" stroke="#5b4636" stroke-width="6"/>
  <text x="800" y="960" font-family="sans-serif" font-size="64" text-anchor="middle" fill="#ffffff">${safe}</text>
</svg>`;
}

/** Draws one of the seeded photos (an SVG of the emulator's own) as a JPEG. */
export type DrawPhoto = (svg: string) => Promise<Buffer>;

/**
 * With sharp in this process: the emulator run on its own. The app's demo hands the drawing to its image reader's
 * process instead (startEmulator's `drawPhoto`), so that sharp never loads into the core.
 */
export const drawWithSharp: DrawPhoto = async (svg) => {
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
};

/** Each state's drawing of its seeded photos: how to start it, and the drawing once started. */
const drawings = new WeakMap<EmulatorState, () => Promise<void>>();
const drawing = new WeakMap<EmulatorState, Promise<void>>();

/**
 * Gives each active property a few photos already held at Su (fetched and associated: two with the property, one
 * with its first room), so that the demo's Photos tab shows what Su holds from the first start. The images are there
 * at once; their bytes are drawn by the function returned (with `drawPhoto`), one after the other, when something first
 * reads them (a few hundred ms of sharp and font set-up; not at start: in a process that draws them itself, sharp,
 * libvips and their fonts then stay in its memory, about 100 MiB of an idle core, bench/RESULTS.md "The core at
 * rest"). Whatever reads the bytes waits for `photosDrawn` first. A drawing that
 * fails leaves its image `failed`, as a fetch Su could not make. On a `restored` state (persistence.ts) nothing is
 * added: only the seeded photos whose bytes were not drawn before that run ended are drawn.
 */
export function seedPhotos(
  state: EmulatorState,
  restored = false,
  drawPhoto: DrawPhoto = drawWithSharp,
): () => Promise<void> {
  const toDraw: { image: StoredImage; svg: string }[] = [];
  for (const property of state.properties.filter((p) => p.active)) {
    const held = state.images.get(property.hotelid) ?? [];
    for (const [i, s] of SCENES.entries()) {
      const source_url = `https://photos.example-pms.com/${property.hotelid.toLowerCase()}/${s.key}.jpg`;
      if (restored) {
        // A state kept from an earlier run holds them already: only a copy not drawn then is drawn now.
        const kept = held.find((h) => h.source_url === source_url && h.fetch?.state === 'ok' && !h.fetch.bytes);
        if (kept) toDraw.push({ image: kept, svg: scene(property.name, s) });
        continue;
      }
      const room = i === 1 ? property.rooms[0]?.roomid : undefined;
      const image: StoredImage = {
        imageid: state.nextId('image'),
        pms_imageid: '',
        image_name: s.name,
        source_url,
        property: room === undefined,
        rooms: new Set(room ? [room] : []),
        fetch: {
          state: 'ok',
          error: null,
          at: new Date(state.now()).toISOString(),
          bytes: null,
          contentType: 'image/jpeg',
        },
      };
      held.push(image);
      toDraw.push({ image, svg: scene(property.name, s) });
    }
    state.images.set(property.hotelid, held);
  }
  const draw = async () => {
    for (const { image, svg } of toDraw) {
      try {
        const bytes = await drawPhoto(svg);
        if (image.fetch) image.fetch.bytes = bytes;
      } catch (error) {
        image.fetch = {
          state: 'failed',
          error: String(error),
          at: image.fetch?.at ?? null,
          bytes: null,
          contentType: null,
        };
      }
    }
    if (toDraw.length) state.changed();
  };
  /** Started at the latest by the first reader. */
  const start = () => {
    let running = drawing.get(state);
    if (!running) drawing.set(state, (running = draw()));
    return running;
  };
  drawings.set(state, start);
  return start;
}

/** Resolves once the seeded photos' bytes are drawn (at once when none were seeded); starts the drawing if needed. */
export function photosDrawn(state: EmulatorState): Promise<void> {
  return drawings.get(state)?.() ?? Promise.resolve();
}

/** Whether the drawing was started (by a reader of the bytes): the demo's idle core never loads sharp otherwise. */
export function photosDrawingStarted(state: EmulatorState): boolean {
  return drawing.has(state);
}

/** The drawing under way, if it started: what a stopping emulator waits for (it does not start one). */
export function photosDrawing(state: EmulatorState): Promise<void> {
  return drawing.get(state) ?? Promise.resolve();
}
