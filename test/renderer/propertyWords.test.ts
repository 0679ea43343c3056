import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { beforeEach, describe, expect, it } from 'vitest';
import { detailsFormOf, type DetailsView, type PropertyUpdate } from '@shared/property';
import { ok } from '@shared/result';
import DetailsIdentity from '@renderer/features/property/details/DetailsIdentity.vue';
import DetailsAddress from '@renderer/features/property/details/DetailsAddress.vue';
import { useDetailsStore } from '@renderer/features/property/details/detailsStore';
import CodePicker from '@renderer/features/property/facilities/CodePicker.vue';
import NoticeRow from '@renderer/features/property/notices/NoticeRow.vue';
import ChangesTable from '@renderer/features/property/push/ChangesTable.vue';
import { installFakeApi } from './fakeApi';

// The property screens speak in words: a code or a request path never reaches the owner outside the exact request,
// and nothing typed into a field is cut.

const record: PropertyUpdate = {
  hotel_id: 'H1',
  legal_entity_id: 'LE-1',
  position: { latitude: 51.5, longitude: -0.12 },
  check_in: { from: '15:00' },
  check_out: { until: '11:00' },
  property_name: 'Harbour View',
  property_category: 20,
  room_count: 4,
  target: 'production',
  physical_address: { city_name: 'London', country_code: 'GB', address_line: '1 Quay St', display_address: true },
};
const view: DetailsView = {
  hotelId: 'H1',
  record,
  confirmedAt: 1,
  form: detailsFormOf(record),
  hasDraft: false,
  pending: null,
};

let pinia: Pinia;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  document.body.innerHTML = '';
});
const mountIt = <C>(component: C, props: Record<string, unknown> = {}) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  mount(component as any, { props, global: { plugins: [PrimeVue, pinia] }, attachTo: document.body });

async function openDetails() {
  installFakeApi({ 'property.details': () => ok(view), 'property.saveDetailsDraft': () => ok(view) });
  const details = useDetailsStore();
  await details.open('H1');
  return details;
}

describe('the details', () => {
  it('show the kind of property by its name with its number, and keep a name typed as its number', async () => {
    const details = await openDetails();
    const wrapper = mountIt(DetailsIdentity);
    const input = wrapper.find<HTMLInputElement>('#details-property_category');
    expect(input.element.value).toBe('Hotel (20)');
    const auto = wrapper.findComponent({ name: 'AutoComplete' });
    auto.vm.$emit('complete', { query: 'guest' });
    await flushPromises();
    expect(auto.props('suggestions')).toEqual(['15', '16']);
    expect(wrapper.text()).not.toContain('e.g. 204');
    auto.vm.$emit('update:modelValue', 'Guest house');
    expect(details.form.property_category).toBe('16');
    auto.vm.$emit('blur', new Event('blur'));
    await flushPromises();
    expect(input.element.value).toBe('Guest house (16)');
  });

  it('cut nothing typed: a long name stays whole, and the field says how much is too long', async () => {
    const details = await openDetails();
    const wrapper = mountIt(DetailsIdentity);
    const name = wrapper.find<HTMLInputElement>('[data-testid="details-property_name"]');
    expect(name.attributes('maxlength')).toBeUndefined();
    await name.setValue('n'.repeat(230));
    expect(details.form.property_name).toHaveLength(230);
    expect(wrapper.find('[data-testid="details-property_name-error"]').text()).toContain('(this is 230, 30 too many)');
    for (const input of mountIt(DetailsAddress).findAll('input')) expect(input.attributes('maxlength')).toBeUndefined();
  });

  it('say a latitude typed as letters is not a number, with its range', async () => {
    await openDetails();
    const wrapper = mountIt(DetailsAddress);
    await wrapper.find('[data-testid="details-position.latitude"]').setValue('abc');
    expect(wrapper.find('[data-testid="details-position.latitude-error"]').text()).toContain(
      'Latitude is not a number: write decimal degrees from −90 to 90',
    );
  });
});

describe('the facilities’ codes', () => {
  it('show in words in the box and on the chips, and a name typed is kept as its code', async () => {
    const one = mountIt(CodePicker, {
      modelValue: 'ONLY_GUESTS',
      values: ['ONLY_GUESTS', 'GENERAL_PUBLIC'],
      inputId: 'access',
    });
    expect(one.find<HTMLInputElement>('#access').element.value).toBe('Guests only');
    const auto = one.findComponent({ name: 'AutoComplete' });
    auto.vm.$emit('update:modelValue', 'anyone (public parking)');
    expect(one.emitted('update:modelValue')!.at(-1)).toEqual(['GENERAL_PUBLIC']);
    auto.vm.$emit('complete', { query: 'guests' });
    await flushPromises();
    expect(document.body.textContent).not.toMatch(/ONLY_GUESTS|GENERAL_PUBLIC/);

    const many = mountIt(CodePicker, {
      modelValue: ['HALAL', 'GLUTEN_FREE'],
      values: ['HALAL', 'GLUTEN_FREE'],
      inputId: 'meals',
      multiple: true,
    });
    expect(many.text()).toContain('Halal');
    expect(many.text()).toContain('Gluten-free');
    expect(many.html()).not.toMatch(/GLUTEN_FREE|HALAL/);
  });

  it('a change lists its field in words, not its path', () => {
    const wrapper = mountIt(ChangesTable, {
      changes: [
        {
          path: '2.instances.0.parking_details.parking_access',
          label: 'Parking, instance 1: Who may park',
          before: 'Guests only',
          after: 'Anyone (public parking)',
        },
      ],
    });
    expect(wrapper.text()).toContain('Parking, instance 1: Who may park');
    expect(wrapper.text()).not.toContain('instances');
  });

  it('a notice’s kind reads as words', () => {
    installFakeApi({});
    const wrapper = mountIt(NoticeRow, {
      notice: {
        id: 1,
        hotelId: 'H1',
        accountId: 'A',
        notificationId: 'n',
        type: 'PAYOUT',
        title: 'Your listing may be suspended',
        subtitle: '',
        actionUrl: null,
        firstSeenAt: 1,
        seenAt: null,
      },
    });
    // Airbnb's known kinds by the owner's word for them (PAYOUT is about payouts), not the code read aloud.
    expect(wrapper.find('.notice__type').text()).toBe('Payouts');
  });
});
