import { flushPromises, mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { beforeEach, describe, expect, it } from 'vitest';
import CodeSearch from '@renderer/features/property/CodeSearch.vue';
import LanguagePicker from '@renderer/features/property/details/LanguagePicker.vue';
import CodePicker from '@renderer/features/property/facilities/CodePicker.vue';

// The language field of the details and the code fields of a facility's details share CodeSearch: a code found by
// its name or typed, offered by name with the code beside it.
beforeEach(() => {
  document.body.innerHTML = '';
});
const global = { plugins: [PrimeVue] };
const COLOURS = ['RED', 'GREEN', 'BLUE'];
const nameOf = (code: string) => code.charAt(0) + code.slice(1).toLowerCase();
const search = (query: string, chosen: string[]) =>
  COLOURS.filter((c) => !chosen.includes(c) && nameOf(c).toLowerCase().includes(query.toLowerCase()));

describe('CodeSearch', () => {
  it('offers what fits what is typed, leaving out what is chosen, each by its name with the code beside it', async () => {
    const wrapper = mount(CodeSearch, {
      props: {
        modelValue: ['RED'],
        multiple: true,
        inputId: 'colours',
        testid: 'colours',
        search,
        nameOf,
        dropdownLabel: 'Show',
      },
      global,
      attachTo: document.body,
    });
    const auto = wrapper.findComponent({ name: 'AutoComplete' });
    auto.vm.$emit('complete', { query: 'e' });
    await flushPromises();
    expect(auto.props('suggestions')).toEqual(['GREEN', 'BLUE']);
    expect(auto.props('inputId')).toBe('colours');
    expect(wrapper.find('[data-testid="colours"]').exists()).toBe(true);
    auto.vm.$emit('update:modelValue', ['RED', 'BLUE']);
    expect(wrapper.emitted('pick')).toEqual([[['RED', 'BLUE']]]);
    wrapper.unmount();
  });

  it('shows an empty box for nothing chosen, one or several', () => {
    const one = mount(CodeSearch, {
      props: { modelValue: undefined, inputId: 'a', search, nameOf, dropdownLabel: 'Show' },
      global,
    });
    expect(one.findComponent({ name: 'AutoComplete' }).props('modelValue')).toBe('');
    const many = mount(CodeSearch, {
      props: { modelValue: undefined, multiple: true, inputId: 'b', search, nameOf, dropdownLabel: 'Show' },
      global,
    });
    expect(many.findComponent({ name: 'AutoComplete' }).props('modelValue')).toEqual([]);
  });
});

describe('the pickers built on it', () => {
  it('CodePicker offers a code typed in upper case first, and keeps a code typed as a code', async () => {
    const wrapper = mount(CodePicker, {
      props: { modelValue: undefined, values: ['ON_SITE', 'NEARBY'], inputId: 'where' },
      global,
    });
    const auto = wrapper.findComponent({ name: 'AutoComplete' });
    auto.vm.$emit('complete', { query: 'garage' });
    await flushPromises();
    expect(auto.props('suggestions')).toEqual(['GARAGE']);
    auto.vm.$emit('update:modelValue', ' nearby ');
    expect(wrapper.emitted('update:modelValue')!.at(-1)).toEqual(['NEARBY']);
    auto.vm.$emit('update:modelValue', '');
    expect(wrapper.emitted('update:modelValue')!.at(-1)).toEqual([undefined]);
  });

  it('LanguagePicker finds languages by name, and keeps several as a list', async () => {
    const wrapper = mount(LanguagePicker, {
      props: { modelValue: ['en'], multiple: true, inputId: 'spoken', testid: 'details-languages_spoken' },
      global,
    });
    const auto = wrapper.findComponent({ name: 'AutoComplete' });
    auto.vm.$emit('complete', { query: 'Danish' });
    await flushPromises();
    expect(auto.props('suggestions')).toContain('da');
    auto.vm.$emit('update:modelValue', ['en', 'da']);
    expect(wrapper.emitted('update:modelValue')!.at(-1)).toEqual([['en', 'da']]);
    expect(wrapper.find('[data-testid="details-languages_spoken"]').exists()).toBe(true);
  });
});
