import { memo, useCallback, useEffect, useState, type FormEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { travelDetailsErrors, type TravelDetailsErrors } from '../../../contract/travel-details.rules';
import { focusableWhileBusy } from '../../components/focusable-while-busy';
import { ContactSection as AnyContactSection } from './form/contact-section';
import { FieldRefs } from './form/form-types';
import { submittedValues } from './form/travel-details-values';
import { TravellersSection as EveryTravellersSection } from './form/travellers-section';
import { TripSection as EveryTripSection } from './form/trip-section';
import { useReloadDraft } from './form/use-reload-draft';
import { InsuranceTypeQuery } from '../../journey/insurance-type-query';
import { fieldOrder, firstInvalidField, isMembersField, MEMBERS_AREA, useTravelDetailsForm, type TravelDetailsFormApi } from './form/use-travel-details-form';
import classes from './form/travel-details-form.module.css';
import { CONTACT_FIELDS } from '../../../../machines/call-back/call-back.payload';
import type { TravelDetailsValues, TravelDetailsReference } from '../../../../machines/travel-details/travel-details.types';

export interface TravelDetailsFormProps {
  /** The form resets when this object changes identity. */
  initialValues: TravelDetailsValues;
  reference: TravelDetailsReference;
  /** "YYYY-MM-DD". */
  today: string;
  /** Codes from the server (email_taken, phone_taken…): shown on their fields, the first focused. */
  serverErrors: TravelDetailsErrors;
  submitting: boolean;
  /** Called only with details that pass every rule of travelDetailsErrors. */
  onSubmit: (values: TravelDetailsValues) => void;
}

interface SectionProps {
  form: TravelDetailsFormApi;
  reference: TravelDetailsReference;
  today: string;
  refs: FieldRefs;
}

/** The contact section's fields: all it can read (its form is typed as ContactDetails alone). */
const isContactField = (field: string) => (CONTACT_FIELDS as readonly string[]).includes(field);

/**
 * React.memo's test for a section of this form: it draws the same when its other props are the
 * same and, in the form, the values it reads (those whose name `reads`) and the errors it shows
 * for them are unchanged. A key typed in one section so draws that section alone: typing the full
 * name drew the whole form again at each key, 7.3 ms of React a key on a test machine, 3.1 ms
 * without the trip and travellers sections (issue 35; docs/testing.md). Values change by new
 * objects (useRuleForm), so a changed list of travellers is a changed value.
 */
function drawsTheSame(reads: (value: string) => boolean) {
  return (before: SectionProps, after: SectionProps) =>
    before.reference === after.reference &&
    before.today === after.today &&
    before.refs === after.refs &&
    (Object.keys(after.form.values) as (keyof TravelDetailsValues)[]).every((key) => !reads(key) || Object.is(before.form.values[key], after.form.values[key])) &&
    fieldOrder(after.form.values).every((field) => !reads(field.split('.')[0]!) || before.form.errorOf(field) === after.form.errorOf(field));
}

/** The trip and travellers sections read every value but the contact details; the contact section only those. */
const TripSection = memo(EveryTripSection, drawsTheSame((value) => !isContactField(value)));
const TravellersSection = memo(EveryTravellersSection, drawsTheSame((value) => !isContactField(value)));
const ContactSection = memo((props: SectionProps) => <AnyContactSection form={props.form} reference={props.reference} refs={props.refs} />, drawsTheSame(isContactField));

const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * The travel details form (spec §2 /traveller-details, §4, §5): trip, travellers and contact
 * details, validated field by field with the shared rules. Submitting with problems shows them
 * all and takes the user to the first one on screen; the members area stands for the travellers'
 * dates of birth.
 */
export function TravelDetailsForm({ initialValues, reference, today, serverErrors, submitting, onSubmit }: TravelDetailsFormProps) {
  const { t, i18n } = useLingui();
  const ctx = { today, maxTravellers: reference.maxTravellers, familyChildMaxAge: reference.familyChildMaxAge };
  const form = useTravelDetailsForm(initialValues, ctx, serverErrors);
  useReloadDraft(form, initialValues);
  const [elements] = useState(() => new Map<string, HTMLElement>());
  // One function for the form's life, so that the memoised sections see the same props.
  const refs = useCallback<FieldRefs>(
    (field) => (element) => {
      if (element) elements.set(field, element);
      else elements.delete(field);
    },
    [elements],
  );

  /** Scrolls to a field and focuses it; any traveller problem scrolls to the members area. */
  const goTo = (field: string) => {
    // A missing traveller comes first as the area itself (its alert says why); a wrong date of
    // birth is focused in place, with the whole area scrolled into view.
    const members = isMembersField(field);
    const target = elements.get(field);
    const scrollTarget = members ? elements.get(MEMBERS_AREA) : target;
    scrollTarget?.scrollIntoView({ block: members ? 'start' : 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    target?.focus({ preventScroll: true });
  };

  // A new set of server errors: take the user to the first of them.
  useEffect(() => {
    const first = firstInvalidField(serverErrors, form.values);
    if (first) goTo(first);
    // Only a new serverErrors object moves the focus, not later edits.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serverErrors]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const errors = travelDetailsErrors(form.values, ctx);
    const first = firstInvalidField(errors, form.values);
    if (first) {
      form.markSubmitted();
      goTo(first);
      return;
    }
    onSubmit(submittedValues(form.values));
  };

  return (
    <DatesProvider settings={{ locale: i18n.locale, firstDayOfWeek: 1 }}>
      <form className={classes.form} onSubmit={submit} noValidate aria-label={t`Travel details`} data-testid="travel-details-form">
        <InsuranceTypeQuery tripType={form.values.trip_type} />
        <TripSection form={form} reference={reference} today={today} refs={refs} />
        <TravellersSection form={form} reference={reference} today={today} refs={refs} />
        <ContactSection form={form} reference={reference} today={today} refs={refs} />
        <div className={classes.actions}>
          <Button
            type="submit"
            size="lg"
            className={classes.proceed}
            loading={submitting}
            // Focus stays on Proceed while the details are saved (issue 21); submit ignores presses meanwhile.
            renderRoot={focusableWhileBusy(submitting)}
          >
            {t`Proceed`}
          </Button>
        </div>
      </form>
    </DatesProvider>
  );
}
