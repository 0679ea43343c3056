import type { Photo, PhotoAssignments, PhotoAssociation, PhotoCheck, PhotoUpload } from '@shared/photos';
import { formatDateTime } from '@renderer/lib/format';

/** What the grid shows: every photo, those of the property, or those of one room (by its id). */
export type PhotoFilter = { kind: 'all' } | { kind: 'property' } | { kind: 'room'; roomId: string };

export function filterPhotos(photos: Photo[], filter: PhotoFilter): Photo[] {
  if (filter.kind === 'all') return photos;
  if (filter.kind === 'property') return photos.filter((p) => p.assignments.property);
  return photos.filter((p) => p.assignments.rooms.includes(filter.roomId));
}

/** Where a photo added under a filter goes at once: the room on screen, else the property. */
export function assignmentsFor(filter: PhotoFilter): PhotoAssignments {
  return filter.kind === 'room' ? { property: false, rooms: [filter.roomId] } : { property: true, rooms: [] };
}

/**
 * Whether "Upload to Su" takes the photo: never sent, its upload discarded, Su could not fetch it, or Su holds it
 * but a place it was assigned to since is not linked yet (sending it again replaces it and links every place).
 */
export function needsUpload(photo: Photo): boolean {
  const u = photo.upload;
  if (u === null || u.state === 'discarded' || u.state === 'not-fetched') return true;
  return u.state === 'held' && photo.associations.some((a) => a.state === 'local');
}

const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
/** "14:02" today, else the date too. */
export function formatWhen(ms: number, now = Date.now()): string {
  return new Date(ms).toDateString() === new Date(now).toDateString() ? time.format(ms) : formatDateTime(ms);
}

export type Tone = 'quiet' | 'busy' | 'good' | 'danger' | 'unsure';

/** A state in the owner's words: a short label, an optional line under it, and how it looks. */
export interface StateWords {
  label: string;
  detail: string | null;
  tone: Tone;
  icon: string;
}

/** Why retrying an upload whose outcome nobody knows does no harm. */
export const SAFE_RETRY =
  'Retrying is safe: the photo keeps its id at Su, so sending it again replaces that image instead of adding another.';

/** A photo's upload (null: never uploaded) in plain words. */
export function uploadWords(upload: PhotoUpload | null, now = Date.now()): StateWords {
  if (!upload) return { label: 'Not at Su yet', detail: null, tone: 'quiet', icon: 'pi pi-cloud-upload' };
  switch (upload.state) {
    case 'queued':
      return { label: 'Queued', detail: 'Waits until Su is reachable.', tone: 'quiet', icon: 'pi pi-clock' };
    case 'sending':
      return { label: 'Sending to Su…', detail: null, tone: 'busy', icon: 'pi pi-spin pi-spinner' };
    case 'failed':
      if (upload.error?.outcomeUnknown)
        return {
          label: 'Su may or may not have it',
          detail: `${upload.error.message} ${SAFE_RETRY}`,
          tone: 'unsure',
          icon: 'pi pi-question-circle',
        };
      return {
        label: 'Not sent',
        detail: upload.error?.message ?? 'Su refused it.',
        tone: 'danger',
        icon: 'pi pi-times-circle',
      };
    case 'fetching':
      return {
        label: upload.fetchedAt ? `Su fetched it at ${formatWhen(upload.fetchedAt, now)}` : 'Su is fetching it…',
        detail: upload.fetchedAt ? 'Checking Su’s copy…' : null,
        tone: 'busy',
        icon: 'pi pi-spin pi-spinner',
      };
    case 'held':
      return {
        label: 'At Su',
        detail: upload.fetchedAt ? `Su fetched it at ${formatWhen(upload.fetchedAt, now)}.` : null,
        tone: 'good',
        icon: 'pi pi-check-circle',
      };
    case 'not-fetched':
      return {
        label: 'Su could not fetch this photo',
        detail: upload.problem,
        tone: 'danger',
        icon: 'pi pi-exclamation-triangle',
      };
    case 'discarded':
      return { label: 'Upload discarded', detail: 'Nothing was sent.', tone: 'quiet', icon: 'pi pi-ban' };
  }
}

/** One assignment's state at Su, in a word or two. */
export function associationWords(a: PhotoAssociation): StateWords {
  const detail = a.error?.message ?? null;
  switch (a.state) {
    case 'local':
      return { label: 'not sent yet', detail, tone: 'quiet', icon: 'pi pi-circle' };
    case 'queued':
      return { label: 'queued', detail, tone: 'quiet', icon: 'pi pi-clock' };
    case 'sending':
      return { label: 'sending…', detail, tone: 'busy', icon: 'pi pi-spin pi-spinner' };
    case 'sent':
      return { label: 'linked at Su', detail, tone: 'good', icon: 'pi pi-check' };
    case 'failed':
      return a.error?.outcomeUnknown
        ? { label: 'unknown', detail: `${detail ?? ''} ${SAFE_RETRY}`.trim(), tone: 'unsure', icon: 'pi pi-question' }
        : { label: 'not linked', detail, tone: 'danger', icon: 'pi pi-times' };
    case 'discarded':
      return { label: 'discarded', detail, tone: 'quiet', icon: 'pi pi-ban' };
  }
}

/** A scope's name: the property, or a room by its name from Rooms & rate plans ("Room DBL" when it has none). */
export function scopeName(roomId: string | null, rooms: { id: string; name: string }[]): string {
  if (roomId === null) return 'The property';
  return rooms.find((r) => r.id === roomId)?.name || `Room ${roomId}`;
}

/** Some channels and what they miss (nothing: `texts` is empty). */
export interface CheckGroup {
  channels: PhotoCheck['channel'][];
  texts: string[];
}

/**
 * One scope's checks in groups: each thing missing said once, under the channels that miss it ("Assign photos to
 * this room." for Booking.com and Airbnb together), then the channels that miss nothing.
 */
export function checkGroups(checks: PhotoCheck[]): CheckGroup[] {
  const byText = new Map<string, PhotoCheck['channel'][]>();
  for (const check of checks)
    for (const text of check.missing) byText.set(text, [...(byText.get(text) ?? []), check.channel]);
  const groups: CheckGroup[] = [];
  for (const [text, channels] of byText) {
    const group = groups.find((g) => g.channels.join() === channels.join());
    if (group) group.texts.push(text);
    else groups.push({ channels, texts: [text] });
  }
  const ok = checks.filter((c) => c.ok).map((c) => c.channel);
  if (ok.length) groups.push({ channels: ok, texts: [] });
  return groups;
}

/** The checks by scope (the property first, then the rooms in their order), each with its channels. */
export function checksByScope(checks: PhotoCheck[]): { roomId: string | null; checks: PhotoCheck[] }[] {
  const scopes: { roomId: string | null; checks: PhotoCheck[] }[] = [];
  for (const check of checks) {
    let scope = scopes.find((s) => s.roomId === check.roomId);
    if (!scope) scopes.push((scope = { roomId: check.roomId, checks: [] }));
    scope.checks.push(check);
  }
  return scopes.sort((a, b) => Number(a.roomId !== null) - Number(b.roomId !== null));
}
