import {
  ALL_DETAILS,
  checkFacilityRequest,
  DETAIL_TITLES,
  instanceIdProblem,
  KNOWN_FACILITIES,
  type DetailKind,
  type FacilityEntry,
  type FacilityInstance,
} from '@shared/property';

// The facilities draft, edited: every helper returns a new draft (the store saves it as it is), and the detail
// objects keep the request's own shape, so what the owner sees is what is sent.

export type { DetailKind };

/** The detail objects a facility takes: its known list, or every one the contract knows for an unknown id. */
export function detailKinds(facilityId: string): readonly DetailKind[] {
  return (KNOWN_FACILITIES[facilityId]?.details ?? ALL_DETAILS) as readonly DetailKind[];
}

/** The owner's words for each detail object. */
export const DETAIL_LABELS = DETAIL_TITLES;

/** A detail object as it starts: the lists empty, everything else for the owner to choose. */
export function emptyDetail(kind: DetailKind): Record<string, unknown> {
  switch (kind) {
    case 'temporarily_closed_details':
      return { closed: [{}] };
    case 'schedule_details':
      return { schedule: [] };
    case 'restaurant_details':
      return { name: '', meal_types_list: [], cuisines_list: [] };
    case 'swimming_pool_details':
      return { name: '' };
    case 'surcharge_details':
      return { surcharge_type: '' };
    default:
      return {};
  }
}

/** A new instance: a stable key of its own, no id at Booking.com yet, no details. */
export function newInstance(): FacilityInstance {
  return { key: crypto.randomUUID(), instanceId: null, details: {} };
}

const at = (draft: FacilityEntry[], i: number, change: (e: FacilityEntry) => FacilityEntry) =>
  draft.map((e, k) => (k === i ? change(e) : e));
const atInstance = (draft: FacilityEntry[], i: number, j: number, change: (x: FacilityInstance) => FacilityInstance) =>
  at(draft, i, (e) => ({ ...e, instances: e.instances.map((x, k) => (k === j ? change(x) : x)) }));

export const edit = {
  /** Adds a facility (available), or leaves the draft as it is when it is listed already. */
  addFacility(draft: FacilityEntry[], facilityId: string): FacilityEntry[] {
    if (draft.some((e) => e.facilityId === facilityId)) return draft;
    return [...draft, { facilityId, isAvailable: true, instances: [] }];
  },
  removeFacility: (draft: FacilityEntry[], i: number) => draft.filter((_, k) => k !== i),
  setAvailable: (draft: FacilityEntry[], i: number, isAvailable: boolean) =>
    at(draft, i, (e) => ({ ...e, isAvailable })),
  addInstance: (draft: FacilityEntry[], i: number) =>
    at(draft, i, (e) => ({ ...e, instances: [...e.instances, newInstance()] })),
  removeInstance: (draft: FacilityEntry[], i: number, j: number) =>
    at(draft, i, (e) => ({ ...e, instances: e.instances.filter((_, k) => k !== j) })),
  /** The id at Booking.com as typed (blank: none). */
  setInstanceId: (draft: FacilityEntry[], i: number, j: number, id: string) =>
    atInstance(draft, i, j, (x) => ({ ...x, instanceId: id.trim() ? id : null })),
  /** Sets a detail object, or removes it (`undefined`). */
  setDetail(
    draft: FacilityEntry[],
    i: number,
    j: number,
    kind: DetailKind,
    value: Record<string, unknown> | undefined,
  ): FacilityEntry[] {
    return atInstance(draft, i, j, (x) => {
      const details = { ...x.details };
      if (value === undefined) delete details[kind];
      else details[kind] = value;
      return { ...x, details };
    });
  },
};

/** A detail object with one value changed; `undefined` or '' removes an optional value. */
export function withValue(detail: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const next = { ...detail };
  if (value === undefined || value === null || value === '') delete next[key];
  else next[key] = value;
  return next;
}

// ---- times and dates as the request takes them --------------------------------------------------------------------

export interface Clock {
  hours: number;
  minutes: number;
}

/** {hours: 7, minutes: 30} → "07:30"; a value that is not a time stays as typed. */
export function clockText(value: unknown): string {
  if (typeof value === 'string') return value;
  const c = value as Partial<Clock> | undefined;
  if (typeof c?.hours !== 'number' || typeof c.minutes !== 'number') return '';
  return `${String(c.hours).padStart(2, '0')}:${String(c.minutes).padStart(2, '0')}`;
}

/** "07:30" (or "7:30") → {hours: 7, minutes: 30}; anything else stays as typed, for the schema to say why. */
export function parseClock(text: string): Clock | string {
  const m = /^\s*(\d{1,2}):(\d{2})\s*$/.exec(text);
  return m ? { hours: Number(m[1]), minutes: Number(m[2]) } : text;
}

/** A day picked in the calendar → its UTC midnight, as Booking.com takes a date. */
export function dateToEpoch(date: Date): { epoch_seconds: number } {
  return { epoch_seconds: Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / 1000 };
}

/** A date as sent (UTC midnight) → that day in the picker (local midnight); null when there is none. */
export function epochToDate(value: unknown): Date | null {
  const s = (value as { epoch_seconds?: unknown } | undefined)?.epoch_seconds;
  if (typeof s !== 'number' || !Number.isFinite(s)) return null;
  const d = new Date(s * 1000);
  return new Date(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

// ---- problems ---------------------------------------------------------------------------------------------------

/**
 * Each facility's problems as the request's own schema finds them, by the draft's path
 * (`2.instances.0.details.parking_details.name`, as the core names them), so they show next to the control while
 * the owner types.
 */
export function liveProblems(draft: FacilityEntry[]): Record<string, string> {
  const out: Record<string, string> = {};
  draft.forEach((entry, i) => {
    const problems = checkFacilityRequest({
      hotel_id: 'H',
      channel_hotel_id: '1',
      facilities: [
        {
          facility_id: entry.facilityId,
          is_available: entry.isAvailable,
          instances: entry.instances.map((x) => ({
            ...(x.instanceId ? { instance_id: x.instanceId } : {}),
            ...x.details,
          })),
        },
      ],
    });
    entry.instances.forEach((x, j) => {
      const problem = instanceIdProblem(x.instanceId);
      if (problem) out[`${i}.instances.${j}.instanceId`] = problem;
    });
    for (const [path, message] of Object.entries(problems)) {
      const m = /^facilities\.0\.(?:instances\.(\d+)\.)?(.*)$/.exec(path);
      if (!m) continue;
      out[m[1] === undefined ? `${i}.${m[2]}` : `${i}.instances.${m[1]}.${instancePath(m[2]!)}`] ??= message;
    }
  });
  return out;
}

/** A path inside an instance of the request as its path in the draft (the core's convention, `details.…`). */
const instancePath = (rest: string) => (rest === 'instance_id' ? 'instanceId' : `details.${rest}`);

/** The problems under one prefix (`2.instances.0.`), by the rest of their path. */
export function problemsUnder(problems: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(problems))
    if (path.startsWith(prefix)) out[path.slice(prefix.length)] = message;
  return out;
}
