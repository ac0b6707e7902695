// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { annualEndDate } from '../../../../contract/dates';
import { HOME_COUNTRY_ID, TRIP_TYPE } from '../../../../contract/travel-details.rules';
import {
  cleanPhoneDigits,
  submittedValues,
  tripLength,
  withDirection,
  withEndDate,
  withPhoneCode,
  withStartDate,
  withTravellerCount,
  withTripType,
} from './travel-details-values';
import { blankValues } from '../../../../../machines/travel-details/travel-details.payload';
import { EMPTY_PREFILL } from '../../../../../machines/travel-details/travel-details.model';

const TODAY = '2026-06-15';

describe('travel details values (spec §4)', () => {
  it('the direction toggle sets Lebanon on the fixed side and clears the picked side (RULINGS 4)', () => {
    const from = { ...blankValues(EMPTY_PREFILL), destination_id: [250] };
    const to = withDirection(from, false);
    expect(to).toMatchObject({ inbound_outbound: false, destination_id: [HOME_COUNTRY_ID], source_id: null });
    const back = withDirection({ ...to, source_id: 826 }, true);
    expect(back).toMatchObject({ inbound_outbound: true, destination_id: [], source_id: HOME_COUNTRY_ID });
  });

  it('clears the end date when the start is emptied or moves after it', () => {
    const values = { ...blankValues(EMPTY_PREFILL), start_date: '2026-07-01', end_date: '2026-07-10' };
    expect(withStartDate(values, null, TODAY).end_date).toBeNull();
    expect(withStartDate(values, '2026-07-11', TODAY).end_date).toBeNull();
    expect(withStartDate(values, '2026-07-10', TODAY).end_date).toBe('2026-07-10');
  });

  it('row 6: an end date typed or picked while the start date is empty is cleared (spec §4)', () => {
    const blank = blankValues(EMPTY_PREFILL);
    expect(blank.start_date).toBeNull();
    expect(withEndDate(blank, '2026-07-10').end_date).toBeNull();
  });

  it('row 6: an end date before the start is cleared; one on or after it is kept', () => {
    const values = { ...blankValues(EMPTY_PREFILL), start_date: '2026-07-05' };
    expect(withEndDate(values, '2026-07-04').end_date).toBeNull();
    expect(withEndDate(values, '2026-07-05').end_date).toBe('2026-07-05');
    expect(withEndDate(values, '2026-07-10').end_date).toBe('2026-07-10');
    expect(withEndDate({ ...values, end_date: '2026-07-10' }, null).end_date).toBeNull();
  });

  it('annual trips end 12 months less a day after the start and follow it (RULINGS 6)', () => {
    const values = withTripType({ ...blankValues(EMPTY_PREFILL), start_date: '2026-07-01' }, TRIP_TYPE.annual, TODAY);
    expect(values.end_date).toBe('2027-06-30');
    expect(withStartDate(values, '2028-02-29', TODAY).end_date).toBe(annualEndDate('2028-02-29'));
  });

  it('the traveller list follows the count; removed saved travellers go to deleted_members', () => {
    const three = withTravellerCount({ ...blankValues(EMPTY_PREFILL), is_family: true }, 3);
    expect(three.travellers_info).toHaveLength(3);
    const saved = { ...three, travellers_info: three.travellers_info.map((t, i) => ({ ...t, id: 7 + i })) };
    const one = withTravellerCount(saved, 1);
    expect(one.travellers_info.map((t) => t.id)).toEqual([7]);
    expect(one.deleted_members).toEqual([8, 9]);
    expect(one.is_family).toBe(false);
    expect(withTravellerCount(one, 2).deleted_members).toEqual([8, 9]);
  });

  it('row 1: phone digits are digits only, lose a pasted calling code, then are capped for the code', () => {
    expect(cleanPhoneDigits('+961 71-123-4567', '+961')).toBe('71123456');
    expect(cleanPhoneDigits('٧١١٢٣٤٥٦', '+961')).toBe('71123456');
    expect(cleanPhoneDigits('0612345678999', '+33')).toBe('0612345678');
    expect(withPhoneCode({ ...blankValues(EMPTY_PREFILL), phone_country_code: '+33', phone_number: '0612345678' }, '+961').phone_number).toBe('06123456');
  });

  it('counts the trip days with both ends included', () => {
    expect(tripLength({ start_date: '2026-07-01', end_date: '2026-07-08' })).toBe(8);
    expect(tripLength({ start_date: '2026-07-01', end_date: null })).toBeNull();
  });

  it('trims the name and the e-mail when submitting', () => {
    const values = submittedValues({ ...blankValues(EMPTY_PREFILL), name: ' Rana  Abi Nader ', email: ' r@x.co ' });
    expect(values.name).toBe('Rana Abi Nader');
    expect(values.email).toBe('r@x.co');
  });
});
