import { createHash } from 'node:crypto';
import { AppFailure, errorText } from '../../shared/result';
import type { Settings } from '../config/settings';

/** INNKEEPER_MAILBOX_URL and INNKEEPER_MAILBOX_CODE: pairing at start, for servers and tests. */
export interface MailboxEnvironment {
  url?: string;
  code?: string;
}

/** A digest of the address and code of INNKEEPER_MAILBOX_* last tried at start: a code is used once. */
const ENV_TRIED_KEY = 'mailbox.environmentTried';

/**
 * INNKEEPER_MAILBOX_URL + _CODE at start: paired once; a code the mailbox answered (paired, or refused: wrong or
 * used) is not tried again, and one that could not reach it is tried again, waiting twice as long each time, up to a
 * minute.
 */
export function environmentPairing(deps: {
  env: MailboxEnvironment;
  settings: Settings;
  /** The address of the mailbox paired now, or null. */
  pairedUrl: () => string | null;
  pair: (url: string, code: string) => Promise<void>;
  problem: (message: string) => void;
  onChange: () => void;
}) {
  const { settings } = deps;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  async function attempt(n: number): Promise<void> {
    const { url, code } = deps.env;
    if (!url || stopped) return;
    if (deps.pairedUrl() === url) return;
    if (!code) {
      deps.problem('INNKEEPER_MAILBOX_URL is set, but INNKEEPER_MAILBOX_CODE is not: Innkeeper needs a pairing code.');
      deps.onChange();
      return;
    }
    const tried = createHash('sha256').update(`${url}\n${code}`).digest('hex');
    if (settings.get<string>(ENV_TRIED_KEY) === tried) return;
    try {
      await deps.pair(url, code);
      settings.set(ENV_TRIED_KEY, tried);
    } catch (error) {
      deps.problem(`Pairing with the mailbox from INNKEEPER_MAILBOX_URL failed: ${errorText(error)}`);
      const unreachable = error instanceof AppFailure && error.error.retryable === true;
      // The mailbox answered (a wrong or used code): that code is not tried again. Unreachable: tried again later.
      if (!unreachable) settings.set(ENV_TRIED_KEY, tried);
      else if (!stopped) retry = setTimeout(() => void run(n + 1), Math.min(60_000, 1_000 * 2 ** n));
    }
    deps.onChange();
  }
  const run = (n: number) => attempt(n).catch((error: unknown) => console.error(`mailbox: ${errorText(error)}`));

  return {
    start: () => void run(0),
    stop(): void {
      stopped = true;
      if (retry) clearTimeout(retry);
      retry = null;
    },
  };
}
