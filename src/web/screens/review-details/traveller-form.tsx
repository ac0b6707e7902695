import { useCallback, useEffect, useState, type FormEvent, type MouseEvent } from 'react';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title, useDirection } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { IconArrowLeft, IconArrowRight, IconInfoCircle } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import type { Option } from '../../../contract/endpoint';
import { addYears } from '../../../contract/dates';
import { DEFAULT_TRAVELLER_DOB_YEARS_BACK, MAX_AGE_YEARS, NAME_MAX_LENGTH, NAME_TYPING_FILTER } from '../../../contract/travel-details.rules';
import {
  REVIEW_FIELDS,
  passportTypingText,
  travellerReviewErrors,
  type FieldRule,
  type ReviewErrors,
  type ReviewField,
  type ReviewPlan,
  type ReviewTravellerValues,
} from '../../../contract/traveller-review.rules';
import type { ReviewOptions } from '../../../../machines/review/review.types';
import { focusableWhileBusy } from '../../components/focusable-while-busy';
import { useRuleForm } from '../../components/use-rule-form';
import { countryOptionsFilter } from '../../i18n/country-search';
import { REVIEW_MESSAGES } from '../../i18n/review-messages';
import { DateField } from '../traveller-details/form/date-field';
import { selectText } from '../traveller-details/form/select-text';
import { useListboxState } from '../../components/listbox-state';

export interface TravellerFormProps {
  /** 0-based position; the form is keyed on it, so each traveller starts from its own values. */
  index: number;
  count: number;
  values: ReviewTravellerValues;
  rules: Record<ReviewField, FieldRule>;
  plan: ReviewPlan;
  options: ReviewOptions;
  otherPassports: readonly (string | null)[];
  serverErrors: ReviewErrors;
  today: string;
  /** English users type names in Latin letters only (spec §5). */
  englishTyping: boolean;
  saving: boolean;
  canGoBack: boolean;
  onSave: (values: ReviewTravellerValues) => void;
  /** Previous, with what is typed so far: the traveller's draft until it is saved (issue 17). */
  onPrevious: (values: ReviewTravellerValues) => void;
  /** Told every value as typed, so the language switch can keep it across its reload. */
  onValuesChange?: (values: ReviewTravellerValues) => void;
}

const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Pressing a form button must not take the focus from the field being typed in: that field's
 * blur would show its error line and push the button from under the pointer before the press
 * ends, so the click was lost (issue 17). Click and keyboard still work as ever.
 */
const keepFocus = (event: MouseEvent<HTMLButtonElement>) => event.preventDefault();

const idValue = (id: number | null) => (id === null ? null : String(id));
const idOf = (value: string | null) => (value === null ? null : Number(value));

/**
 * One traveller's form at review (spec §2, §5): the fields the chosen insurer asks for, checked
 * by the same rules as save-traveller-info. Proceed with problems shows them all and focuses the
 * first; a refusal from the server focuses its first field. Previous hands what was typed to
 * the review machine, which keeps it as the traveller's draft.
 */
export function TravellerForm(props: TravellerFormProps) {
  const { index, count, values: initialValues, rules, plan, options, otherPassports, serverErrors, today, englishTyping, saving, canGoBack } = props;
  const { t, i18n } = useLingui();
  const listbox = useListboxState();
  // Arrows point the way the page reads: Previous towards the start edge.
  const rtl = useDirection().dir === 'rtl';
  const [BackIcon, NextIcon] = rtl ? [IconArrowRight, IconArrowLeft] : [IconArrowLeft, IconArrowRight];
  const validate = useRuleValidate(plan, index, today, otherPassports);
  const form = useRuleForm(initialValues, validate, serverErrors, REVIEW_MESSAGES);
  const { values } = form;
  const { onValuesChange } = props;
  useEffect(() => onValuesChange?.(values), [values, onValuesChange]);
  const [elements] = useState(() => new Map<ReviewField, HTMLElement>());
  const refs = (field: ReviewField) => (element: HTMLElement | null) => {
    if (element) elements.set(field, element);
    else elements.delete(field);
  };
  const goTo = (field: ReviewField) => {
    const target = elements.get(field);
    target?.scrollIntoView({ block: 'center', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    target?.focus({ preventScroll: true });
  };
  const firstInvalid = (errors: ReviewErrors) => REVIEW_FIELDS.find((field) => rules[field].shown && errors[field]);

  // A refusal from the server: take the user to its first field (spec §7 review save failure).
  useEffect(() => {
    const first = firstInvalid(serverErrors);
    if (first) goTo(first);
    // Only a new serverErrors object moves the focus, not later edits.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serverErrors]);

  const set = <F extends ReviewField>(field: F, value: ReviewTravellerValues[F], touched = true) =>
    form.update((current) => ({ ...current, [field]: value }), { edited: [field], touched: touched ? [field] : [] });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const first = firstInvalid(validate(values));
    if (first) {
      form.markSubmitted();
      goTo(first);
      return;
    }
    props.onSave(cleaned(values, rules));
  };

  const number = index + 1;
  const nameInput = (field: 'first_name' | 'middle_name' | 'last_name', label: string, autoComplete: string) => (
    <TextInput
      ref={refs(field)}
      label={label}
      value={values[field] ?? ''}
      onChange={(event) => {
        const raw = event.currentTarget.value;
        set(field, (englishTyping ? raw.replace(NAME_TYPING_FILTER, '') : raw).slice(0, NAME_MAX_LENGTH), false);
      }}
      onBlur={() => form.update((current) => ({ ...current, [field]: current[field]?.trim().replace(/\s+/g, ' ') ?? null }), { touched: [field] })}
      maxLength={NAME_MAX_LENGTH}
      autoComplete={autoComplete}
      autoCapitalize="words"
      spellCheck={false}
      error={form.errorOf(field)}
      required={rules[field].required}
      size="md"
    />
  );
  const select = (field: 'type' | 'gender_id' | 'relationship_type_id', label: string, data: Option[]) => (
    <Select
      ref={refs(field)}
      label={label}
      data={data}
      value={idValue(values[field])}
      onChange={(value) => set(field, idOf(value))}
      onBlur={() => form.touch(field)}
      allowDeselect={false}
      {...listbox}
      error={form.errorOf(field)}
      required={rules[field].required}
      placeholder={t`Select`}
      size="md"
    />
  );
  const country = (field: 'country_id' | 'nationality_id', label: string, data: Option[]) => (
    <Select
      ref={refs(field)}
      label={label}
      data={data}
      value={idValue(values[field])}
      onChange={(value) => set(field, idOf(value))}
      onBlur={() => form.touch(field)}
      searchable
      filter={countryOptionsFilter}
      openOnFocus={false}
      selectFirstOptionOnChange
      onFocus={selectText}
      allowDeselect={false}
      {...listbox}
      nothingFoundMessage={t`No country matches`}
      placeholder={t`Search for a country`}
      error={form.errorOf(field)}
      required={rules[field].required}
      size="md"
    />
  );

  return (
    <DatesProvider settings={{ locale: i18n.locale, firstDayOfWeek: 1 }}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="traveller-form-title">
        <form onSubmit={submit} noValidate aria-labelledby="traveller-form-title" data-testid="traveller-form" data-index={index}>
          <Stack gap="md">
            <Group justify="space-between" align="baseline" wrap="wrap" gap="xs">
              <Title order={2} fz={{ base: 'lg', sm: 'xl' }} id="traveller-form-title" tabIndex={-1} data-testid="traveller-form-title">
                {index === 0 ? t`Traveller ${number} (you)` : t`Traveller ${number}`}
              </Title>
              <Text c="dimmed" fz="sm" data-testid="traveller-progress">
                {t`${number} of ${count}`}
              </Text>
            </Group>
            {/* Standing instructions, not news: a note, where Mantine's Alert would be role="alert". */}
            <Alert variant="light" color="blue" icon={<IconInfoCircle aria-hidden="true" />} p="sm" role="note" data-testid="traveller-instructions">
              {t`Enter the names exactly as they are written on the passport, in English letters.`}
            </Alert>

            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
              {select('type', t`Title`, options.titles)}
              {nameInput('first_name', t`First name`, 'given-name')}
              {nameInput('middle_name', t`Middle name (optional)`, 'additional-name')}
              {nameInput('last_name', t`Last name`, 'family-name')}
              <DateField
                inputRef={refs('dob')}
                label={t`Date of birth`}
                value={values.dob}
                min={addYears(today, -MAX_AGE_YEARS)}
                max={today}
                calendarStart={addYears(today, -DEFAULT_TRAVELLER_DOB_YEARS_BACK)}
                emptyLevel="decade"
                onChange={(dob) => set('dob', dob)}
                onBlur={() => form.touch('dob')}
                error={form.errorOf('dob')}
                description={t`The date you were quoted for; changing it means new quotes.`}
                required
              />
              {rules.gender_id.shown && select('gender_id', t`Gender`, options.genders)}
              <TextInput
                ref={refs('passport')}
                label={t`Passport number`}
                value={values.passport ?? ''}
                onChange={(event) => {
                  // A character no passport has shows its error at once, not only when the field is left.
                  const passport = passportTypingText(event.currentTarget.value);
                  set('passport', passport, /[^A-Z0-9'-]/.test(passport));
                }}
                onBlur={() => form.touch('passport')}
                dir="ltr"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                error={form.errorOf('passport')}
                required
                size="md"
                data-testid="passport-input"
              />
              {rules.country_id.shown && country('country_id', t`Country of residence`, options.residences)}
              {rules.nationality_id.shown && country('nationality_id', t`Nationality`, options.nationalities)}
              {rules.relationship_type_id.shown && select('relationship_type_id', t`Relationship to traveller 1`, options.relationships)}
            </SimpleGrid>

            <Text fz="sm" c="dimmed" data-testid="residence-declaration">
              {t`By proceeding you declare that each traveller resides in Lebanon and is not abroad at the time of purchase.`}
            </Text>

            <Group justify="space-between" gap="sm">
              <Button
                variant="default"
                size="md"
                leftSection={<BackIcon size={18} aria-hidden="true" />}
                disabled={!canGoBack || saving}
                onMouseDown={keepFocus}
                onClick={() => props.onPrevious(values)}
                data-testid="traveller-previous"
              >
                {t`Previous`}
              </Button>
              <Button
                type="submit"
                size="md"
                loading={saving}
                // Focus stays on Proceed while the save runs, so the DOB dialog can give it back.
                renderRoot={focusableWhileBusy(saving)}
                onMouseDown={keepFocus}
                rightSection={<NextIcon size={18} aria-hidden="true" />}
                data-testid="traveller-proceed"
              >
                {t`Proceed`}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </DatesProvider>
  );
}

/**
 * The shared rules for this traveller. useRuleForm wants a stable function: the screen passes
 * the plan and the other passports as stable references (selectors with an equality check).
 */
function useRuleValidate(plan: ReviewPlan, index: number, today: string, otherPassports: readonly (string | null)[]) {
  return useCallback(
    (values: ReviewTravellerValues) => travellerReviewErrors(values, { plan, index, today, otherPassports }),
    [plan, index, today, otherPassports],
  );
}

/** What is saved: names trimmed, and nothing for a field this insurer does not ask for. */
function cleaned(values: ReviewTravellerValues, rules: Record<ReviewField, FieldRule>): ReviewTravellerValues {
  const trim = (text: string | null) => text?.trim().replace(/\s+/g, ' ') || null;
  const next = { ...values, first_name: trim(values.first_name), middle_name: trim(values.middle_name), last_name: trim(values.last_name) };
  for (const field of REVIEW_FIELDS) {
    if (!rules[field].shown && field !== 'relationship_type_id') (next as Record<ReviewField, unknown>)[field] = null;
  }
  return next;
}
