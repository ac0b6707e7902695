import { useId, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Checkbox, NumberInput, Text } from '@mantine/core';
import { IconAlertCircle, IconMinus, IconPlus, IconUsers } from '@tabler/icons-react';
import { addYears } from '../../../../contract/dates';
import { DEFAULT_TRAVELLER_DOB_YEARS_BACK, dobBounds } from '../../../../contract/travel-details.rules';
import { useAnnounce } from '../../../shell/announcer';
import { DateField } from './date-field';
import type { FieldRefs } from './form-types';
import type { TravelDetailsReference } from '../../../../../machines/travel-details/travel-details.types';
import { withTravellerCount, withTravellerDob } from './travel-details-values';
import { dobField, MEMBERS_AREA, type TravelDetailsFormApi } from './use-travel-details-form';
import classes from './travel-details-form.module.css';

/** Who travels: the count (a stepper), one date of birth per traveller, and the family plan. */
export function TravellersSection(props: { form: TravelDetailsFormApi; reference: TravelDetailsReference; today: string; refs: FieldRefs }) {
  const { form, reference, today, refs } = props;
  const { t } = useLingui();
  const titleId = useId();
  const legendId = useId();
  const membersErrorId = useId();
  const { values } = form;
  const count = values.no_of_traveller;
  const max = reference.maxTravellers;
  const membersError = form.errorOf(MEMBERS_AREA);
  const dobStart = addYears(today, -DEFAULT_TRAVELLER_DOB_YEARS_BACK);
  const childAge = reference.familyChildMaxAge;

  const setCount = (next: number) => {
    if (!Number.isInteger(next) || next < 1 || next > max || next === count) return false;
    form.update((v) => withTravellerCount(v, next), { edited: ['no_of_traveller', MEMBERS_AREA, 'is_family'], touched: ['no_of_traveller'] });
    return true;
  };
  const announce = useAnnounce();
  // The − and + buttons keep the focus, so they can be pressed again; what they changed, a date
  // of birth field further down, is said out loud (WCAG 4.1.3, issue 21).
  const step = (next: number) => {
    if (!setCount(next)) return;
    announce(next > count ? t`Traveller ${next} added` : t`Traveller ${count} removed`);
  };

  return (
    <section className={classes.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={classes.sectionTitle}>
        <IconUsers size={22} className={classes.sectionIcon} aria-hidden="true" />
        {t`Travellers`}
      </h2>

      <TravellerCount count={count} max={max} onChange={setCount} onStep={step} error={form.errorOf('no_of_traveller')} inputRef={refs('no_of_traveller')} />

      <fieldset
        ref={refs(MEMBERS_AREA)}
        className={classes.members}
        tabIndex={-1}
        aria-labelledby={legendId}
        aria-describedby={membersError ? membersErrorId : undefined}
        data-testid="travellers-members"
      >
        <legend id={legendId} className={classes.legend}>
          {t`Date of birth of each traveller`}
        </legend>
        <Text size="sm" c="dimmed" className={classes.membersHint}>
          {t`Ages decide which plans you can buy and their price.`}
        </Text>
        <div className={classes.dobGrid}>
          {values.travellers_info.map((traveller, index) => {
            const bounds = dobBounds(values, index, today);
            const field = dobField(index);
            const number = index + 1;
            return (
              <DateField
                // Travellers are only added or removed at the end, so the position is the identity.
                key={index}
                inputRef={refs(field)}
                label={index === 0 ? t`Traveller ${number} (you)` : t`Traveller ${number}`}
                value={traveller.dob ?? null}
                min={bounds.min}
                // Any real birth date is kept, so the rules can name the problem: a family's
                // first traveller under 18 reads "Parent is not added", not a cleared date
                // (issue 8 row 13). The calendar still opens at a typical adult's birth year.
                max={today}
                calendarStart={dobStart}
                emptyLevel="decade"
                onChange={(dob) => form.update((v) => withTravellerDob(v, index, dob), { edited: [field, MEMBERS_AREA], touched: [field] })}
                onBlur={() => form.touch(field)}
                error={form.errorOf(field)}
                required
              />
            );
          })}
        </div>
        {membersError && (
          <div id={membersErrorId} role="alert" className={classes.membersError}>
            <IconAlertCircle size={18} aria-hidden="true" />
            {membersError}
          </div>
        )}
      </fieldset>

      {count > 1 && (
        <Checkbox
          ref={refs('is_family')}
          label={t`We are travelling as a family`}
          description={t`A family plan covers you, your spouse and your children under ${childAge}.`}
          checked={values.is_family}
          onChange={(event) => {
            const checked = event.currentTarget.checked;
            const fields = values.travellers_info[0]?.dob ? ['is_family', dobField(0)] : ['is_family'];
            form.update((v) => ({ ...v, is_family: checked }), { edited: ['is_family'], touched: fields });
          }}
          error={form.errorOf('is_family')}
          size="md"
        />
      )}
    </section>
  );
}

/** At a limit the button stays focusable (a disabled button would drop the keyboard focus). */
const stepDisabled = (disabled: boolean) => (disabled ? { 'aria-disabled': true, 'data-disabled': true } : {});

/** The number of travellers: − and + buttons around a number that can also be typed. */
function TravellerCount(props: {
  count: number;
  max: number;
  /** A typed count. */
  onChange: (count: number) => void;
  /** A count set by the − or + button. */
  onStep: (count: number) => void;
  error?: string;
  inputRef: (element: HTMLElement | null) => void;
}) {
  const { count, max, onChange, onStep, error, inputRef } = props;
  const { t } = useLingui();
  // What is typed may be empty for a moment; the count only changes to a whole number in range.
  const [draft, setDraft] = useState<number | string>(count);
  const [shownCount, setShownCount] = useState(count);
  if (shownCount !== count) {
    setShownCount(count);
    setDraft(count);
  }
  return (
    <NumberInput
      ref={inputRef}
      className={classes.stepper}
      classNames={{ input: classes.stepperInput }}
      label={t`Number of travellers`}
      description={t`From 1 to ${max}`}
      value={draft}
      onChange={(value) => {
        setDraft(value);
        if (typeof value === 'number') onChange(value);
      }}
      onBlur={() => setDraft(count)}
      min={1}
      max={max}
      clampBehavior="strict"
      allowDecimal={false}
      allowNegative={false}
      hideControls
      inputMode="numeric"
      error={error}
      size="md"
      leftSectionWidth={48}
      rightSectionWidth={48}
      leftSectionPointerEvents="all"
      rightSectionPointerEvents="all"
      leftSection={
        <ActionIcon variant="light" size={36} radius="md" aria-label={t`Remove a traveller`} {...stepDisabled(count <= 1)} onClick={() => onStep(count - 1)}>
          <IconMinus size={18} aria-hidden="true" />
        </ActionIcon>
      }
      rightSection={
        <ActionIcon variant="light" size={36} radius="md" aria-label={t`Add a traveller`} {...stepDisabled(count >= max)} onClick={() => onStep(count + 1)}>
          <IconPlus size={18} aria-hidden="true" />
        </ActionIcon>
      }
    />
  );
}
