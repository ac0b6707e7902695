import { useEffect, useState, type FormEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import type { Option } from '../../../contract/endpoint';
import { contactErrors, type TravelDetailsErrors } from '../../../contract/travel-details.rules';
import { CONTACT_FIELDS } from '../../../../machines/call-back/call-back.payload';
import type { CallBackValues } from '../../../../machines/call-back/call-back.types';
import { ContactSection } from '../traveller-details/form/contact-section';
import type { FieldRefs } from '../traveller-details/form/form-types';
import { useRuleForm } from '../../components/use-rule-form';
import { TRAVEL_DETAILS_MESSAGES } from '../../i18n/validation-messages';
import classes from '../traveller-details/form/travel-details-form.module.css';

const firstInvalid = (errors: TravelDetailsErrors) => CONTACT_FIELDS.find((field) => errors[field]);

/**
 * Name, phone and e-mail for the call (RULINGS 13), with the same fields, typing filters, rules
 * and messages as the travel details form. Called only with values that pass contactErrors.
 */
export function CallBackForm(props: {
  initialValues: CallBackValues;
  phoneCodes: Option[];
  serverErrors: TravelDetailsErrors;
  sending: boolean;
  onSubmit: (values: CallBackValues) => void;
}) {
  const { initialValues, phoneCodes, serverErrors, sending, onSubmit } = props;
  const { t } = useLingui();
  const form = useRuleForm(initialValues, contactErrors, serverErrors, TRAVEL_DETAILS_MESSAGES);
  const [elements] = useState(() => new Map<string, HTMLElement>());
  const refs: FieldRefs = (field) => (element) => {
    if (element) elements.set(field, element);
    else elements.delete(field);
  };
  const goTo = (field: string) => elements.get(field)?.focus();

  // A new set of server errors: take the user to the first of them.
  useEffect(() => {
    const first = firstInvalid(serverErrors);
    if (first) elements.get(first)?.focus();
  }, [serverErrors, elements]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const first = firstInvalid(contactErrors(form.values));
    if (first) {
      form.markSubmitted();
      goTo(first);
      return;
    }
    onSubmit(form.values);
  };

  return (
    <form className={classes.form} onSubmit={submit} noValidate aria-label={t`Request a call back`} data-testid="call-back-form">
      <ContactSection
        form={form}
        reference={{ phoneCodes }}
        refs={refs}
        title={t`Who should we call?`}
        // Not the passport's name: who our team asks for when it calls (issue 38).
        nameHint={t`Who we should ask for when we call, in English letters.`}
      />
      <div className={classes.actions}>
        <Button type="submit" size="lg" className={classes.proceed} loading={sending} disabled={sending}>
          {t`Call me back`}
        </Button>
      </div>
    </form>
  );
}
