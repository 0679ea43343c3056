import type { FastifyInstance } from 'fastify';
import { errorText } from '../../shared/result';
import { connectionFeature } from '../connection/feature';
import type { Database } from '../db/database';
import { defineFeature } from '../feature';
import type { DeliveryCredentials } from '../../receiving/basicAuth';
import { intakeHandlers } from './handlers';
import { createFiledNews } from './filedNews';
import { fileInTransaction, ingestGroup, type GroupOutcome } from './ingest';
import { createIntakeService, type IntakeEnvironment } from './intakeService';
import { INTAKE_MIGRATIONS } from './migrations';
import type { TunnelProvider } from './tunnel';

/**
 * The intake: the listener Su delivers guest messages and reviews to (`POST /push`), its tunnel, its health and
 * its quarantine. Each delivery is filed by the feature that declared its kind (`deliveryKinds`: the inbox), and
 * the group it arrived with is announced on the bus (`deliveriesFiled`) once Su was told.
 *
 * Provides `status()`, `publicRoutes` (routes answered without credentials: the photo addresses Su fetches) and
 * `alsoAccept` (credentials accepted besides the owner's: the built-in demo provider's). Reads the host options
 * `intakeEnv` (INNKEEPER_PUSH_*) and `tunnelProvider` (ngrok unless a test supplies a loopback forwarder).
 */
export const intakeFeature = defineFeature({
  name: 'intake',
  migrations: INTAKE_MIGRATIONS,
  create(context) {
    const { bus } = context;
    const routes: ((app: FastifyInstance) => void)[] = [];
    const others: (() => DeliveryCredentials | null)[] = [];

    const news = createFiledNews({ bus, quarantined: () => feature.changed() });
    const options = context.options as { intakeEnv?: IntakeEnvironment; tunnelProvider?: TunnelProvider };
    const { connection } = context.use(connectionFeature);
    const intake = createIntakeService({
      database: context.database,
      settings: context.settings,
      secrets: context.secrets,
      env: options.intakeEnv ?? {},
      now: context.now,
      filers: context.deliveryFilers,
      onIngested: news.afterFiled,
      onListening: (localUrl) => bus.emit('intakeListening', { localUrl }),
      otherCredentials: () => others.flatMap((credentials) => credentials() ?? []),
      publicRoutes: (app) => routes.forEach((add) => add(app)),
      onDemo: () => connection.active() === 'demo',
      ...(options.tunnelProvider ? { tunnelProvider: options.tunnelProvider } : {}),
    });
    const feature = intakeHandlers({ intake, events: context.events });
    // The listener starts (or stops) with the data file's health: the screen says so at once.
    context.database.health.onChange(() => feature.changed());
    // The demo may listen on a free port when the one set is taken; a real account keeps the port set.
    bus.on('connectionChanged', () => {
      intake
        .providerChanged()
        .then((restarted) => restarted && feature.changed())
        .catch((error: unknown) => console.error(`intake: ${errorText(error)}`));
    });
    return {
      handlers: feature.handlers,
      // SECURITY: a password for Su from INNKEEPER_PUSH_PASSWORD is not in the secret file: guarded all the same.
      secrets: () => (options.intakeEnv?.password ? [options.intakeEnv.password] : []),
      provides: {
        /** The listener itself (tests stop and start it). */
        service: intake,
        status: () => intake.status(),
        /** Adds routes answered without credentials (each must answer only what it is meant to); before start. */
        publicRoutes(add: (app: FastifyInstance) => void): void {
          routes.push(add);
        },
        /** Credentials accepted besides the owner's while `credentials()` answers them (null: not now). */
        alsoAccept(credentials: () => DeliveryCredentials | null): void {
          others.push(credentials);
        },
        /**
         * Files one delivery again inside the caller's transaction (a restore reads back what the damaged file
         * still held); true when it was new.
         */
        refile: (db: Database['db'], body: string | Uint8Array, receivedAt: number, source: 'demo' | null) =>
          fileInTransaction(db, context.deliveryFilers, body, receivedAt, source).outcome !== 'duplicate',
        /** The credentials Su delivers with (INNKEEPER_PUSH_USER/_PASSWORD, else the saved ones); null: none yet. */
        pushCredentials: (): DeliveryCredentials | null => intake.credentials(),
        /**
         * Files deliveries that reached Innkeeper another way (collected from the owner's mailbox) through the same
         * path as a push to the listener: one transaction on the synchronous=FULL connection, after the data file's
         * check, each filed by its kind's filer (a repost recognised, a bad one quarantined), announced on the bus
         * (`deliveriesFiled`: the inbox's news, the tray's notification) once committed. `alsoWrite` runs in the same
         * transaction, after them (the collector's position), so both commit or neither. Throws when the store
         * cannot take them (nothing of the group stays). Outcomes come back in the order given.
         */
        async fileCollected(
          deliveries: readonly { raw: Uint8Array; receivedAt: number }[],
          alsoWrite: (db: Database['db'], outcomes: readonly GroupOutcome[]) => void,
          /** 'demo' for the built-in demo's deliveries (collected from its own mailbox). */
          source: 'demo' | null = null,
        ): Promise<GroupOutcome[]> {
          await context.database.checked;
          const outcomes = ingestGroup(
            context.database,
            context.deliveryFilers,
            deliveries.map((d) => ({ raw: d.raw, now: d.receivedAt, source })),
            context.now(),
            alsoWrite,
          );
          for (const outcome of outcomes) if ('result' in outcome) news.afterFiled(outcome.result);
          return outcomes;
        },
      },
      start: () => intake.start(),
      /** Stops the listener; what was filed just before and not yet announced is dropped (the data file closes next). */
      stop: async () => {
        await intake.stop();
        news.stop();
      },
    };
  },
});
