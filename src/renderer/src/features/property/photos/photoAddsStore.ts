import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { PhotoAssignments } from '@shared/photos';
import { api } from '@renderer/api';
import { chunkRanges, readChunk, refuseBeforeSending } from './photoFiles';
import { usePhotosStore } from './photosStore';

/** A file on its way into the library: waiting its turn, its bytes going, the core reading it, or not added (why). */
export interface PhotoAdd {
  key: number;
  hotelId: string;
  fileName: string;
  bytes: number;
  /** Bytes the core has received. */
  sent: number;
  state: 'waiting' | 'sending' | 'reading' | 'failed';
  /** Why the file was not added, naming it when the refusal is the app's own. */
  error: string | null;
}

/**
 * Adding files to a property's library: each file goes to the core in chunks (start → chunks → finish), one file
 * at a time, with its progress; a file the core cannot read stays listed with the reason until the owner dismisses
 * it. The photo added appears in the grid at once.
 */
export const usePhotoAddsStore = defineStore('photoAdds', () => {
  const adds = ref<PhotoAdd[]>([]);
  const files = new Map<number, File>();
  const cancelled = new Set<number>();
  const assignments = new Map<number, PhotoAssignments>();
  let nextKey = 1;
  let running = false;

  const row = (key: number) => adds.value.find((a) => a.key === key);
  const patch = (key: number, change: Partial<PhotoAdd>) => {
    const r = row(key);
    if (r) Object.assign(r, change);
  };
  const drop = (key: number) => {
    adds.value = adds.value.filter((a) => a.key !== key);
    files.delete(key);
    assignments.delete(key);
  };

  /** Takes files in for a property: refused at once when too large or not an image, else queued to be sent. */
  function add(hotelId: string, list: File[], where: PhotoAssignments): void {
    for (const file of list) {
      const key = nextKey++;
      const refusal = refuseBeforeSending(file);
      adds.value.push({
        key,
        hotelId,
        fileName: file.name,
        bytes: file.size,
        sent: 0,
        state: refusal ? 'failed' : 'waiting',
        error: refusal,
      });
      if (refusal) continue;
      files.set(key, file);
      assignments.set(key, where);
    }
    void run();
  }

  async function run(): Promise<void> {
    if (running) return;
    running = true;
    try {
      for (let next = adds.value.find((a) => a.state === 'waiting'); next;) {
        await send(next.key);
        next = adds.value.find((a) => a.state === 'waiting');
      }
    } finally {
      running = false;
    }
  }

  async function send(key: number): Promise<void> {
    const add = row(key);
    const file = files.get(key);
    if (!add || !file) return drop(key);
    const fail = (message: string) => patch(key, { state: 'failed', error: message });
    patch(key, { state: 'sending' });
    const start = await api['photos.addStart']({
      hotelId: add.hotelId,
      fileName: file.name,
      bytes: file.size,
      assignments: assignments.get(key) ?? { property: true, rooms: [] },
    });
    if (!start.ok) return fail(start.error.message);
    for (const range of chunkRanges(file.size)) {
      if (cancelled.has(key)) return void (cancelled.delete(key), drop(key));
      let data: Uint8Array<ArrayBuffer>;
      try {
        data = await readChunk(file, range);
      } catch {
        return fail(`“${file.name}” could not be read from this computer’s disk.`);
      }
      const chunk = await api['photos.addChunk']({ uploadId: start.value.uploadId, offset: range.offset, data });
      if (!chunk.ok) return fail(chunk.error.message);
      patch(key, { sent: range.end });
    }
    patch(key, { state: 'reading' });
    const finish = await api['photos.addFinish']({ uploadId: start.value.uploadId });
    if (!finish.ok) return fail(finish.error.message);
    drop(key);
    usePhotosStore().replace(finish.value);
  }

  /** Stops a file: one waiting is taken off; one being sent stops after its current chunk. */
  function cancel(key: number): void {
    const add = row(key);
    if (!add) return;
    if (add.state === 'sending') cancelled.add(key);
    else if (add.state === 'waiting') drop(key);
  }

  return {
    adds,
    add,
    cancel,
    /** Takes a file that was not added off the list. */
    dismiss: drop,
    /** Whether any file is on its way (the tab says so before the owner leaves). */
    busy: computed(() => adds.value.some((a) => a.state !== 'failed')),
  };
});
