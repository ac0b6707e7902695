import { useMemo, useState } from 'react';
import { useLingui } from '@lingui/react';
import { travelDetailsErrors, type RuleContext, type TravelDetailsErrors } from '../../../../contract/travel-details.rules';
import { TRAVEL_DETAILS_MESSAGES } from '../../../i18n/validation-messages';
import type { TravelDetailsValues } from '../../../../../machines/travel-details.types';

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

interface FormState {
  /** The initialValues object these values started from: a new object resets the form. */
  source: TravelDetailsValues;
  values: TravelDetailsValues;
  touched: ReadonlySet<string>;
  /** After a submit attempt every error shows, touched or not. */
  submitted: boolean;
}

const freshState = (initialValues: TravelDetailsValues): FormState => ({
  source: initialValues,
  values: initialValues,
  touched: new Set(),
  submitted: false,
});

/**
 * The form's values and which errors show. Errors come from the shared rules
 * (travelDetailsErrors) on every change; a field shows its error once it was left or changed
 * (validation on blur, then on change), and every field shows after a submit attempt. Server
 * errors show on their fields until the user edits that field.
 */
export function useTravelDetailsForm(initialValues: TravelDetailsValues, ctx: RuleContext, serverErrors: TravelDetailsErrors) {
  const { i18n } = useLingui();
  const [state, setState] = useState(() => freshState(initialValues));
  if (state.source !== initialValues) setState(freshState(initialValues));

  const [serverSource, setServerSource] = useState(serverErrors);
  const [serverShown, setServerShown] = useState<TravelDetailsErrors>(serverErrors);
  if (serverSource !== serverErrors) {
    setServerSource(serverErrors);
    setServerShown(serverErrors);
  }

  const { values, touched, submitted } = state;
  const { today, maxTravellers, familyChildMaxAge } = ctx;
  const errors = useMemo(
    () => travelDetailsErrors(values, { today, maxTravellers, familyChildMaxAge }),
    [values, today, maxTravellers, familyChildMaxAge],
  );

  const codeOf = (field: string) => ((submitted || touched.has(field) ? errors[field] : undefined) ?? serverShown[field]);

  return {
    values,
    /** Every rule's verdict on the current values, shown or not. */
    errors,
    /** The message shown under a field, or undefined. */
    errorOf(field: string): string | undefined {
      const code = codeOf(field);
      if (!code) return undefined;
      // Built outside the call: Lingui's extractor cannot read an object literal passed to i18n._.
      const message = { ...TRAVEL_DETAILS_MESSAGES[code], values: { childAge: familyChildMaxAge } };
      return i18n._(message);
    },
    /**
     * Applies a change. `edited` fields were changed by the user: they lose their server error.
     * `touched` fields show their errors from now on.
     */
    update(change: (values: TravelDetailsValues) => TravelDetailsValues, { edited = [], touched = [] }: { edited?: string[]; touched?: string[] }) {
      setState((current) => ({
        ...current,
        values: change(current.values),
        touched: touched.every((field) => current.touched.has(field)) ? current.touched : new Set([...current.touched, ...touched]),
      }));
      if (edited.some((field) => serverShown[field])) {
        setServerShown((shown) => Object.fromEntries(Object.entries(shown).filter(([field]) => !edited.includes(field))));
      }
    },
    touch(...fields: string[]) {
      setState((current) =>
        fields.every((field) => current.touched.has(field)) ? current : { ...current, touched: new Set([...current.touched, ...fields]) },
      );
    },
    markSubmitted() {
      setState((current) => (current.submitted ? current : { ...current, submitted: true }));
    },
  };
}

export type TravelDetailsFormApi = ReturnType<typeof useTravelDetailsForm>;
