import {
  DETAILS_LABELS,
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
      label: DETAILS_LABELS[fieldOfPath(path) as DetailsField] ?? path,
      before: before[path] ?? null,
      after: after[path] ?? null,
    }));
}

const yesNo = (v: boolean | undefined) => (v === undefined ? null : v ? 'available' : 'not available');

/** What a facilities draft changes against the record: availability, and each instance's details by path. */
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
      const which = instance.instanceId
        ? `instance ${instance.instanceId}`
        : old
          ? `instance ${n + 1}`
          : 'new instance';
      const before = flatten(old?.details ?? {});
      const after = flatten(instance.details);
      if (old?.instanceId !== instance.instanceId)
        changes.push({
          path: `${entry.facilityId}.instances.${n}.instance_id`,
          label: `${name} · ${which}: id at Booking.com`,
          before: old?.instanceId ?? null,
          after: instance.instanceId,
        });
      const paths = [...new Set([...Object.keys(after), ...Object.keys(before)])];
      for (const path of paths.filter((p) => before[p] !== after[p]))
        changes.push({
          path: `${entry.facilityId}.instances.${n}.${path}`,
          label: `${name} · ${which}: ${path.replace(/_details\./, ' ').replace(/_/g, ' ')}`,
          before: before[path] ?? null,
          after: after[path] ?? null,
        });
      if (!old && paths.length === 0)
        changes.push({
          path: `${entry.facilityId}.instances.${n}`,
          label: `${name} · new instance`,
          before: null,
          after: 'added',
        });
    });
  }
  return changes;
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
