import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { CouponListItem } from '../../../../contract/broker-console';
import { toWesternDigits } from '../../../../contract/digits';
import { postJson, segment } from '../../services/console-api';
import type { ConsoleAction } from '../../components/use-action';
import { ConsoleModal } from '../../components/console-dialog';

/** The day of a stored date or timestamp, as a date field takes it. */
const dayOf = (value: string) => value.slice(0, 10);

/**
 * A coupon's validity and limit (admin, POST /coupons/:code/edit, couponEditSchema): only what
 * changed is sent; "No limit" sends limit "none".
 */
export function CouponEditModal({ coupon, onClose, action, onDone }: { coupon: CouponListItem; onClose: () => void; action: ConsoleAction; onDone: () => void }) {
  const { t } = useLingui();
  const [from, setFrom] = useState(dayOf(coupon.valid_from));
  const [to, setTo] = useState(dayOf(coupon.valid_to));
  const [unlimited, setUnlimited] = useState(coupon.usage_limit === null);
  const [limit, setLimit] = useState(coupon.usage_limit === null ? '' : String(coupon.usage_limit));
  const [unchanged, setUnchanged] = useState(false);
  const code = coupon.code;

  const save = async () => {
    const change: Record<string, string> = {};
    if (from && from !== dayOf(coupon.valid_from)) change.from = from;
    if (to && to !== dayOf(coupon.valid_to)) change.to = to;
    const nextLimit = unlimited ? 'none' : toWesternDigits(limit.trim());
    const before = coupon.usage_limit === null ? 'none' : String(coupon.usage_limit);
    if (nextLimit && nextLimit !== before) change.limit = nextLimit;
    setUnchanged(Object.keys(change).length === 0);
    if (Object.keys(change).length === 0) return;
    const answer = await action.run(() => postJson(`/coupons/${segment(code)}/edit`, change), t`Coupon ${code} is changed.`);
    onClose();
    if (answer !== undefined) onDone();
  };

  return (
    <ConsoleModal opened onClose={action.busy ? () => undefined : onClose} title={t`Edit coupon ${code}`}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Stack>
          <TextInput type="date" label={t`Valid from`} value={from} onChange={(event) => setFrom(event.currentTarget.value)} data-testid="coupon-edit-from" />
          <TextInput type="date" label={t`Valid to`} value={to} onChange={(event) => setTo(event.currentTarget.value)} data-testid="coupon-edit-to" />
          <Checkbox label={t`No limit of uses`} checked={unlimited} onChange={(event) => setUnlimited(event.currentTarget.checked)} />
          {!unlimited && <TextInput label={t`Limit of uses`} value={limit} onChange={(event) => setLimit(event.currentTarget.value)} inputMode="numeric" maxLength={10} dir="ltr" data-testid="coupon-edit-limit" />}
          {unchanged && (
            <Text size="sm" role="status">
              <Trans>Nothing changed: there is nothing to save.</Trans>
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={action.busy}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={action.busy} disabled={action.busy} data-testid="coupon-edit-save">
              <Trans>Save</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </ConsoleModal>
  );
}
