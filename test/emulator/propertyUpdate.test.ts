import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulatorHarness, type EmulatorHarness } from '../support/emulatorHarness';
import { createEmulatorControl } from '../../src/emulator/controlClient';

/** Endpoint 4, property update: success, the stored record and every failure form. */
describe('property update', () => {
  let h: EmulatorHarness;
  beforeEach(async () => {
    h = await startEmulatorHarness();
  });
  afterEach(() => h.close());

  const valid = {
    hotel_id: 'IK-DEMO-001',
    legal_entity_id: 'LE-40021',
    position: { latitude: 55.6761, longitude: 12.5683 },
    check_in: { from: '14:00', until: '22:00' },
    check_out: { from: '07:00', until: '11:00' },
    property_name: 'Harbour View Guesthouse',
    property_category: 20,
    primary_language: 'en-gb',
    languages_spoken: ['en-gb', 'da'],
    room_count: 9,
    floor_count: 3,
    stars: '3',
    target: 'test',
    currency_code: 'EUR',
    physical_address: {
      city_name: 'Copenhagen',
      country_code: 'DK',
      postal_code: '1051',
      address_line: 'Nyhavn 12',
      display_address: true,
    },
    translations: {
      language_code: 'da',
      city_name: 'København',
      address_line: 'Nyhavn 12',
      property_name: 'Havneudsigt Gæstehus',
    },
  };

  it('accepts a valid update, answers with the channel property id and keeps the record', async () => {
    const answer = await h.main('bdc/property/update', valid);
    expect(answer).toMatchObject({
      status: 200,
      body: { Status: 'Success', Data: { property_id: '7741203' }, Message: expect.any(String) },
    });
    const content = (await (await createEmulatorControl(h.emulator).raw(`/content?hotelid=IK-DEMO-001`)).json()) as {
      propertyRecord: unknown;
    };
    expect(content.propertyRecord).toEqual(valid);
  });

  it('a property name with CJK ideographs is refused, naming the field', async () => {
    const answer = await h.main('bdc/property/update', { ...valid, property_name: 'Harbour 港景' });
    expect(answer).toMatchObject({
      status: 400,
      body: { Status: 'Fail', Errors: [], Message: expect.stringMatching(/^property_name: .*CJK ideographs/) },
    });
  });

  it('a legal entity without a valid contract fails with a Message', async () => {
    const answer = await h.main('bdc/property/update', { ...valid, legal_entity_id: 'LE-99999' });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        Status: 'Fail',
        Errors: [],
        Message: expect.stringMatching(/legal entity LE-99999 does not have a valid contract/),
      },
    });
  });

  it('an unknown hotel fails with code 400', async () => {
    expect((await h.main('bdc/property/update', { ...valid, hotel_id: 'NOPE' })).body).toMatchObject({
      Status: 'Fail',
      Errors: [{ Code: '400' }],
    });
  });

  it.each([
    ['property_name', { property_name: undefined }, 'property_name: is required'],
    ['position', { position: { latitude: 95, longitude: 0 } }, 'position.latitude: must be at most 90'],
    ['check_in time', { check_in: { from: '14:15' } }, /check_in\.from: "14:15" is not an accepted time/],
    ['check_out until with a from', { check_out: { from: '07:00' } }, /check_out\.until: is required/],
    ['target', { target: 'live' }, 'target: "live" is not one of the accepted values: [test, production]'],
    [
      'country_code',
      { physical_address: { ...valid.physical_address, country_code: 'Denmark' } },
      /physical_address\.country_code: must be an ISO 3166-1/,
    ],
    ['room_count', { room_count: 2.5 }, 'room_count: must be an integer'],
    ['translations', { translations: { language_code: 'da' } }, 'translations.city_name: is required'],
  ])('a bad %s fails naming the field', async (_name, change, message) => {
    const answer = await h.main<{ Message: string }>('bdc/property/update', { ...valid, ...change });
    expect(answer).toMatchObject({ status: 400, body: { Status: 'Fail', Errors: [] } });
    expect(answer.body.Message).toMatch(message);
  });
});
