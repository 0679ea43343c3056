import type { HandlerSlice } from '../gateway/dispatcher';
import type { EventBus } from '../gateway/events';
import { parseEntityKey } from '../outbox/entityKeys';
import type { OutboxItem } from '../outbox/types';
import type { RuleEdit } from '../../shared/ratesComposer';
import type { RatesService } from './ratesService';

/**
 * The `rates.*` methods, and what the rates feature does when one of its pushes moves on in the outbox.
 * @param outboxChanged tells the renderer a push was queued (the outbox's counts changed).
 */
export function ratesHandlers(deps: { rates: RatesService; events: EventBus; outboxChanged: () => void }) {
  const { rates, events } = deps;
  const queued = <T>(value: T): T => {
    deps.outboxChanged();
    return value;
  };
  const handlers: HandlerSlice<'rates'> = {
    'rates.properties': () => rates.properties(),
    'rates.saveSetup': (args) => {
      rates.saveSetup(args);
      return rates.properties();
    },
    'rates.removeSetup': (args) => {
      rates.removeSetup(args.hotelId);
      return rates.properties();
    },
    'rates.book': (args) => rates.book(args.hotelId),
    'rates.draft': (args) => rates.draft(args.hotelId),
    // The edits are validated in full by the service, against today's date.
    'rates.saveDraft': (args) =>
      rates.saveDraft({ hotelId: args.hotelId, name: args.name ?? '', edits: args.edits as RuleEdit[] }),
    'rates.preview': (args) => rates.preview(args.hotelId),
    'rates.push': (args) => queued(rates.push(args.hotelId, args.confirmed, args.fingerprint)),
    'rates.history': (args) => rates.history(args.hotelId),
    'rates.revertPreview': (args) => rates.revertPreview(args.pushId),
    'rates.revert': (args) => queued(rates.revert(args.pushId, args.confirmed, args.fingerprint)),
  };
  return {
    handlers,
    /** A push Su confirmed becomes the record; the calendar and history of its property refresh. */
    afterOutboxChange(item: OutboxItem): void {
      rates.onOutboxChange(item);
      const entity = parseEntityKey(item.entityKey);
      if (entity?.kind === 'rates') events.emit('rates.changed', { hotelId: entity.hotelId });
    },
  };
}
