import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { toWesternDigits } from '../../../../contract/digits';
import { postJson } from '../../services/console-api';
import { fieldErrorsOf } from '../../components/describe-error';
import type { ConsoleAction } from '../../components/use-action';
import { ChoiceSelect } from '../../components/choice-select';

const EMPTY = { code: '', type: 'percent', value: '', from: '', to: '', limit: '' };

/**
 * A new coupon (admin, POST /coupons, couponAddSchema): a percent (1–100) or a fixed amount in
 * dollars ("25", "12.50"), optional dates and a limit of uses. Only the fields filled in are sent.
 */
export function CouponAddForm({ action, onDone }: { action: ConsoleAction; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (field: keyof typeof EMPTY) => (event: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [field]: event.currentTarget.value });

  const add = async () => {
    const required = t`This field is required.`;
    const missing: Record<string, string> = {};
    if (!values.code.trim()) missing.code = required;
    if (!values.value.trim()) missing.value = required;
    setErrors(missing);
    if (Object.keys(missing).length) return;
    const body: Record<string, string> = { code: values.code.trim(), type: values.type, value: toWesternDigits(values.value.trim()) };
    if (values.from) body.from = values.from;
    if (values.to) body.to = values.to;
    if (values.limit.trim()) body.limit = toWesternDigits(values.limit.trim());
    const code = body.code;
    setErrors({});
    const answer = await action.run(
      () => postJson('/coupons', body),
      t`Coupon ${code} is created.`,
      (error) => setErrors(fieldErrorsOf(i18n, error)),
    );
    if (answer !== undefined) {
      setValues(EMPTY);
      onDone();
    }
  };

  return (
    <Paper withBorder p="md" radius="md">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <Stack>
          <Title order={2} size="h4">
            <Trans>New coupon</Trans>
          </Title>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput label={t`Code`} value={values.code} onChange={set('code')} error={errors.code} required maxLength={40} w={180} dir="ltr" data-testid="coupon-code" />
            <ChoiceSelect
              label={t`Type`}
              value={values.type}
              onChange={(type) => setValues({ ...values, type })}
              data={[
                { value: 'percent', label: t`Percent off` },
                { value: 'fixed', label: t`Fixed amount off ($)` },
              ]}
              error={errors.type}
              w={200}
              data-testid="coupon-type"
            />
            <TextInput
              label={values.type === 'percent' ? t`Percent (1–100)` : t`Amount in dollars`}
              value={values.value}
              onChange={set('value')}
              error={errors.value}
              required
              inputMode="decimal"
              maxLength={12}
              w={160}
              dir="ltr"
              data-testid="coupon-value"
            />
          </Group>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput type="date" label={t`Valid from`} value={values.from} onChange={set('from')} error={errors.from} w={170} data-testid="coupon-from" />
            <TextInput type="date" label={t`Valid to`} value={values.to} onChange={set('to')} error={errors.to} w={170} data-testid="coupon-to" />
            <TextInput
              label={t`Limit of uses`}
              description={t`Empty: no limit`}
              value={values.limit}
              onChange={set('limit')}
              error={errors.limit}
              inputMode="numeric"
              maxLength={10}
              w={170}
              dir="ltr"
              data-testid="coupon-limit"
            />
          </Group>
          <Button type="submit" loading={action.busy} disabled={action.busy} w="fit-content" data-testid="coupon-create">
            <Trans>Create coupon</Trans>
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
