import type { HandlerSlice } from '../gateway/dispatcher';
import type { RuleEdit } from '../../shared/ratesComposer';
import type { RatesService } from './ratesService';

/** The `rates.*` methods. A push queued shows in the outbox's status by itself (the outbox announces each item). */
export function ratesHandlers(deps: { rates: RatesService }): HandlerSlice<'rates'> {
  const { rates } = deps;
  return {
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
    'rates.push': (args) => rates.push(args.hotelId, args.confirmed, args.fingerprint),
    'rates.history': (args) => rates.history(args.hotelId),
    'rates.revertPreview': (args) => rates.revertPreview(args.pushId),
    'rates.revert': (args) => rates.revert(args.pushId, args.confirmed, args.fingerprint),
  };
}
