import type { DemoDeliveryResult, DemoStatus } from '../../shared/demo';
import type { DeliveryCheck, DeliveryCheckStep } from '../../shared/deliveryCheck';
import type { IntakeStatus } from '../../shared/intake';
import type { MailboxStatus } from '../../shared/mailbox';
import { errorText } from '../../shared/result';

/** What the check reads: the intake's and the mailbox's own status, and the demo provider when it is in use. */
export interface DeliveryCheckDeps {
  intake: () => IntakeStatus;
  mailbox: () => MailboxStatus;
  /** The demo provider while it is the provider in use (it can deliver a test message), else null. */
  demo: () => {
    status: () => DemoStatus;
    deliver: (delivery: { kind: 'message'; channel: '19'; hotelId: string }) => Promise<DemoDeliveryResult>;
  } | null;
  now: () => number;
  /** How long the call to the public address may take (ms). */
  reachTimeoutMs?: number;
}

/** Where the receiving settings are on the Connection screen, as the screen names them. */
const RECEIVING = 'under Receiving messages and reviews';
const REACH = `How Su reaches your computer, ${RECEIVING}`;
const MAILBOX = 'Receive through my mailbox';

const passed = (step: DeliveryCheckStep['step'], text: string): DeliveryCheckStep => ({
  step,
  outcome: 'passed',
  text,
  fix: null,
});
const failed = (step: DeliveryCheckStep['step'], text: string, fix: string | null): DeliveryCheckStep => ({
  step,
  outcome: 'failed',
  text,
  fix,
});
const skipped = (step: DeliveryCheckStep['step'], text: string): DeliveryCheckStep => ({
  step,
  outcome: 'skipped',
  text,
  fix: null,
});

/**
 * Calls the address Su delivers to from this computer, as Su would, but without the user name and password: only a
 * receiver of Innkeeper's (this computer's listener, or the mailbox) answers that with its own refusal (401, realm
 * "Innkeeper"). Nothing is stored, and one refused call is far below what the listener treats as a flood.
 */
async function probe(url: string, timeoutMs: number): Promise<{ ok: true } | { ok: false; why: string }> {
  try {
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await answer.body?.cancel();
    const realm = answer.headers.get('www-authenticate') ?? '';
    if (answer.status === 401 && /realm="Innkeeper"/.test(realm)) return { ok: true };
    // Innkeeper's receiver, refusing every failed login for the rest of the minute (wrong passwords came from there).
    if (answer.status === 429 && answer.headers.has('retry-after')) {
      return { ok: false, why: 'it is refusing logins for a minute after many wrong passwords: check again then' };
    }
    return { ok: false, why: `something else answered there (HTTP ${answer.status}), not Innkeeper` };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError') return { ok: false, why: `nothing answered within ${Math.round(timeoutMs / 1000)} s` };
    return { ok: false, why: unreachable(error) };
  }
}

/** Why a call did not reach anything, in the owner's words (fetch says only "fetch failed"; its cause says why). */
function unreachable(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  const code = cause?.code ?? '';
  if (code === 'ECONNREFUSED') return 'nothing answers there';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its name was not found (check the address)';
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code)) return 'its https certificate is not valid, and Su checks it too';
  return `it could not be reached (${code || errorText(error)})`;
}

/** A test delivery from the demo provider: a guest message, the same way its other deliveries arrive. */
async function testDelivery(demo: NonNullable<ReturnType<DeliveryCheckDeps['demo']>>): Promise<DeliveryCheckStep> {
  const hotelId = demo.status().properties[0]?.hotelId;
  if (!hotelId)
    return failed('delivery', 'The demo provider has no property to deliver to yet: try again in a moment.', null);
  try {
    const result = await demo.deliver({ kind: 'message', channel: '19', hotelId });
    return result.acknowledged
      ? passed('delivery', `Test delivery: ${result.summary}`)
      : failed('delivery', `The demo provider’s test delivery was not confirmed: ${result.summary}`, RECEIVING);
  } catch (error) {
    return failed('delivery', `The demo provider could not deliver: ${errorText(error)}`, RECEIVING);
  }
}

/** Su's partner API has no call that asks for a test delivery. */
const NO_TEST_DELIVERY = skipped(
  'delivery',
  'Su’s partner API has no way to ask for a test delivery: the first guest message Su sends is the proof. Su tries each delivery only three more times, so keep Innkeeper running.',
);

async function viaListener(deps: DeliveryCheckDeps, onDemo: boolean, timeoutMs: number) {
  const status = deps.intake();
  const steps: DeliveryCheckStep[] = [];
  steps.push(
    status.listening
      ? passed('listener', `Innkeeper’s listener is running on this computer (port ${status.port}).`)
      : failed(
          'listener',
          `Innkeeper’s listener is not running${status.error ? `: ${status.error}` : '.'}`,
          `Port on this computer, ${RECEIVING}`,
        ),
  );
  if (status.passwordSet) {
    steps.push(passed('credentials', `The user name (${status.username}) and password for Su are set.`));
  } else if (onDemo) {
    steps.push(
      skipped(
        'credentials',
        'No password for Su is set yet. The demo delivers with its own; before you register with Su, press Generate and save.',
      ),
    );
  } else {
    steps.push(
      failed(
        'credentials',
        'No password for Su is set, so nothing Su sends can be accepted.',
        `Password for Su, ${RECEIVING} (press Generate, then Save receiving settings)`,
      ),
    );
  }
  const url = status.registerUrl;
  if (url) {
    steps.push(passed('address', `The address to register with Su is ${url}.`));
    const reached = await probe(url, timeoutMs);
    steps.push(
      reached.ok
        ? passed('reach', `Innkeeper called ${url} from this computer, as Su will, and its listener answered there.`)
        : failed(
            'reach',
            `Innkeeper called ${url} from this computer, as Su will, but ${reached.why}.`,
            status.tunnel.enabled
              ? REACH
              : `${REACH}: check that your proxy forwards this address to port ${status.port}`,
          ),
    );
  } else if (onDemo) {
    steps.push(
      skipped('address', 'The demo delivers on this computer, so it needs no public address. Su will need one.'),
    );
  } else {
    const tunnel = status.tunnel;
    const why =
      tunnel.enabled && tunnel.state !== 'up'
        ? `the tunnel is not up${tunnel.error ? ` (${tunnel.error})` : ''}`
        : 'there is no public address yet';
    steps.push(failed('address', `Su cannot reach this computer: ${why}.`, REACH));
  }
  return steps;
}

async function viaMailbox(deps: DeliveryCheckDeps, timeoutMs: number) {
  const status = deps.mailbox();
  const steps: DeliveryCheckStep[] = [];
  if (status.connected) {
    steps.push(passed('mailbox', `Innkeeper is collecting from your mailbox at ${status.url}.`));
  } else if (status.paused) {
    steps.push(skipped('mailbox', 'Collecting from the mailbox is paused (the demo’s laptop is closed).'));
  } else {
    steps.push(
      failed(
        'mailbox',
        `Innkeeper cannot reach your mailbox${status.lastError ? `: ${status.lastError.message}` : '.'}`,
        `${MAILBOX}: check that the mailbox runs`,
      ),
    );
  }
  if (status.demo) {
    steps.push(
      passed('credentials', 'The demo’s own mailbox takes the demo’s deliveries: nothing to register with Su.'),
    );
  } else {
    steps.push(
      passed(
        'credentials',
        `Su delivers to the mailbox with the user name ${status.pushUser ?? ''} and your Password for Su (given to the mailbox when it was paired).`,
      ),
    );
  }
  const url = status.pushUrl!;
  if (!status.demo) steps.push(passed('address', `The address to register with Su is ${url}.`));
  const reached = await probe(url, timeoutMs);
  steps.push(
    reached.ok
      ? passed('reach', `Innkeeper called ${url} from this computer, as Su will, and your mailbox answered there.`)
      : failed('reach', `Innkeeper called ${url} from this computer, as Su will, but ${reached.why}.`, MAILBOX),
  );
  return steps;
}

/** Checks, step by step, whether Su's deliveries reach Innkeeper now. */
export async function runDeliveryCheck(deps: DeliveryCheckDeps): Promise<DeliveryCheck> {
  const timeoutMs = deps.reachTimeoutMs ?? 15_000;
  const demo = deps.demo();
  const mailbox = deps.mailbox();
  const via = mailbox.paired ? 'mailbox' : 'listener';
  const steps =
    via === 'mailbox' ? await viaMailbox(deps, timeoutMs) : await viaListener(deps, demo !== null, timeoutMs);
  // A test delivery only where the provider offers one (the demo), and only once the way in works.
  const blocked = steps.some((s) => s.outcome === 'failed');
  if (!demo) steps.push(NO_TEST_DELIVERY);
  else if (blocked) steps.push(skipped('delivery', 'No test delivery was sent: fix the step above first.'));
  else steps.push(await testDelivery(demo));
  return { via, ok: !steps.some((s) => s.outcome === 'failed'), steps, checkedAt: deps.now() };
}
