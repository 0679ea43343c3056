import { z } from 'zod';
import type { AppError } from './result';
import { hotelIdSchema, idSchema } from './su/common';
import type { FacilitySet } from './su/facilities';
import type { PropertyUpdate } from './su/property';

// The Property screen: the property record on Booking.com (Su's property update, endpoint 4) and the facilities of
// the property and its rooms (Su's facility set, endpoint 3). Su cannot be asked for either, so the app keeps what
// Su last confirmed, and every change goes out as a draft → preview → outbox push, with a history and a revert.

import { detailsFormSchema, type DetailsForm } from './propertyDetails';
import {
  facilitiesDraftSchema,
  type FacilityCreate,
  type FacilityEntry,
  type FacilityRecordEntry,
} from './propertyFacilities';
import { defineSlice } from './contractSlice';

export * from './propertyDetails';
export * from './propertyFacilities';
export * from './propertyTypes';

// ── Contract ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** The Booking.com ids the facility set needs: the property's, and each room's by the owner's room id. */
export interface ChannelIds {
  channelHotelId: string | null;
  rooms: Record<string, string>;
}

/** One changed field between the record Su confirmed and a draft. */
export interface FieldChange {
  /** The request path (`physical_address.city_name`, `facilities.2.instances.0.parking_details.name`). */
  path: string;
  label: string;
  before: string | null;
  after: string | null;
}

/** Which part of the property a draft or push is about. */
export type PropertySection = 'details' | 'facilities';

/** A push of this property's details or facilities, as History lists it. */
export interface PropertyPush {
  id: number;
  section: PropertySection;
  /** The owner's room id for a room's facilities, else null. */
  roomId: string | null;
  createdAt: number;
  /** When Su confirmed it. */
  appliedAt: number | null;
  /** The outbox state: queued, sending, sent, failed, discarded. */
  state: string;
  outboxId: number;
  error: AppError | null;
  /** Su's answer once confirmed: its message, the request tracking id (facilities) and the property id (details). */
  answer: { message: string; ruid: string | null; propertyId: string | null } | null;
  /** The exact request sent. */
  request: unknown;
  changes: FieldChange[];
  /** The push this one reverts, if it came from Revert. */
  reverts: number | null;
  /** True for the newest push Su confirmed of its part (details, or one scope's facilities): what Su holds now. */
  current: boolean;
}

/** The details tab: the record Su confirmed, the draft, and the push still on its way. */
export interface DetailsView {
  hotelId: string;
  /** The last record Su confirmed (null until one was), and when. */
  record: PropertyUpdate | null;
  confirmedAt: number | null;
  /** The draft as typed: the record's form when there is no draft. */
  form: DetailsForm;
  /** True when a draft differs from what Su holds (saved, survives restart). */
  hasDraft: boolean;
  /** A push not yet confirmed and not discarded: the next waits for it. */
  pending: PropertyPush | null;
}

export interface FacilitiesView {
  hotelId: string;
  roomId: string | null;
  channelIds: ChannelIds;
  record: FacilityRecordEntry[];
  confirmedAt: number | null;
  draft: FacilityEntry[];
  hasDraft: boolean;
  pending: PropertyPush | null;
}

/** What Send would send, and what the owner must know first. */
export interface PropertyPreview {
  /** The exact request, or null when nothing changed or something must be fixed first. */
  request: unknown;
  changes: FieldChange[];
  /** Every problem by its field (the draft's path); empty when it can be sent. */
  problems: Record<string, string>;
  /** Facility instances this push would create anew (the owner confirms them). */
  creates: FacilityCreate[];
  /** Equal in the send: what the owner looked at is what goes. */
  fingerprint: string | null;
}

const hotel = hotelIdSchema(64);
const roomId = idSchema('The room id').nullable().default(null);
const scopeArgs = z.discriminatedUnion('section', [
  z.object({ section: z.literal('details'), hotelId: hotel }).strict(),
  z.object({ section: z.literal('facilities'), hotelId: hotel, roomId }).strict(),
]);

export const propertyMethods = {
  'property.details': z.object({ hotelId: hotel }).strict(),
  'property.facilities': z.object({ hotelId: hotel, roomId }).strict(),
  'property.saveDetailsDraft': z.object({ hotelId: hotel, form: detailsFormSchema }).strict(),
  'property.saveFacilitiesDraft': z.object({ hotelId: hotel, roomId, draft: facilitiesDraftSchema }).strict(),
  'property.discardDraft': scopeArgs,
  'property.preview': scopeArgs,
  'property.send': z
    .object({
      section: z.enum(['details', 'facilities']),
      hotelId: hotel,
      roomId,
      fingerprint: z.string().regex(/^[0-9a-f]{64}$/, 'Preview the change first.'),
      /** The owner agreed to the instances this push creates. */
      confirmed: z.boolean().default(false),
    })
    .strict(),
  'property.history': z.object({ hotelId: hotel }).strict(),
  /** Makes an earlier push's record the draft again; the owner previews and sends it as any draft. */
  'property.revert': z
    .object({
      pushId: z.number().int().positive(),
      /** The owner agreed to replace the changes not yet sent (refused with `draft_exists` otherwise). */
      replaceDraft: z.boolean().default(false),
    })
    .strict(),
  'property.saveChannelIds': z
    .object({
      hotelId: hotel,
      channelHotelId: idSchema('The Booking.com property id', 20).nullable(),
      rooms: z.record(z.string().max(64), idSchema('The Booking.com room id', 20)).default({}),
    })
    .strict(),
} as const;

export interface PropertyResults {
  'property.details': DetailsView;
  'property.facilities': FacilitiesView;
  'property.saveDetailsDraft': DetailsView;
  'property.saveFacilitiesDraft': FacilitiesView;
  'property.discardDraft': { discarded: boolean };
  'property.preview': PropertyPreview;
  'property.send': { pushId: number };
  'property.history': PropertyPush[];
  'property.revert': { section: PropertySection; hotelId: string; roomId: string | null };
  'property.saveChannelIds': ChannelIds;
}

export interface PropertyEvents {
  /** A push of this property's details or facilities changed state (queued, sent, failed, discarded). */
  'property.changed': { hotelId: string; section: PropertySection; roomId: string | null };
}

export type { FacilitySet, PropertyUpdate };

/** The property slice of the contract (listed in contract.ts). */
export const propertyContract = defineSlice<PropertyResults, PropertyEvents>()(propertyMethods, ['property.changed']);
