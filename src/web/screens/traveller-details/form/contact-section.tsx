import { useId, useMemo } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Select, TextInput, useDirection, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import { nationalDigits } from '../../../../contract/digits';
import type { Option } from '../../../../contract/endpoint';
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  NAME_TYPING_FILTER,
  type ContactDetails,
  type TravelDetailsCode,
} from '../../../../contract/travel-details.rules';
import { NumericTextInput } from '../../../components/number-input';
import type { RuleFormApi } from '../../../components/use-rule-form';
import type { FieldRefs } from './form-types';
import { selectText } from './select-text';
import { cleanPhoneDigits, withPhoneCode } from './travel-details-values';
import classes from './travel-details-form.module.css';
import { useListboxState } from '../../../components/listbox-state';

const LRM = '\u200e';

/**
 * Who to contact: full name, phone with calling code, e-mail (spec §5). Shared by the travel
 * details form and the call-back request (RULINGS 13), so both type and check them alike.
 */
export function ContactSection<V extends ContactDetails>({
  form,
  reference,
  refs,
  title,
  nameHint,
}: {
  form: RuleFormApi<V, TravelDetailsCode>;
  reference: { phoneCodes: Option[] };
  refs: FieldRefs;
  /** The section heading; "Your details" unless given. */
  title?: string;
  /** The hint under the name; the passport's name unless given (a call back asks for whom to ask, issue 38). */
  nameHint?: string;
}) {
  const { t, i18n } = useLingui();
  const listbox = useListboxState();
  const { dir } = useDirection();
  const titleId = useId();
  const { values } = form;
  const englishTyping = i18n.locale === 'en';

  // The select shows the bare code ("+961"); the list and the search use the full label. In
  // right-to-left text a left-to-right mark keeps the plus sign before the digits.
  const codes = useMemo(() => {
    const shown = (code: string) => (dir === 'rtl' ? `${LRM}${code}` : code);
    const labels = new Map(reference.phoneCodes.map((option) => [option.value, option.label]));
    const data: ComboboxItem[] = reference.phoneCodes.map((option) => ({ value: option.value, label: shown(option.value) }));
    if (!labels.has(values.phone_country_code)) data.unshift({ value: values.phone_country_code, label: shown(values.phone_country_code) });
    const filter: OptionsFilter = ({ options, search }) => {
      const query = search.replaceAll(LRM, '').trim().toLowerCase();
      return (options as ComboboxItem[]).filter((option) => (labels.get(option.value) ?? option.label).toLowerCase().includes(query));
    };
    return { labels, data, filter };
  }, [reference.phoneCodes, values.phone_country_code, dir]);

  return (
    <section className={classes.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={classes.sectionTitle}>
        <IconUser size={22} className={classes.sectionIcon} aria-hidden="true" />
        {title ?? t`Your details`}
      </h2>

      <TextInput
        ref={refs('name')}
        label={t`Full name`}
        description={nameHint ?? t`As shown on your passport, in English letters.`}
        value={values.name}
        onChange={(event) => {
          const raw = event.currentTarget.value;
          const name = (englishTyping ? raw.replace(NAME_TYPING_FILTER, '') : raw).slice(0, NAME_MAX_LENGTH);
          form.update((v) => ({ ...v, name }), { edited: ['name'] });
        }}
        onBlur={() => {
          form.update((v) => ({ ...v, name: v.name.trim().replace(/\s+/g, ' ') }), { touched: ['name'] });
        }}
        maxLength={NAME_MAX_LENGTH}
        autoComplete="name"
        autoCapitalize="words"
        spellCheck={false}
        error={form.errorOf('name')}
        size="md"
        required
      />

      <div className={classes.twoColumns}>
        <div className={classes.phoneRow}>
          <Select
            ref={refs('phone_country_code')}
            label={t`Country code`}
            data={codes.data}
            value={values.phone_country_code}
            onChange={(code) => {
              if (code) form.update((v) => withPhoneCode(v, code), { edited: ['phone_country_code', 'phone_number'], touched: ['phone_country_code'] });
            }}
            filter={codes.filter}
          {...listbox}
            renderOption={({ option }) => (
              <span className={classes.codeOption}>
                <span className={classes.codeOptionCode} dir="ltr">
                  {option.value}
                </span>
                <span>{(codes.labels.get(option.value) ?? '').replace(option.value, '').trim()}</span>
              </span>
            )}
            searchable
            openOnFocus={false}
            selectFirstOptionOnChange
            onFocus={selectText}
            allowDeselect={false}
            nothingFoundMessage={t`No country matches`}
            comboboxProps={{ width: 300, position: 'bottom-start' }}
            error={form.errorOf('phone_country_code')}
            size="md"
            required
          />
          {/* No maxlength: the browser would cut pasted "+961 71 123 456" before it is cleaned (issue 8 row 1). */}
          <NumericTextInput
            ref={refs('phone_number')}
            label={t`Phone number`}
            type="tel"
            autoComplete="tel-national"
            value={values.phone_number}
            normalize={(raw) => cleanPhoneDigits(raw, values.phone_country_code)}
            normalizePaste={(pasted) => nationalDigits(pasted, values.phone_country_code)}
            onValueChange={(phone) => form.update((v) => ({ ...v, phone_number: phone }), { edited: ['phone_number'] })}
            onBlur={() => form.touch('phone_number')}
            error={form.errorOf('phone_number')}
            size="md"
            required
          />
        </div>

        <TextInput
          ref={refs('email')}
          label={t`Email`}
          type="email"
          inputMode="email"
          autoComplete="email"
          spellCheck={false}
          value={values.email}
          onChange={(event) => {
            const email = event.currentTarget.value.slice(0, EMAIL_MAX_LENGTH);
            form.update((v) => ({ ...v, email }), { edited: ['email'] });
          }}
          onBlur={() => form.update((v) => ({ ...v, email: v.email.trim() }), { touched: ['email'] })}
          maxLength={EMAIL_MAX_LENGTH}
          error={form.errorOf('email')}
          size="md"
          required
        />
      </div>
    </section>
  );
}
