import { memo, useCallback, useEffect, useMemo, useState, type FormEvent, type MouseEvent } from 'react';
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

/** A field's element, kept for focusing it: one function per field for the form's life. */
type FieldRef = (element: HTMLElement | null) => void;
/** Sets a field's value; `touched` shows its error at once. The form's one function. */
type SetField = <F extends ReviewField>(field: F, value: ReviewTravellerValues[F], touched?: boolean) => void;

/**
 * What every field of the form is handed. Each field below is memoised on these: a key typed in
 * one field draws that field alone, where it drew the whole form again, its five lists and the
 * calendar (issue 35: the form at review took about 7 ms of React a key in Chromium).
 */
interface FieldProps<F extends ReviewField> {
  field: F;
  label: string;
  value: ReviewTravellerValues[F];
  error: string | undefined;
  required: boolean;
  keepElement: FieldRef;
  onSet: SetField;
  onTouch: (field: ReviewField) => void;
}

const NameField = memo(function NameField(props: FieldProps<'first_name' | 'middle_name' | 'last_name'> & { autoComplete: string; englishTyping: boolean; onLeave: (field: 'first_name' | 'middle_name' | 'last_name') => void }) {
  const { field, label, value, error, required, keepElement, onSet, englishTyping, autoComplete, onLeave } = props;
  return (
    <TextInput
      ref={keepElement}
      label={label}
      value={value ?? ''}
      onChange={(event) => {
        const raw = event.currentTarget.value;
        onSet(field, (englishTyping ? raw.replace(NAME_TYPING_FILTER, '') : raw).slice(0, NAME_MAX_LENGTH), false);
      }}
      onBlur={() => onLeave(field)}
      maxLength={NAME_MAX_LENGTH}
      autoComplete={autoComplete}
      autoCapitalize="words"
      spellCheck={false}
      error={error}
      required={required}
      size="md"
    />
  );
});

/** A list of options (title, gender, relationship) or, `searchable`, of countries. Its own list state: its opening draws it again. */
const ChoiceField = memo(function ChoiceField(props: FieldProps<'type' | 'gender_id' | 'relationship_type_id' | 'country_id' | 'nationality_id'> & { data: Option[]; searchable?: boolean }) {
  const { t } = useLingui();
  const listbox = useListboxState();
  const { field, label, value, error, required, keepElement, onSet, onTouch, data, searchable } = props;
  const search = searchable
    ? { searchable: true, filter: countryOptionsFilter, openOnFocus: false, selectFirstOptionOnChange: true, onFocus: selectText, nothingFoundMessage: t`No country matches`, placeholder: t`Search for a country` }
    : { placeholder: t`Select` };
  return (
    <Select
      ref={keepElement}
      label={label}
      data={data}
      value={idValue(value)}
      onChange={(value) => onSet(field, idOf(value))}
      onBlur={() => onTouch(field)}
      {...search}
      allowDeselect={false}
      {...listbox}
      error={error}
      required={required}
      size="md"
    />
  );
});

const PassportField = memo(function PassportField(props: FieldProps<'passport'>) {
  const { label, value, error, keepElement, onSet, onTouch } = props;
  return (
    <TextInput
      ref={keepElement}
      label={label}
      value={value ?? ''}
      onChange={(event) => {
        // A character no passport has shows its error at once, not only when the field is left.
        const passport = passportTypingText(event.currentTarget.value);
        onSet('passport', passport, /[^A-Z0-9'-]/.test(passport));
      }}
      onBlur={() => onTouch('passport')}
      dir="ltr"
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      error={error}
      required
      size="md"
      data-testid="passport-input"
    />
  );
});

const DobField = memo(function DobField(props: FieldProps<'dob'> & { today: string; description: string }) {
  const { label, value, error, keepElement, onSet, onTouch, today, description } = props;
  return (
    <DateField
      inputRef={keepElement}
      label={label}
      value={value}
      min={addYears(today, -MAX_AGE_YEARS)}
      max={today}
      calendarStart={addYears(today, -DEFAULT_TRAVELLER_DOB_YEARS_BACK)}
      emptyLevel="decade"
      onChange={(dob) => onSet('dob', dob)}
      onBlur={() => onTouch('dob')}
      error={error}
      description={description}
      required
    />
  );
});

/**
 * One traveller's form at review (spec §2, §5): the fields the chosen insurer asks for, checked
 * by the same rules as save-traveller-info. Proceed with problems shows them all and focuses the
 * first; a refusal from the server focuses its first field. Previous hands what was typed to
 * the review machine, which keeps it as the traveller's draft.
 */
export function TravellerForm(props: TravellerFormProps) {
  const { index, count, values: initialValues, rules, plan, options, otherPassports, serverErrors, today, englishTyping, saving, canGoBack } = props;
  const { t, i18n } = useLingui();
  // Arrows point the way the page reads: Previous towards the start edge.
  const rtl = useDirection().dir === 'rtl';
  const [BackIcon, NextIcon] = rtl ? [IconArrowRight, IconArrowLeft] : [IconArrowLeft, IconArrowRight];
  const validate = useRuleValidate(plan, index, today, otherPassports);
  const form = useRuleForm(initialValues, validate, serverErrors, REVIEW_MESSAGES);
  const { values } = form;
  const { onValuesChange } = props;
  useEffect(() => onValuesChange?.(values), [values, onValuesChange]);
  const [elements] = useState(() => new Map<ReviewField, HTMLElement>());
  const [fieldRefs] = useState(() => new Map<ReviewField, FieldRef>());
  const refs = (field: ReviewField): FieldRef => {
    let ref = fieldRefs.get(field);
    if (!ref) {
      ref = (element) => {
        if (element) elements.set(field, element);
        else elements.delete(field);
      };
      fieldRefs.set(field, ref);
    }
    return ref;
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

  const { update, touch } = form;
  const set = useCallback<SetField>(
    (field, value, touched = true) => update((current) => ({ ...current, [field]: value }), { edited: [field], touched: touched ? [field] : [] }),
    [update],
  );
  const trimOnLeave = useCallback(
    (field: 'first_name' | 'middle_name' | 'last_name') => update((current) => ({ ...current, [field]: current[field]?.trim().replace(/\s+/g, ' ') ?? null }), { touched: [field] }),
    [update],
  );
  const touchField = useCallback((field: ReviewField) => touch(field), [touch]);

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
  // One object while the language stays: a new one would draw every date field's calendar parts again at each key.
  const dateSettings = useMemo(() => ({ locale: i18n.locale, firstDayOfWeek: 1 as const }), [i18n.locale]);
  /** What every field is handed: its value, its error as shown, whether it is required, and the form's functions. */
  const fieldProps = <F extends ReviewField>(field: F, label: string) => ({
    field,
    label,
    value: values[field],
    error: form.errorOf(field),
    required: rules[field].required,
    keepElement: refs(field),
    onSet: set,
    onTouch: touchField,
  });
  const name = (field: 'first_name' | 'middle_name' | 'last_name', label: string, autoComplete: string) => (
    <NameField {...fieldProps(field, label)} autoComplete={autoComplete} englishTyping={englishTyping} onLeave={trimOnLeave} />
  );

  return (
    <DatesProvider settings={dateSettings}>
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
              <ChoiceField {...fieldProps('type', t`Title`)} data={options.titles} />
              {name('first_name', t`First name`, 'given-name')}
              {name('middle_name', t`Middle name (optional)`, 'additional-name')}
              {name('last_name', t`Last name`, 'family-name')}
              <DobField {...fieldProps('dob', t`Date of birth`)} today={today} description={t`The date you were quoted for; changing it means new quotes.`} />
              {rules.gender_id.shown && <ChoiceField {...fieldProps('gender_id', t`Gender`)} data={options.genders} />}
              <PassportField {...fieldProps('passport', t`Passport number`)} />
              {rules.country_id.shown && <ChoiceField {...fieldProps('country_id', t`Country of residence`)} data={options.residences} searchable />}
              {rules.nationality_id.shown && <ChoiceField {...fieldProps('nationality_id', t`Nationality`)} data={options.nationalities} searchable />}
              {rules.relationship_type_id.shown && (
                <ChoiceField {...fieldProps('relationship_type_id', t`Relationship to traveller 1`)} data={options.relationships} />
              )}
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
