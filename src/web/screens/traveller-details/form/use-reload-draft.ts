import { useEffect, useRef, useState } from 'react';
import type { TravelDetailsValues } from '../../../../../machines/travel-details/travel-details.types';
import { registerReloadDraft, takeReloadDraft } from '../../../storage/reload-draft';

const isNumberArray = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'number');
const isStringOrNull = (value: unknown) => value === null || typeof value === 'string';

/** The shape of the form's values, checked field by field: a draft is data read back from storage. */
export function isTravelDetailsValues(value: unknown): value is TravelDetailsValues {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.name === 'string' &&
    typeof v.email === 'string' &&
    typeof v.phone_country_code === 'string' &&
    typeof v.phone_number === 'string' &&
    typeof v.inbound_outbound === 'boolean' &&
    (v.trip_type === 1 || v.trip_type === 2) &&
    isStringOrNull(v.start_date) &&
    isStringOrNull(v.end_date) &&
    isNumberArray(v.destination_id) &&
    (v.source_id === null || typeof v.source_id === 'number') &&
    typeof v.no_of_traveller === 'number' &&
    typeof v.is_family === 'boolean' &&
    Array.isArray(v.travellers_info) &&
    v.travellers_info.every((t: unknown) => typeof t === 'object' && t !== null && isStringOrNull((t as { dob?: unknown }).dob ?? null)) &&
    isNumberArray(v.deleted_members)
  );
}

interface DraftForm {
  values: TravelDetailsValues;
  update: (change: (values: TravelDetailsValues) => TravelDetailsValues, options: { edited?: string[]; touched?: string[] }) => void;
}

/**
 * Keeps what was typed across the language switch's reload (issue 8 row 13): while the form is
 * on screen the switch can read its values; after the reload the form starts from them. The
 * draft is applied again when the form resets before the customer edits anything (the leads
 * chooser opens over it and "Enter new details" resets it), and dropped at the first edit.
 */
export function useReloadDraft(form: DraftForm, initialValues: TravelDetailsValues) {
  const latest = useRef(form.values);
  const update = useRef(form.update);
  useEffect(() => {
    latest.current = form.values;
    update.current = form.update;
  });
  useEffect(() => registerReloadDraft(() => latest.current), []);

  const [draft, setDraft] = useState(() => takeReloadDraft(isTravelDetailsValues));
  // On the first render and after every reset (a new initialValues object) while the draft lasts.
  useEffect(() => {
    if (draft) update.current(() => draft, {});
  }, [draft, initialValues]);

  // An edit of the customer's own: the draft has done its job.
  if (draft && form.values !== draft && form.values !== initialValues) setDraft(null);
}
