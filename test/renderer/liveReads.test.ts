import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { EventName, Method } from '@shared/contract';
import { ok } from '@shared/result';
import { useConnectionStore } from '@renderer/features/connection/connectionStore';
import { useDemoStore } from '@renderer/features/demo/demoStore';
import { useDesktopStore } from '@renderer/features/desktop/desktopStore';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';
import { useOutboxStore } from '@renderer/features/outbox/outboxStore';
import { useNoticesStore } from '@renderer/features/property/notices/noticesStore';
import { useIntakeStore } from '@renderer/features/intake/intakeStore';
import { installFakeApi, settle } from './fakeApi';

// The shell reads each live value once (at start, or back after the app was stopped) and the core's events keep
// it live. In browser mode the read's answer comes over HTTP and the events over the WebSocket: a change filed
// after the read was answered in the core may reach the page first. The older answer must not undo it (CI saw the
// Reviews tab stay at 1 after four reviews: the counts read at start was answered after the pushes' events).

interface Case {
  name: string;
  method: Method;
  event: EventName;
  /** The read's answer (what the core held when it read) and the event (newer). */
  older: unknown;
  newer: unknown;
  eventPayload: (value: unknown) => unknown;
  answer: (value: unknown) => unknown;
  start: () => { load: () => Promise<void>; listen: () => () => void; shown: () => unknown };
}

const counts = (unreadReviews: number) => ({ unreadThreads: 0, unreadReviews, quarantined: 0 });

const cases: Case[] = [
  {
    name: 'inbox counts',
    method: 'inbox.counts',
    event: 'inbox.changed',
    older: counts(1),
    newer: counts(4),
    eventPayload: (value) => ({ threadId: null, reviewId: 9, counts: value }),
    answer: (value) => value,
    start: () => {
      const store = useInboxStore();
      return { load: store.loadCounts, listen: store.listen, shown: () => store.counts };
    },
  },
  {
    name: 'unseen notices',
    method: 'notices.list',
    event: 'notices.changed',
    older: 1,
    newer: 3,
    eventPayload: (value) => ({ unseen: value, added: [] }),
    answer: (value) => ({ unseen: value, notices: [], checks: [], hotelIds: [] }),
    start: () => {
      const store = useNoticesStore();
      return { load: store.loadUnseen, listen: store.listen, shown: () => store.unseen };
    },
  },
  ...(
    [
      ['push status', 'intake.status', 'intake.changed', () => useIntakeStore(), 'status'],
      ['outbox status', 'outbox.status', 'outbox.changed', () => useOutboxStore(), 'status'],
      ['connection', 'connection.get', 'connection.changed', () => useConnectionStore(), 'state'],
      ['start at login', 'desktop.startAtLogin', 'desktop.changed', () => useDesktopStore(), 'state'],
      ['demo status', 'demo.status', 'demo.changed', () => useDemoStore(), 'status'],
    ] as const
  ).map(([name, method, event, use, field]): Case => ({
    name,
    method,
    event,
    older: { running: true, version: 'older' },
    newer: { running: true, version: 'newer' },
    eventPayload: (value) => value,
    answer: (value) => value,
    start: () => {
      const store = use() as unknown as {
        load: () => Promise<void>;
        listen: () => () => void;
      } & Record<string, unknown>;
      return { load: store.load, listen: store.listen, shown: () => store[field] };
    },
  })),
];

describe('a value read at start and kept live by events', () => {
  beforeEach(() => setActivePinia(createPinia()));

  for (const c of cases) {
    it(`${c.name}: an event that arrives before the read's answer is not undone by it`, async () => {
      const core = installFakeApi();
      const store = c.start();
      store.listen();
      const loading = store.load();
      await settle();
      core.emit(c.event, c.eventPayload(c.newer) as never);
      expect(store.shown()).toEqual(c.newer);
      core.pending(c.method)[0]!.answer(ok(c.answer(c.older)) as never);
      await loading;
      expect(store.shown()).toEqual(c.newer);
    });

    it(`${c.name}: with no event meanwhile, the read's answer is shown`, async () => {
      const core = installFakeApi();
      const store = c.start();
      store.listen();
      core.emit(c.event, c.eventPayload(c.older) as never); // an event before the read: the read is newer
      const loading = store.load();
      await settle();
      core.pending(c.method)[0]!.answer(ok(c.answer(c.newer)) as never);
      await loading;
      expect(store.shown()).toEqual(c.newer);
    });
  }
});
