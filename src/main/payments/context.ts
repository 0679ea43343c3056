import type { PaymentLinkEntry, PaymentProperty } from '../../shared/payments';
import { AppFailure, ErrorCode, errorText, type AppError } from '../../shared/result';
import type { Database } from '../db/database';
import type { ProviderClient } from '../provider/client';
import { paymentsStore, type LinkRow } from './paymentsSql';

export interface PaymentsDeps {
  database: Database;
  now: () => number;
  /** The provider in use: accounts and links are kept per provider. */
  provider: () => string;
  /** The payment host's calls for a provider (each operation keeps the provider it started on). */
  host: (provider: string) => ProviderClient['payments'];
  properties: () => PaymentProperty[];
  /** Whether the payment host's name and key are entered. */
  hostReady: () => { ready: boolean; message: string | null };
  /** Something changed; `paid` holds the links just seen paid. */
  changed: (paid: PaymentLinkEntry[]) => void;
}

/** What the parts of the payments feature share: the store, the clock, the rows of one provider. */
export function paymentsContext(deps: PaymentsDeps) {
  const store = paymentsStore(deps.database.db);
  return {
    deps,
    store,
    now: deps.now,
    /** One of the provider's links, or the owner is told it is gone. */
    rowOf(provider: string, id: number): LinkRow {
      const row = store.link(provider, id);
      if (!row) {
        throw new AppFailure({
          code: 'not_found',
          message: 'This payment link is no longer in the ledger.',
          retryable: false,
        });
      }
      return row;
    },
    nameOf: (hotelId: string) => deps.properties().find((p) => p.hotelId === hotelId)?.name ?? hotelId,
  };
}
export type PaymentsContext = ReturnType<typeof paymentsContext>;

/** A refusal by one field, as the forms show it. */
export const refusal = (field: string, message: string): AppError => ({
  code: ErrorCode.Validation,
  message,
  field,
  fields: { [field]: message },
  retryable: false,
});

export const asError = (error: unknown): AppError =>
  error instanceof AppFailure ? error.error : { code: ErrorCode.Internal, message: errorText(error), retryable: true };
