import type { DemoStatus } from '../../shared/demo';
import { AppFailure, ErrorCode } from '../../shared/result';
import type { HandlerSlice } from '../gateway/dispatcher';
import type { EventBus } from '../gateway/events';
import type { DemoProvider } from './demoProvider';

const NO_DEMO: DemoStatus = {
  running: false,
  mainUrl: null,
  liveMessages: false,
  properties: [],
  error: null,
  mailboxUrl: null,
  laptopClosedAt: null,
  laptopNote: null,
};

/** The `demo.*` methods; the renderer hears `demo.changed` whenever the demo starts, stops or changes a setting. */
export function demoHandlers(deps: {
  demo: DemoProvider | undefined;
  events: EventBus;
  /** Checks a property's Airbnb notices at once (a notice added on the demo shows without waiting for the poll). */
  checkNotices: (hotelId: string) => Promise<unknown>;
  /** Asks the host about a payment at once (a demo payment shows as paid without waiting for the next check). */
  checkPayment: (transactionId: string) => Promise<unknown>;
}): HandlerSlice<'demo'> {
  const { demo, events } = deps;
  demo?.onChange((status) => events.emit('demo.changed', status));
  const provider = () => {
    if (demo) return demo;
    throw new AppFailure({
      code: ErrorCode.NotConfigured,
      message: 'This Innkeeper runs without the built-in demo provider.',
      retryable: false,
    });
  };
  return {
    'demo.status': () => demo?.status() ?? NO_DEMO,
    'demo.deliver': async (args) => {
      const result = await provider().deliver(args);
      if (args.kind === 'notice' && result.acknowledged) await deps.checkNotices(args.hotelId);
      if (args.kind === 'payment' && result.acknowledged) await deps.checkPayment(args.transactionId);
      return result;
    },
    'demo.setLiveMessages': (args) => provider().setLiveMessages(args.enabled),
    'demo.laptop': (args) => provider().laptop(args.open),
  };
}
