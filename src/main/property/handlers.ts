import type { HandlerSlice } from '../gateway/dispatcher';
import type { EventBus } from '../gateway/events';
import type { FacilityEntry } from '../../shared/property';
import type { PropertyService } from './propertyService';
import type { Scope } from './records';

/** The `property.*` methods, and `changed()`, which tells the renderer one part of a property changed. */
export function propertyHandlers(deps: { property: PropertyService; events: EventBus }) {
  const { property, events } = deps;
  const scopeOf = (args: { section: 'details' | 'facilities'; roomId?: string | null }): Scope =>
    args.section === 'details' ? { section: 'details' } : { section: 'facilities', roomId: args.roomId ?? null };
  const emit = (hotelId: string, scope: Scope) =>
    events.emit('property.changed', {
      hotelId,
      section: scope.section,
      roomId: scope.section === 'facilities' ? scope.roomId : null,
    });

  const handlers: HandlerSlice<'property'> = {
    'property.details': (args) => property.details(args.hotelId),
    'property.facilities': (args) => property.facilities(args.hotelId, args.roomId),
    'property.saveDetailsDraft': (args) => property.saveDetailsDraft(args.hotelId, args.form),
    'property.saveFacilitiesDraft': (args) =>
      property.saveFacilitiesDraft(args.hotelId, args.roomId, args.draft as FacilityEntry[]),
    'property.discardDraft': (args) => {
      const result = property.discardDraft(args.hotelId, scopeOf(args));
      emit(args.hotelId, scopeOf(args));
      return result;
    },
    'property.preview': (args) => property.preview(args.hotelId, scopeOf(args)),
    'property.send': (args) => {
      const result = property.send(args.hotelId, scopeOf(args), args.fingerprint, args.confirmed);
      emit(args.hotelId, scopeOf(args));
      return result;
    },
    'property.history': (args) => property.history(args.hotelId),
    'property.revert': (args) => {
      const result = property.revert(args.pushId, args.replaceDraft);
      emit(
        result.hotelId,
        result.section === 'details' ? { section: 'details' } : { section: 'facilities', roomId: result.roomId },
      );
      return result;
    },
    'property.saveChannelIds': (args) =>
      property.saveChannelIds(args.hotelId, { channelHotelId: args.channelHotelId, rooms: args.rooms }),
  };
  return { handlers, changed: emit };
}
