import { useCallback } from 'react';
import { travelDetailsErrors, type RuleContext, type TravelDetailsErrors } from '../../../../contract/travel-details.rules';
import { useRuleForm } from '../../../components/use-rule-form';
import { TRAVEL_DETAILS_MESSAGES } from '../../../i18n/validation-messages';
import type { TravelDetailsValues } from '../../../../../machines/travel-details/travel-details.types';

/** The members area: the traveller count's list and every traveller's date of birth. */
export const MEMBERS_AREA = 'travellers_info';
export const isMembersField = (field: string) => field === MEMBERS_AREA || field.startsWith(`${MEMBERS_AREA}.`);
export const dobField = (index: number) => `${MEMBERS_AREA}.${index}.dob`;

/** Error keys in the order the fields appear on screen: the first invalid one gets focus. */
export function fieldOrder(values: TravelDetailsValues): string[] {
  return [
    'destination_id',
    'source_id',
    'start_date',
    'end_date',
    'no_of_traveller',
    MEMBERS_AREA,
    ...values.travellers_info.map((_, index) => dobField(index)),
    'is_family',
    'name',
    'phone_country_code',
    'phone_number',
    'email',
  ];
}

export function firstInvalidField(errors: TravelDetailsErrors, values: TravelDetailsValues): string | undefined {
  return fieldOrder(values).find((field) => errors[field]);
}

/**
 * The travel details form: values and shown errors (see useRuleForm) under every rule of the
 * step (travelDetailsErrors); the family message prints the broker's child age limit.
 */
export function useTravelDetailsForm(initialValues: TravelDetailsValues, ctx: RuleContext, serverErrors: TravelDetailsErrors) {
  const { today, maxTravellers, familyChildMaxAge } = ctx;
  const validate = useCallback(
    (values: TravelDetailsValues) => travelDetailsErrors(values, { today, maxTravellers, familyChildMaxAge }),
    [today, maxTravellers, familyChildMaxAge],
  );
  return useRuleForm(initialValues, validate, serverErrors, TRAVEL_DETAILS_MESSAGES, { childAge: familyChildMaxAge });
}

export type TravelDetailsFormApi = ReturnType<typeof useTravelDetailsForm>;
