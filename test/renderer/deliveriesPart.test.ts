import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from '@shared/connection';
import type { DeliveryCheck } from '@shared/deliveryCheck';
import type { IntakeStatus } from '@shared/intake';
import type { MailboxStatus } from '@shared/mailbox';
import { ok } from '@shared/result';
import { useConnectionStore } from '@renderer/features/connection/connectionStore';
import DeliveriesPart from '@renderer/features/deliveryCheck/DeliveriesPart.vue';
import { useIntakeStore } from '@renderer/features/intake/intakeStore';
import { useMailboxStore } from '@renderer/features/mailbox/mailboxStore';
import { installFakeApi } from './fakeApi';

// The setup guide's part on Su's deliveries: what to give Su, from the listener's or the mailbox's own status, and
// the check's steps with what to fix.

let pinia: Pinia;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
});
const listener = (over: Partial<IntakeStatus> = {}) =>
  ({
    username: 'su-partner',
    passwordSet: true,
    registerUrl: 'https://inn.example.com/push',
    ...over,
  }) as IntakeStatus;
const mount_ = (intake: IntakeStatus, mailbox: Partial<MailboxStatus>, active: 'demo' | 'sandbox' = 'sandbox') => {
  useConnectionStore().state = { active } as ConnectionState;
  useIntakeStore().status = intake;
  useMailboxStore().status = { paired: false, demo: false, ...mailbox } as MailboxStatus;
  return mount(DeliveriesPart, { global: { plugins: [PrimeVue, pinia] } });
};

describe('what to give Su', () => {
  it('with the listener: its public address, the user name, and that the password is the one set', () => {
    installFakeApi();
    const give = mount_(listener(), {}).get('[data-testid="guide-give-su"]').text();
    expect(give).toContain('https://inn.example.com/push');
    expect(give).toContain('su-partner');
    expect(give).toContain('the Password for Su you set');
    expect(give).not.toContain('demo');
  });

  it('on the demo: says the demo needs none of it, and what Su will need', () => {
    installFakeApi();
    const give = mount_(listener({ registerUrl: null }), {}, 'demo')
      .get('[data-testid="guide-give-su"]')
      .text();
    expect(give).toContain('The demo delivers to this computer by itself. With your own account, give Su:');
  });

  it('without an address or password yet, says where to set each', () => {
    installFakeApi();
    const give = mount_(listener({ registerUrl: null, passwordSet: false }), {})
      .get('[data-testid="guide-give-su"]')
      .text();
    expect(give).toContain('none yet: choose how Su reaches your computer');
    expect(give).toContain('not set yet: press Generate');
  });

  it('with a mailbox paired: the mailbox’s address and user name, not the listener’s', () => {
    installFakeApi();
    const give = mount_(listener(), {
      paired: true,
      pushUrl: 'https://mailbox.example.com/push',
      pushUser: 'su-partner',
    })
      .get('[data-testid="guide-give-su"]')
      .text();
    expect(give).toContain('https://mailbox.example.com/push');
    expect(give).not.toContain('https://inn.example.com/push');
  });

  it('with the demo’s own mailbox: nothing to give', () => {
    installFakeApi();
    const give = mount_(listener(), { paired: true, demo: true }).get('[data-testid="guide-give-su"]').text();
    expect(give).toContain('nothing to give Su');
    expect(give).not.toContain('Address');
  });
});

describe('the check', () => {
  it('shows each step, and what to fix for one that failed', async () => {
    const check: DeliveryCheck = {
      via: 'listener',
      ok: false,
      checkedAt: Date.now(),
      steps: [
        {
          step: 'listener',
          outcome: 'passed',
          text: 'Innkeeper’s listener is running on this computer (port 8787).',
          fix: null,
        },
        {
          step: 'reach',
          outcome: 'failed',
          text: 'Innkeeper called https://inn.example.com/push from this computer, as Su will, but nothing answered within 15 s.',
          fix: 'How Su reaches your computer, under Receiving messages and reviews',
        },
        {
          step: 'delivery',
          outcome: 'skipped',
          text: 'Su’s partner API has no way to ask for a test delivery.',
          fix: null,
        },
      ],
    };
    installFakeApi({ 'deliveryCheck.run': () => ok(check) });
    const wrapper = mount_(listener(), {});
    await wrapper.get('[data-testid="guide-deliveries-check"]').trigger('click');
    await flushPromises();
    const steps = wrapper.findAll('[data-testid="guide-deliveries-result"] li');
    expect(steps.map((s) => s.classes().find((c) => c.startsWith('step--')))).toEqual([
      'step--passed',
      'step--failed',
      'step--skipped',
    ]);
    expect(steps[1]!.text()).toContain(
      'nothing answered within 15 s. Fix: How Su reaches your computer, under Receiving messages and reviews.',
    );
    expect(steps[0]!.text()).not.toContain('Fix:');
  });
});
