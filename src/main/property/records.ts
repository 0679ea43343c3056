import { codeAsWords } from '../../shared/su/common';
import { codeWords } from '../../shared/su/facilities';
import {
  DETAIL_TITLES,
  DETAIL_VALUE_WORDS,
  detailPlaceWords,
  DETAILS_LABELS,
  type DetailKind,
  emptyDetailsForm,
  type DetailsForm,
  facilityName,
  fieldOfPath,
  sameJson,
  type DetailsField,
  type FacilityEntry,
  type FacilityRecordEntry,
  type FieldChange,
  type PropertyPush,
  type PropertyUpdate,
  propertyTypeName,
} from '../../shared/property';

// Pure helpers of the property feature: the scope keys it stores by, and the field-by-field differences it shows.

/** Where a draft, record or push belongs: the details, or the facilities of the property ('') or of one room. */
export type Scope = { section: 'details' } | { section: 'facilities'; roomId: string | null };

export const scopeKey = (scope: Scope) =>
  scope.section === 'details' ? 'details' : `facilities:${scope.roomId ?? ''}`;

export function parseScope(key: string): Scope {
  if (key === 'details') return { section: 'details' };
  const roomId = key.slice('facilities:'.length);
  return { section: 'facilities', roomId: roomId || null };
}

/** Leaf values of an object by dotted path (`physical_address.city_name`); lists of plain values joined. */
export function flatten(value: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    if (value.length) out[prefix] = value.join(', ');
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => flatten(v, prefix ? `${prefix}.${i}` : String(i), out));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (value !== undefined && value !== null && value !== '') {
    out[prefix] = String(value);
  }
  return out;
}

/** Field by field, what a details request changes against the record Su confirmed (all of it when there is none). */
export function detailsChanges(record: PropertyUpdate | null, request: PropertyUpdate): FieldChange[] {
  const before = flatten(record ?? {});
  const after = flatten(request);
  const paths = [...new Set([...Object.keys(after), ...Object.keys(before)])].filter((p) => p !== 'hotel_id');
  return paths
    .filter((p) => before[p] !== after[p])
    .map((path) => ({
      path,
      label: DETAILS_LABELS[fieldOfPath(path) as DetailsField] ?? codeAsWords(path.replace(/\./g, ' ')),
      before: detailsValueWords(path, before[path]),
      after: detailsValueWords(path, after[path]),
    }));
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
/** A name from Intl for a code, with the code beside it ("Danish (da)"); the code alone when Intl has none. */
const named = (names: Intl.DisplayNames, code: string) => {
  try {
    const name = names.of(code);
    return name ? `${name} (${code})` : code;
  } catch {
    return code;
  }
};

/** A details value in the owner's words: the kind of property by its name, the target, yes or no, languages. */
function detailsValueWords(path: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  switch (path) {
    case 'property_category': {
      const name = propertyTypeName(value);
      return name ? `${name} (${value})` : value;
    }
    case 'target':
      return value === 'production' ? 'Ready for guests' : value === 'test' ? 'Test property' : value;
    case 'physical_address.display_address':
      return value === 'true' ? 'Yes' : value === 'false' ? 'No' : value;
    case 'physical_address.country_code':
      return named(regionNames, value);
    case 'primary_language':
    case 'translations.language_code':
      return named(languageNames, value);
    case 'languages_spoken':
      return value
        .split(', ')
        .map((code) => named(languageNames, code))
        .join(', ');
    default:
      return value;
  }
}

const yesNo = (v: boolean | undefined) => (v === undefined ? null : v ? 'available' : 'not available');

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const two = (n: unknown) => String(n).padStart(2, '0');
/** {hours: 9, minutes: 0} → "09:00"; anything else as it is. */
const clock = (c: unknown) => {
  const t = c as { hours?: unknown; minutes?: unknown } | null;
  return typeof t?.hours === 'number' && typeof t.minutes === 'number' ? `${two(t.hours)}:${two(t.minutes)}` : '?';
};
/** {epoch_seconds} → "1 Dec 2026" (the day Booking.com takes it for, at UTC midnight). */
const date = (d: unknown) => {
  const s = (d as { epoch_seconds?: unknown } | null)?.epoch_seconds;
  return typeof s === 'number' ? day.format(s * 1000) : '?';
};
/** A value of a detail object in words: codes by their words, lists joined. */
const valueWords = (v: unknown): string | null => {
  if (v === undefined || v === null || v === '') return null;
  if (Array.isArray(v)) return v.length ? v.map((x) => valueWords(x) ?? '').join(', ') : null;
  if (typeof v === 'string') return /^[A-Z][A-Z0-9_]*$/.test(v) ? codeWords(v) : v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
};

/**
 * An instance's details as lines in the owner's words, each under a key of its own for comparing two versions:
 * "Who may park" → "Guests only", "Opening hours" → "Monday 09:00–17:00", "Temporarily closed" → "1 Dec 2026 to 5 Dec
 * 2026".
 */
export function detailLines(details: Record<string, unknown>): { key: string; label: string; value: string }[] {
  const lines: { key: string; label: string; value: string }[] = [];
  for (const [kind, raw] of Object.entries(details)) {
    const title = DETAIL_TITLES[kind as DetailKind] ?? codeAsWords(kind);
    const detail = (raw ?? {}) as Record<string, unknown>;
    const before = lines.length;
    if (kind === 'schedule_details' && Array.isArray(detail.schedule)) {
      (detail.schedule as Record<string, unknown>[]).forEach((row, r) =>
        lines.push({
          key: `${kind}.${r}`,
          label: title,
          value: `${valueWords(row.day_of_week) ?? '?'} ${clock(row.from)}–${clock(row.to)}`,
        }),
      );
    } else if (kind === 'temporarily_closed_details' && Array.isArray(detail.closed)) {
      (detail.closed as Record<string, unknown>[]).forEach((range, r) =>
        lines.push({
          key: `${kind}.${r}`,
          label: title,
          value: `${date(range.start_date)} to ${date(range.end_date)}`,
        }),
      );
    } else {
      const words = DETAIL_VALUE_WORDS[kind as DetailKind] ?? {};
      const flat = { ...flattenDetail(detail) };
      for (const [key, value] of Object.entries(flat)) {
        const shown = valueWords(value);
        if (shown !== null) lines.push({ key: `${kind}.${key}`, label: words[key] ?? codeAsWords(key), value: shown });
      }
    }
    if (lines.length === before) lines.push({ key: kind, label: title, value: 'included' });
  }
  return lines;
}

/** A detail object's values by key, one level of nesting (`wifi_info.network_name`); lists stay lists. */
function flattenDetail(detail: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(detail)) {
    if (v && typeof v === 'object' && !Array.isArray(v))
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>)) out[`${k}.${k2}`] = v2;
    else out[k] = v;
  }
  return out;
}

/** An instance in words: "instance 2 (“Garage”)", or "a new instance (“Garage”)". */
function instanceWords(n: number, isNew: boolean, details: Record<string, unknown>): string {
  const named = Object.values(details)
    .map((d) => (d as { name?: unknown } | null)?.name)
    .find((name): name is string => typeof name === 'string' && name.trim() !== '');
  return `${isNew ? 'new instance' : `instance ${n + 1}`}${named ? ` (“${named.trim()}”)` : ''}`;
}

/**
 * What a facilities draft changes against the record, in the owner's words: a facility's availability, and each
 * instance's values ("Parking, instance 1 (“Courtyard”): Who may park", "Guests only" → "Anyone (public parking)").
 * The path (`2.instances.0.parking_details.parking_access`) stays for the code; the owner never reads it.
 */
export function facilityChanges(record: FacilityRecordEntry[], draft: FacilityEntry[]): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const entry of draft) {
    const name = facilityName(entry.facilityId);
    const was = record.find((r) => r.facilityId === entry.facilityId);
    if (!was || was.isAvailable !== entry.isAvailable)
      changes.push({
        path: `${entry.facilityId}.is_available`,
        label: name,
        before: yesNo(was?.isAvailable),
        after: yesNo(entry.isAvailable),
      });
    entry.instances.forEach((instance, n) => {
      const old = was?.instances.find((i) => i.key === instance.key);
      if (old && old.instanceId === instance.instanceId && sameJson(old.details, instance.details)) return;
      const which = `${name}, ${instanceWords(n, !old, instance.details)}`;
      const oldId = old?.instanceId ?? null;
      if (oldId !== instance.instanceId)
        changes.push({
          path: `${entry.facilityId}.instances.${n}.instance_id`,
          label: `${which}: id at Booking.com`,
          before: oldId,
          after: instance.instanceId,
        });
      const before = new Map(detailLines(old?.details ?? {}).map((l) => [l.key, l]));
      const after = new Map(detailLines(instance.details).map((l) => [l.key, l]));
      const keys = [...new Set([...after.keys(), ...before.keys()])];
      for (const key of keys.filter((k) => before.get(k)?.value !== after.get(k)?.value))
        changes.push({
          path: `${entry.facilityId}.instances.${n}.${key}`,
          label: `${which}: ${(after.get(key) ?? before.get(key))!.label}`,
          before: before.get(key)?.value ?? null,
          after: after.get(key)?.value ?? null,
        });
      if (!old && keys.length === 0 && !instance.instanceId)
        changes.push({ path: `${entry.facilityId}.instances.${n}`, label: which, before: null, after: 'added' });
    });
  }
  return changes;
}

/**
 * Changes as History shows them: a push recorded by an earlier version kept Su's codes and request paths in its
 * rows ("ON_SITE", "schedule details.schedule.0.day of week"); they are read in words, as new ones are written.
 * Rows already in words stay as they are.
 */
export function changesInWords(section: 'details' | 'facilities', changes: FieldChange[]): FieldChange[] {
  if (section === 'details')
    return changes.map((c) => ({
      ...c,
      before: c.before === null ? null : detailsValueWords(c.path, c.before),
      after: c.after === null ? null : detailsValueWords(c.path, c.after),
    }));
  const codes = (v: string | null) =>
    v !== null && /^[A-Z][A-Z0-9_]*(, [A-Z][A-Z0-9_]*)*$/.test(v) ? v.split(', ').map(codeWords).join(', ') : v;
  return changes.map((c) => {
    // An earlier version's row: "Parking · instance 1: parking location" (the words now are "Parking, instance 1: …").
    if (!c.label.includes(' · ')) return c;
    const m = /^(\d+)\.instances\.(\d+)\.(.+)$/.exec(c.path);
    const label =
      m && m[3] !== 'instance_id'
        ? `${facilityName(m[1]!)}, instance ${Number(m[2]) + 1}: ${detailPlaceWords(m[3]!)}`
        : c.label;
    return { ...c, label, before: codes(c.before), after: codes(c.after) };
  });
}

/** A record without what only the app knows about it (when an instance was created): the draft it stands for. */
export const draftOfRecord = (record: FacilityRecordEntry[]): FacilityEntry[] =>
  record.map((f) => ({
    facilityId: f.facilityId,
    isAvailable: f.isAvailable,
    instances: f.instances.map((i) => ({ key: i.key, instanceId: i.instanceId, details: i.details })),
  }));

/**
 * The record a facilities push leaves once Su confirmed it: the draft's facilities that changed replace the
 * record's, instances keep when they were created, and new ones are created now.
 */
export function facilitiesAfter(
  record: FacilityRecordEntry[],
  draft: FacilityEntry[],
  sentFacilityIds: Set<string>,
): FacilityRecordEntry[] {
  const after = record.map((f) => ({ ...f, instances: [...f.instances] }));
  for (const entry of draft) {
    if (!sentFacilityIds.has(entry.facilityId)) continue;
    const was = record.find((r) => r.facilityId === entry.facilityId);
    const instances: FacilityRecordEntry['instances'] = entry.instances
      // An instance changed without an id was not sent: the record keeps it as it was.
      .map((i) => {
        const old = was?.instances.find((o) => o.key === i.key);
        if (old && !i.instanceId && !(sameJson(old.details, i.details) && old.instanceId === i.instanceId)) return old;
        return { ...i, createdAt: old ? old.createdAt : null };
      });
    // Su cannot remove an instance: one the draft left out is still held, and still tracked.
    for (const old of was?.instances ?? []) if (!instances.some((i) => i.key === old.key)) instances.push(old);
    const next: FacilityRecordEntry = { facilityId: entry.facilityId, isAvailable: entry.isAvailable, instances };
    const at = after.findIndex((f) => f.facilityId === entry.facilityId);
    if (at >= 0) after[at] = next;
    else after.push(next);
  }
  return after;
}

/** Where each facility of a request came from in the draft: its index, and each of its instances' indexes. */
export type RequestSources = { facility: number; instances: number[] }[];

/**
 * A request path (`facilities.1.instances.0.parking_details.name`) as its place in the draft
 * (`3.instances.2.details.parking_details.name`), so a problem shows by the field the owner typed in; null for a
 * path outside the facilities.
 */
export function draftPathOf(path: string, sources: RequestSources): string | null {
  const m = /^facilities\.(\d+)(?:\.instances\.(\d+))?(?:\.(.*))?$/.exec(path.replace(/\[(\d+)\]/g, '.$1'));
  const source = m ? sources[Number(m[1])] : undefined;
  if (!m || !source) return null;
  if (m[2] === undefined) return `${source.facility}${m[3] ? `.${m[3]}` : ''}`;
  const instance = source.instances[Number(m[2])];
  if (instance === undefined) return `${source.facility}`;
  return `${source.facility}.instances.${instance}${m[3] ? (m[3] === 'instance_id' ? '.instanceId' : `.details.${m[3]}`) : ''}`;
}

/**
 * The draft that makes an earlier facilities record hold again: instances Su has now keep their ids, and a facility
 * the earlier record did not have becomes unavailable (Su cannot remove facilities or instances).
 */
export function revertedFacilities(then: FacilityRecordEntry[], current: FacilityRecordEntry[]): FacilityEntry[] {
  const list: FacilityEntry[] = then.map((f) => {
    const nowFacility = current.find((c) => c.facilityId === f.facilityId);
    const instances = f.instances.map((i) => {
      const nowInstance = nowFacility?.instances.find((c) => c.key === i.key);
      return { key: i.key, instanceId: nowInstance?.instanceId ?? i.instanceId, details: i.details };
    });
    for (const c of nowFacility?.instances ?? [])
      if (!instances.some((i) => i.key === c.key))
        instances.push({ key: c.key, instanceId: c.instanceId, details: c.details });
    return { facilityId: f.facilityId, isAvailable: f.isAvailable, instances };
  });
  for (const c of current)
    if (!then.some((f) => f.facilityId === c.facilityId)) list.push({ ...draftOfRecord([c])[0]!, isAvailable: false });
  return list;
}

/** Su's answer as History shows it. */
export function answerOf(result: unknown): NonNullable<PropertyPush['answer']> {
  const r = (result ?? {}) as { message?: unknown; ruid?: unknown; propertyId?: unknown };
  return {
    message: typeof r.message === 'string' ? r.message : 'Confirmed by Su',
    ruid: typeof r.ruid === 'string' ? r.ruid : null,
    propertyId: typeof r.propertyId === 'string' ? r.propertyId : null,
  };
}

/** Instance ids Su returned for created instances, when it returns any: `[{facility_id, instance_id}]` in order. */
export function returnedIds(result: unknown): { facilityId: string; instanceId: string }[] {
  const data = (result as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return [];
  return data.flatMap((d) => {
    const o = d as { facility_id?: unknown; instance_id?: unknown };
    return o && o.facility_id != null && o.instance_id != null
      ? [{ facilityId: String(o.facility_id), instanceId: String(o.instance_id) }]
      : [];
  });
}

/** The form to start from when Su never confirmed a record: what the app already knows of the property. */
export function firstDetailsForm(setup: { name: string; roomIds: string[] } | null): DetailsForm {
  const form = emptyDetailsForm();
  if (setup) {
    form.property_name = setup.name;
    if (setup.roomIds.length) form.room_count = String(setup.roomIds.length);
  }
  return form;
}
