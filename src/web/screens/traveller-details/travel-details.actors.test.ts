import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEVICE_UUID,
  LEAD_UUID,
  OTHER_LEAD_UUID,
  SAMPLE_SAVED,
  SAMPLE_SAVED_NO_QUOTE,
  SAMPLE_VALUES,
  recentSearch,
} from '../../../../machines/travel-details/travel-details.model';
import * as referenceService from '../../services/reference.service';
import { localStore } from '../../storage/local-store';
import { loadTravelDetailsReference, mergeRecentLeads, storeResumedLead, storeSubmittedLead } from './travel-details.actors';

vi.mock('../../services/reference.service', () => ({
  fetchCountryOptions: vi.fn(),
  fetchCountryCodeOptions: vi.fn(),
  fetchTravelConfigs: vi.fn(),
}));
const reference = vi.mocked(referenceService);

afterEach(() => localStorage.clear());

describe('loadTravelDetailsReference', () => {
  it('leaves Lebanon out of the countries and takes the limits from the travel configs', async () => {
    reference.fetchCountryOptions.mockResolvedValue([
      { value: '250', label: 'France' },
      { value: '422', label: 'Lebanon' },
    ]);
    reference.fetchCountryCodeOptions.mockResolvedValue([{ value: '+961', label: 'Lebanon (+961)' }]);
    reference.fetchTravelConfigs.mockResolvedValue({ maxTravellerCount: 6, familyChildMaxAge: 16 } as Awaited<
      ReturnType<typeof referenceService.fetchTravelConfigs>
    >);
    expect(await loadTravelDetailsReference('ar')).toEqual({
      countries: [{ value: '250', label: 'France' }],
      phoneCodes: [{ value: '+961', label: 'Lebanon (+961)' }],
      maxTravellers: 6,
      familyChildMaxAge: 16,
    });
    expect(reference.fetchCountryOptions).toHaveBeenCalledWith('ar');
  });
});

describe('mergeRecentLeads', () => {
  it('keeps the leads first and lists each lead once', () => {
    const a = recentSearch(LEAD_UUID, 1);
    const b = recentSearch(OTHER_LEAD_UUID, 2);
    expect(mergeRecentLeads([a], [{ ...a, stage: 3 }, b])).toEqual([a, b]);
  });
});

describe('storage after the step (spec §3 locally stored keys)', () => {
  it('stores the saved lead, its session, the device, the map id, the details and traveller index 0', () => {
    storeSubmittedLead(SAMPLE_SAVED, SAMPLE_VALUES);
    expect(['uuid', 'session_id', 'device_uuid', 'map_id', 'traveller_index'].map((key) => localStore.get(key as never))).toEqual([
      SAMPLE_SAVED.uuid,
      SAMPLE_SAVED.sessionId,
      DEVICE_UUID,
      '77',
      '0',
    ]);
    expect(JSON.parse(localStore.get('personal_details')!)).toEqual(SAMPLE_VALUES);
  });

  it('sets the thankyou flag for a lead kept for a manual quote, and clears it once a lead quotes online', () => {
    storeSubmittedLead(SAMPLE_SAVED_NO_QUOTE, SAMPLE_VALUES);
    expect([localStore.get('thankyou'), localStore.get('thankyou_lead'), localStore.get('uuid')]).toEqual(['1', SAMPLE_SAVED_NO_QUOTE.uuid, SAMPLE_SAVED_NO_QUOTE.uuid]);
    storeSubmittedLead(SAMPLE_SAVED, SAMPLE_VALUES);
    expect([localStore.get('thankyou'), localStore.get('thankyou_lead')]).toEqual([null, null]);
  });

  it('stores a lead picked from the chooser with traveller index 0', () => {
    localStore.set('traveller_index', '2');
    localStore.set('thankyou', '1');
    storeResumedLead(OTHER_LEAD_UUID);
    expect([localStore.get('uuid'), localStore.get('traveller_index'), localStore.get('thankyou')]).toEqual([OTHER_LEAD_UUID, '0', null]);
  });
});
