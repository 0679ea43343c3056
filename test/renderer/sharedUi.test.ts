import { mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { describe, expect, it } from 'vitest';
import { defineComponent, h, ref } from 'vue';
import type { AppError } from '@shared/result';
import { useChoices } from '@renderer/lib/useChoices';
import NoSession from '@renderer/shell/NoSession.vue';
import ChoiceButtons from '@renderer/ui/ChoiceButtons.vue';
import EmptyState from '@renderer/ui/EmptyState.vue';
import ProblemNote from '@renderer/ui/ProblemNote.vue';

describe('EmptyState', () => {
  it('shows its icon, title and what the slot says, and passes a test id on', () => {
    const wrapper = mount(EmptyState, {
      props: { icon: 'pi pi-comments', title: 'No messages yet' },
      attrs: { 'data-testid': 'messages-empty' },
      slots: { default: '<p>When a guest writes, the conversation appears here.</p><button>Clear filters</button>' },
    });
    const root = wrapper.get('[data-testid="messages-empty"]');
    expect(root.classes()).toContain('empty-state--note');
    expect(root.get('i').classes()).toEqual(expect.arrayContaining(['pi', 'pi-comments']));
    expect(root.get('i').attributes('aria-hidden')).toBe('true');
    expect(root.get('p.empty-state__title').text()).toBe('No messages yet');
    expect(root.text()).toContain('When a guest writes, the conversation appears here.');
    expect(root.find('button').text()).toBe('Clear filters');
  });

  it('writes the title as a heading when asked, and takes the look it is given', () => {
    const wrapper = mount(EmptyState, {
      props: { look: 'card', title: 'Set up your property', titleTag: 'h2' },
    });
    expect(wrapper.classes()).toContain('empty-state--card');
    expect(wrapper.get('h2').text()).toBe('Set up your property');
    expect(wrapper.find('i').exists()).toBe(false);
  });

  it('shows only the slot when it has no icon and no title', () => {
    const wrapper = mount(EmptyState, { props: { look: 'hint' }, slots: { default: 'Choose a review to read it.' } });
    expect(wrapper.find('.empty-state__title').exists()).toBe(false);
    expect(wrapper.text()).toBe('Choose a review to read it.');
  });
});

describe('ProblemNote', () => {
  it('is an alert with what happened, why, the choices and what follows them', () => {
    const wrapper = mount(ProblemNote, {
      slots: {
        what: 'Su refused this push: no such room.',
        default: '<p>Nothing changed at Su.</p>',
        actions: '<button>Retry</button><button>Discard</button>',
        after: '<p class="error">Could not discard.</p>',
      },
    });
    expect(wrapper.attributes('role')).toBe('alert');
    expect(wrapper.classes()).not.toContain('problem--unsure');
    expect(wrapper.get('.problem__what').text()).toBe('Su refused this push: no such room.');
    expect(wrapper.text()).toContain('Nothing changed at Su.');
    expect(wrapper.findAll('.problem__actions button').map((b) => b.text())).toEqual(['Retry', 'Discard']);
    // What follows the choices comes after them.
    expect(wrapper.html().indexOf('Could not discard.')).toBeGreaterThan(wrapper.html().indexOf('Discard</button>'));
  });

  it('is amber when nobody knows whether it arrived, and leaves out parts it was not given', () => {
    const wrapper = mount(ProblemNote, { props: { unsure: true }, slots: { default: '<p>Check on Airbnb.</p>' } });
    expect(wrapper.classes()).toContain('problem--unsure');
    expect(wrapper.find('.problem__what').exists()).toBe(false);
    expect(wrapper.find('.problem__actions').exists()).toBe(false);
    expect(wrapper.text()).toBe('Check on Airbnb.');
  });
});

describe('NoSession', () => {
  it('says how to open the app', () => {
    const wrapper = mount(NoSession, { global: { plugins: [PrimeVue] } });
    expect(wrapper.text()).toContain('This page was opened without its session link.');
    expect(wrapper.text()).toContain('Open the address Innkeeper printed when it started');
    expect(wrapper.get('code').text()).toBe('?session=…');
  });
});

describe('useChoices', () => {
  it('names the choice being made, and keeps why the last one failed until one is made', async () => {
    const { busy, failure, choose } = useChoices<'retry' | 'discard'>();
    let answer: (error: AppError | null) => void = () => undefined;
    const made = choose('retry', () => new Promise((resolve) => (answer = resolve)));
    expect(busy.value).toBe('retry');
    const refused: AppError = { code: 'refused', message: 'Su said no.' };
    answer(refused);
    expect(await made).toBe(refused);
    expect(busy.value).toBeNull();
    expect(failure.value).toBe(refused);
    expect(await choose('discard', async () => null)).toBeNull();
    expect(failure.value).toBeNull();
  });

  it('is not busy any more when making a choice throws', async () => {
    const { busy, choose } = useChoices<'retry'>();
    await expect(
      choose('retry', async () => {
        throw new Error('the app went away');
      }),
    ).rejects.toThrow('the app went away');
    expect(busy.value).toBeNull();
  });
});

describe('ChoiceButtons', () => {
  const KINDS = [
    { value: 'card', label: 'Payment link' },
    { value: 'widget', label: 'Card details for a booking' },
  ];

  it('shows each choice by its label, marks the chosen one, and sets the one clicked', async () => {
    const kind = ref('card');
    const Parent = defineComponent(
      () => () =>
        h(ChoiceButtons, {
          modelValue: kind.value,
          'onUpdate:modelValue': (v: unknown) => (kind.value = v as string),
          options: KINDS,
          'aria-label': 'What kind of link',
          'data-testid': 'link-kind',
        }),
    );
    const wrapper = mount(Parent, { global: { plugins: [PrimeVue] } });
    const group = wrapper.get('[data-testid="link-kind"]');
    expect(group.attributes('aria-label')).toBe('What kind of link');
    const buttons = group.findAll('button');
    expect(buttons.map((b) => b.text())).toEqual(['Payment link', 'Card details for a booking']);
    expect(buttons[0]!.attributes('aria-pressed')).toBe('true');
    await buttons[1]!.trigger('click');
    expect(kind.value).toBe('widget');
    // One is always chosen: the chosen one clicked again stays chosen.
    await buttons[1]!.trigger('click');
    expect(kind.value).toBe('widget');
  });

  it('draws a choice its own way when given the option slot', () => {
    const wrapper = mount(ChoiceButtons, {
      props: { modelValue: 'all', options: [{ value: 'all', label: 'All', count: 3 }] },
      slots: {
        option: '<template #option="{ option }"><b>{{ option.label }}</b> <i>{{ option.count }}</i></template>',
      },
      global: { plugins: [PrimeVue] },
    });
    expect(wrapper.get('b').text()).toBe('All');
    expect(wrapper.get('i').text()).toBe('3');
  });
});
