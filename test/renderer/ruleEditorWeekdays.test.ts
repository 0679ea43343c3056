import { flushPromises, mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { describe, expect, it } from 'vitest';
import type { RuleEdit } from '@shared/ratesComposer';
import RuleEditor from '@renderer/features/rates/RuleEditor.vue';
import DraftEdits from '@renderer/features/rates/DraftEdits.vue';
import { buildCells, buildGroups } from '@renderer/features/rates/ratesCells';
import { WEEKDAY_LABELS, weekPricedSetup } from './rateFixtures';

const setup = weekPricedSetup;
const groups = buildGroups(setup);
/** Fridays and Saturdays (4, 5) from June to September, 25 more on Booking.com. */
const SEASON_WEEKENDS: RuleEdit = {
  target: { level: 'rate', roomId: 'DBL', rateId: 'BAR' },
  from: '2027-06-01',
  to: '2027-09-30',
  weekdays: [4, 5],
  channels: ['19'],
  rule: { type: 'Increase', value: 25 },
};
const today = '2026-11-28';

function mountEditor(weekdays?: number[]) {
  return mount(RuleEditor, {
    props: {
      setup,
      group: groups[1]!,
      selection: { target: 'rate:DBL:BAR', channels: ['19'], from: '2026-11-30', to: '2026-11-30', weekdays },
      cell: buildCells(groups, null, []),
      today,
    },
    global: { plugins: [PrimeVue] },
    attachTo: document.body,
  });
}
const day = (wrapper: ReturnType<typeof mountEditor>, name: string) =>
  wrapper.get<HTMLInputElement>(`[data-testid="rule-weekdays"] input[aria-label="${name}"]`);

describe('the rule editor’s days of the week', () => {
  it('sets a rule on chosen weekdays of a season: one edit naming them, the outcome from their base only', async () => {
    const wrapper = mountEditor();
    await wrapper.get('#rule-from').setValue('2027-06-01');
    await wrapper.get('#rule-to').setValue('2027-09-30');
    // Every day is chosen at first.
    for (const name of WEEKDAY_LABELS) expect(day(wrapper, name).element.checked).toBe(true);
    for (const name of WEEKDAY_LABELS.filter((d) => !['Friday', 'Saturday'].includes(d)))
      await day(wrapper, name).setValue(false);
    await wrapper.get('#rule-kind-Increase').setValue(true);
    await wrapper.get('#rule-value').setValue('25');
    expect(wrapper.text()).toContain('From the base price: €145 → €170.');
    await wrapper.get('form').trigger('submit');
    const [[edits]] = wrapper.emitted('add') as [[RuleEdit[]]];
    expect(edits).toEqual([SEASON_WEEKENDS]);
    wrapper.unmount();
  });

  it('says what is wrong with the days, under them, and adds nothing', async () => {
    const wrapper = mountEditor();
    await wrapper.get('#rule-value').setValue('99');
    for (const name of WEEKDAY_LABELS) await day(wrapper, name).setValue(false);
    await wrapper.get('form').trigger('submit');
    expect(wrapper.get('[data-testid="rule-weekdays"] [role="alert"]').text()).toBe(
      'Choose at least one day of the week.',
    );
    // A Monday with only Friday chosen.
    await day(wrapper, 'Friday').setValue(true);
    await wrapper.get('form').trigger('submit');
    expect(wrapper.get('[data-testid="rule-weekdays"] [role="alert"]').text()).toBe(
      '2026-11-30 is not a Friday: choose other days or dates.',
    );
    expect(wrapper.emitted('add')).toBeUndefined();
    // Every day chosen again: a plain edit, without weekdays.
    for (const name of WEEKDAY_LABELS.filter((d) => d !== 'Friday')) await day(wrapper, name).setValue(true);
    await flushPromises();
    expect(wrapper.find('[data-testid="rule-weekdays"] [role="alert"]').exists()).toBe(false);
    await wrapper.get('form').trigger('submit');
    const [[edits]] = wrapper.emitted('add') as [[RuleEdit[]]];
    expect(edits[0]).not.toHaveProperty('weekdays');
    wrapper.unmount();
  });

  it('an edit of the draft shown again opens with its days of the week; a new selection brings every day', async () => {
    const wrapper = mountEditor([4, 5]);
    const chosen = () => WEEKDAY_LABELS.filter((name) => day(wrapper, name).element.checked);
    expect(chosen()).toEqual(['Friday', 'Saturday']);
    await wrapper.setProps({
      selection: { target: 'rate:DBL:BAR', channels: ['19'], from: '2026-12-01', to: '2026-12-01' },
    });
    expect(chosen()).toEqual(WEEKDAY_LABELS);
    wrapper.unmount();
  });

  it('the draft’s list names an edit’s weekdays and counts only their days', () => {
    const wrapper = mount(DraftEdits, { props: { edits: [SEASON_WEEKENDS], setup }, global: { plugins: [PrimeVue] } });
    expect(wrapper.get('[data-testid="draft-edit"]').text()).toMatch(/Fri, Sat · .* \(34 days\) · Booking\.com/);
  });
});
