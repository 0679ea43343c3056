import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { reactive } from 'vue';
import type { NoticesView } from '@shared/notices';
import type { FacilitiesView, PropertyPreview } from '@shared/property';
import type { PropertySetup } from '@shared/rateSetups';
import { ok } from '@shared/result';
import DetailsAddress from '@renderer/features/property/details/DetailsAddress.vue';
import DetailsIdentity from '@renderer/features/property/details/DetailsIdentity.vue';
import { useDetailsStore } from '@renderer/features/property/details/detailsStore';
import LanguagePicker from '@renderer/features/property/details/LanguagePicker.vue';
import ChannelIdsForm from '@renderer/features/property/facilities/ChannelIdsForm.vue';
import CodePicker from '@renderer/features/property/facilities/CodePicker.vue';
import DetailFields from '@renderer/features/property/facilities/DetailFields.vue';
import { DETAIL_FIELDS } from '@renderer/features/property/facilities/detailSpecs';
import NoticeRow from '@renderer/features/property/notices/NoticeRow.vue';
import ChangesTable from '@renderer/features/property/push/ChangesTable.vue';
import ClosedFields from '@renderer/features/property/facilities/ClosedFields.vue';
import { useFacilitiesStore } from '@renderer/features/property/facilities/facilitiesStore';
import InstanceEditor from '@renderer/features/property/facilities/InstanceEditor.vue';
import NoticesTab from '@renderer/features/property/notices/NoticesTab.vue';
import { useNoticesStore } from '@renderer/features/property/notices/noticesStore';
import { usePropertyStore } from '@renderer/features/property/propertyStore';
import ScheduleFields from '@renderer/features/property/facilities/ScheduleFields.vue';
import PreviewDialog from '@renderer/features/property/push/PreviewDialog.vue';
import type { DraftFlow } from '@renderer/features/property/push/types';
import { installFakeApi } from './fakeApi';
import { detailsRecord, detailsView } from './propertyFixtures';

const setup: PropertySetup = {
  hotelId: 'H1',
  name: 'Harbour View',
  channels: ['19'],
  rooms: [{ id: 'DBL', name: 'Double', inventory: 2, rates: [] }],
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

function flowWith(preview: PropertyPreview) {
  const send = vi.fn(async () => null);
  const flow = reactive({
    section: 'facilities',
    changed: true,
    saveState: 'saved',
    saveError: null,
    pending: null,
    preview,
    previewError: null,
    previewLoading: false,
    dialogOpen: true,
    lastPushId: null,
    refreshPreview: async () => undefined,
    discardDraft: async () => null,
    openPreview: () => undefined,
    closePreview: () => (flow.dialogOpen = false),
    dismissPush: () => undefined,
    load: async () => undefined,
    send,
  }) as DraftFlow & { dialogOpen: boolean };
  return { flow, send };
}

describe('the preview dialog', () => {
  const creating: PropertyPreview = {
    request: { hotel_id: 'H1', facilities: [] },
    changes: [{ path: 'facilities.0.is_available', label: 'Swimming pool', before: null, after: 'available' }],
    problems: {},
    creates: [{ facilityId: '433', key: 'k', what: 'a new Swimming pool instance (“Rooftop”)' }],
    fingerprint: 'f'.repeat(64),
  };

  it('shows the exact request and the changes, and sends what creates instances only once the owner confirms', async () => {
    const { flow, send } = flowWith(creating);
    mountIt(PreviewDialog, {
      flow,
      title: 'facilities',
      endpoint: 'POST',
      describe: (p: string) => p,
      locate: () => [],
    });
    await flushPromises();
    const dialog = document.querySelector('[data-testid="preview-dialog"]')!;
    expect(dialog.querySelector('[data-testid="preview-request"]')?.textContent).toContain('"hotel_id": "H1"');
    expect(dialog.querySelectorAll('[data-testid="diff-row"]')).toHaveLength(1);
    expect(dialog.querySelector('[data-testid="preview-create"]')?.textContent).toBe(
      'a new Swimming pool instance (“Rooftop”)',
    );

    const sendButton = dialog.querySelector<HTMLButtonElement>('[data-testid="send-button"]')!;
    expect(sendButton.disabled).toBe(true);
    dialog.querySelector<HTMLInputElement>('[data-testid="confirm-creates"] input')!.click();
    await flushPromises();
    expect(sendButton.disabled).toBe(false);
    sendButton.click();
    await flushPromises();
    expect(send).toHaveBeenCalledWith(true);
    expect(flow.dialogOpen).toBe(false);
  });

  it('sends nothing while a problem is left, and lists it in words', async () => {
    const { flow } = flowWith({
      ...creating,
      request: null,
      fingerprint: null,
      creates: [],
      problems: { '0.instances.0.instanceId': 'Enter its id.' },
    });
    mountIt(PreviewDialog, {
      flow,
      title: 'facilities',
      endpoint: 'POST',
      describe: () => 'Parking, instance 1',
      locate: () => [],
    });
    await flushPromises();
    const dialog = document.querySelector('[data-testid="preview-dialog"]')!;
    expect(dialog.querySelector('[data-testid="preview-problems"]')?.textContent).toContain(
      'Parking, instance 1: Enter its id.',
    );
    expect(dialog.querySelector<HTMLButtonElement>('[data-testid="send-button"]')!.disabled).toBe(true);
  });
});

describe('an instance of a facility', () => {
  it('says when Su created it, and shows the preview’s problem at its id field', () => {
    const wrapper = mountIt(InstanceEditor, {
      facilityId: '2',
      instance: { key: 'k', instanceId: null, details: { parking_details: { name: 'Garage' } } },
      record: {
        key: 'k',
        instanceId: null,
        details: { parking_details: { name: 'Garage' } },
        createdAt: Date.UTC(2026, 0, 5),
      },
      index: 0,
      problems: { instanceId: 'Enter its id from the Booking.com extranet to change it.' },
      idPrefix: 'facility-2-0',
    });
    expect(wrapper.get('[data-testid="instance-created"]').text()).toContain('created at Su on');
    expect(wrapper.get('[data-testid="instance-id-error"]').text()).toContain(
      'Enter its id from the Booking.com extranet',
    );
    expect(wrapper.get('[data-testid="instance-id"]').attributes('aria-describedby')).toBe('facility-2-0-id-error');
    // Exactly the detail objects parking takes: the ones not there yet can be added.
    expect(wrapper.findAll('[data-testid^="add-detail-"]').map((b) => b.attributes('data-testid'))).toEqual([
      'add-detail-payment_details',
      'add-detail-schedule_details',
    ]);
    // An instance Su holds cannot be removed through Su.
    expect(wrapper.find('[data-testid="remove-instance"]').exists()).toBe(false);
  });
});

describe('the Booking.com ids', () => {
  it('asks for them first, saying why, with a field for the property and each room', async () => {
    installFakeApi({});
    usePropertyStore().properties = [setup];
    usePropertyStore().hotelId = 'H1';
    const facilities = useFacilitiesStore();
    facilities.view = { channelIds: { channelHotelId: null, rooms: {} } } as unknown as FacilitiesView;
    const wrapper = mountIt(ChannelIdsForm, { required: true });
    expect(wrapper.get('[data-testid="channel-ids-why"]').text()).toContain('Su cannot look them up');
    expect(wrapper.find('label[for="channel-hotel-id"]').text()).toBe('Booking.com property id');
    expect(wrapper.find('label[for="channel-room-DBL"]').text()).toBe('Booking.com room id of Double');
  });
});

describe('the notices tab', () => {
  const view = (over: Partial<NoticesView>): NoticesView => ({
    notices: [],
    accounts: [],
    checks: [],
    unseen: 0,
    hotelIds: ['H1'],
    ...over,
  });

  async function show(v: NoticesView) {
    installFakeApi({ 'notices.list': () => ok(v) });
    usePropertyStore().properties = [setup];
    usePropertyStore().hotelId = 'H1';
    await useNoticesStore().open('H1');
    return mountIt(NoticesTab);
  }

  it('says a property without Airbnb is not checked', async () => {
    const wrapper = await show(view({ hotelIds: ['H2'] }));
    expect(wrapper.get('[data-testid="notices-not-checked"]').text()).toContain('Airbnb (channel 244)');
  });

  it('says once that the call fails, with when it last worked, and a failing account on that account', async () => {
    const wrapper = await show(
      view({
        checks: [
          {
            hotelId: 'H1',
            lastOkAt: Date.UTC(2026, 0, 5, 9),
            lastTriedAt: 2,
            error: { code: 'provider', message: 'Su is down' },
            nextAt: null,
          },
        ],
        accounts: [
          { hotelId: 'H1', accountId: 'A1', ok: false, message: 'Token revoked', checkedAt: 1 },
          { hotelId: 'H1', accountId: 'A2', ok: true, message: null, checkedAt: 1 },
        ],
        notices: [
          {
            id: 1,
            hotelId: 'H1',
            accountId: 'A2',
            notificationId: 'n',
            type: 'PAYOUT',
            title: 'Old',
            subtitle: '',
            actionUrl: null,
            firstSeenAt: 5,
            seenAt: 6,
          },
          {
            id: 2,
            hotelId: 'H1',
            accountId: 'A2',
            notificationId: 'm',
            type: 'PAYOUT',
            title: 'New',
            subtitle: '',
            actionUrl: 'https://a.example/x',
            firstSeenAt: 1,
            seenAt: null,
          },
        ],
      }),
    );
    expect(wrapper.findAll('[data-testid="notices-check-error"]')).toHaveLength(1);
    expect(wrapper.get('[data-testid="notices-check-error"]').text()).toContain('Su is down');
    expect(wrapper.get('[data-testid="notices-check-error"]').text()).toContain('It last worked');
    const accounts = wrapper.findAll('[data-testid="notice-account"]');
    expect(accounts[0]!.get('[data-testid="notice-account-error"]').text()).toContain('Token revoked');
    expect(accounts[1]!.find('[data-testid="notice-account-error"]').exists()).toBe(false);
    // Unseen first; only an unseen one can be marked seen; the call to action only where there is one.
    const rows = accounts[1]!.findAll('[data-testid="notice-row"]');
    expect(rows.map((r) => r.attributes('data-seen'))).toEqual(['false', 'true']);
    expect(rows[0]!.find('[data-testid="notice-mark-seen"]').exists()).toBe(true);
    expect(rows[0]!.find('[data-testid="notice-open"]').exists()).toBe(true);
    expect(rows[1]!.find('[data-testid="notice-mark-seen"]').exists()).toBe(false);
    expect(rows[1]!.find('[data-testid="notice-open"]').exists()).toBe(false);
  });
});

describe('the rows of a facility’s details', () => {
  it('adds, names and removes closed periods, and asks for both days of one', async () => {
    const wrapper = mountIt(ClosedFields, { value: { closed: [] }, problems: {}, idPrefix: 'f-2-0-closed' });
    expect(wrapper.findAll('[data-testid="closed-row"]')).toHaveLength(0);
    await wrapper.get('button').trigger('click');
    expect(wrapper.emitted('update')).toEqual([[{ closed: [{}] }]]);

    await wrapper.setProps({ value: { closed: [{ start_date: Date.UTC(2026, 5, 1) }, {}] } });
    const rows = wrapper.findAll('[data-testid="closed-row"]');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.find('label[for="f-2-0-closed-closed-from-0"]').text()).toBe('Closed from');
    expect(rows[0]!.find('label[for="f-2-0-closed-closed-until-0"]').text()).toBe('Closed until');
    expect(rows[0]!.get('[role="alert"]').text()).toBe('Choose the first and the last day it is closed.');
    await rows[1]!.get('button[aria-label="Remove closed period 2"]').trigger('click');
    expect(wrapper.emitted('update')?.[1]).toEqual([{ closed: [{ start_date: Date.UTC(2026, 5, 1) }] }]);
  });

  it('says when there are no hours, adds the next day with the last hours, and shows a row’s problem', async () => {
    const wrapper = mountIt(ScheduleFields, { value: {}, problems: {}, idPrefix: 'f-2-0-schedule' });
    expect(wrapper.text()).toContain('No hours yet: add a day and its hours.');
    await wrapper.get('[data-testid="schedule-add"]').trigger('click');
    expect(wrapper.emitted('update')?.[0]).toEqual([
      { schedule: [{ day_of_week: 'MONDAY', from: { hours: 9, minutes: 0 }, to: { hours: 17, minutes: 0 } }] },
    ]);

    const monday = { day_of_week: 'MONDAY', from: { hours: 8, minutes: 0 }, to: { hours: 12, minutes: 30 } };
    await wrapper.setProps({ value: { schedule: [monday] }, problems: { 'schedule.0.to': 'Closes before it opens.' } });
    expect(wrapper.find('label[for="f-2-0-schedule-from-0"]').text()).toBe('Open from');
    expect(wrapper.find('label[for="f-2-0-schedule-to-0"]').text()).toBe('Open to');
    expect(wrapper.get('[data-testid="schedule-row"] [role="alert"]').text()).toBe('Closes before it opens.');
    await wrapper.get('[data-testid="schedule-add"]').trigger('click');
    expect(wrapper.emitted('update')?.[1]).toEqual([
      { schedule: [monday, { day_of_week: 'TUESDAY', from: monday.from, to: monday.to }] },
    ]);
    await wrapper.get('button[aria-label="Remove hours row 1"]').trigger('click');
    expect(wrapper.emitted('update')?.[2]).toEqual([{ schedule: [] }]);
  });
});

// The property screens speak in words: a code or a request path never reaches the owner outside the exact request,
// and nothing typed into a field is cut.

async function openDetails() {
  const view = detailsView({}, { ...detailsRecord, property_category: 20 });
  installFakeApi({ 'property.details': () => ok(view), 'property.saveDetailsDraft': () => ok(view) });
  const details = useDetailsStore();
  await details.open('H1');
  return details;
}

describe('the details in words', () => {
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

  it('a language shows by its name in its box, and a name typed whole is kept as its tag', () => {
    const wrapper = mountIt(LanguagePicker, { modelValue: 'da', inputId: 'lang', testid: 'lang' });
    expect(wrapper.find<HTMLInputElement>('#lang').element.value).toBe('Danish · da');
    wrapper.findComponent({ name: 'AutoComplete' }).vm.$emit('update:modelValue', 'german');
    expect(wrapper.emitted('update:modelValue')!.at(-1)).toEqual(['de']);
  });

  it('a value Su holds that is not in the list reads as words too', () => {
    const wrapper = mountIt(DetailFields, {
      specs: DETAIL_FIELDS.parking_details,
      value: { parking_location: 'UNDER_GROUND' },
      problems: {},
      idPrefix: 'p',
    });
    expect(wrapper.text()).toContain('Under ground (not in the list)');
    expect(wrapper.text()).not.toContain('UNDER_GROUND');
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
