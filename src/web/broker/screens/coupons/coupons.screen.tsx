import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import type { CouponListItem } from '../../../../contract/broker-console';
import { postJson, segment } from '../../services/console-api';
import { useConsoleData } from '../../services/use-console-data';
import { ConfirmModal } from '../../components/confirm-modal';
import { DataView } from '../../components/data-view';
import { PageTitle } from '../../components/page-title';
import { ResultAlert } from '../../components/result-alert';
import { useAction } from '../../components/use-action';
import { formatDay, formatMoney, formatNumber, formatPercent } from '../../i18n/console-format';
import { useLanguage } from '../../i18n/language-provider';
import { CouponAddForm } from './coupon-add-form';
import { CouponEditModal } from './coupon-edit-modal';
import { ConsoleTable } from '../../components/console-table';
import { ToneBadge } from '../../components/tone-badge';

/** The coupons (admin, GET /coupons): what each takes off, its uses, validity and insurer; create, edit, disable. */
export function CouponsScreen() {
  const { t } = useLingui();
  const { lang } = useLanguage();
  const result = useConsoleData<CouponListItem[]>('/coupons');
  const action = useAction();
  const [editing, setEditing] = useState<CouponListItem | null>(null);
  const [disabling, setDisabling] = useState<CouponListItem | null>(null);

  const disable = async (coupon: CouponListItem) => {
    const code = coupon.code;
    const answer = await action.run(() => postJson(`/coupons/${segment(code)}/disable`, {}), t`Coupon ${code} is disabled.`);
    setDisabling(null);
    if (answer !== undefined) result.reload();
  };

  return (
    <Stack>
      <PageTitle>{t`Coupons`}</PageTitle>
      <ResultAlert result={action.result} onClose={action.clear} />
      <CouponAddForm action={action} onDone={result.reload} />
      <DataView result={result}>
        {(coupons) => (
          <ConsoleTable<CouponListItem>
            records={coupons}
            fetching={result.loading}
            idAccessor="code"
            noRecordsText={t`No coupons.`}
            data-testid="coupons-table"
            columns={[
              { accessor: 'code', title: t`Code`, render: (coupon) => <span className="console-ltr">{coupon.code}</span>, noWrap: true },
              { accessor: 'value', title: t`Value`, render: (coupon) => (coupon.type === 'percent' ? formatPercent(coupon.value, lang) : formatMoney(coupon.value)), noWrap: true },
              {
                accessor: 'used_count',
                title: t`Uses`,
                render: (coupon) => `${formatNumber(coupon.used_count, lang)} / ${coupon.usage_limit === null ? '∞' : formatNumber(coupon.usage_limit, lang)}`,
                noWrap: true,
              },
              { accessor: 'held_count', title: t`Held`, render: (coupon) => formatNumber(coupon.held_count, lang) },
              { accessor: 'valid_from', title: t`Valid`, render: (coupon) => `${formatDay(coupon.valid_from, lang)} – ${formatDay(coupon.valid_to, lang)}`, noWrap: true },
              { accessor: 'provider_id', title: t`Insurer`, render: (coupon) => (coupon.provider_name === null ? t`Any` : coupon.provider_name[lang]), noWrap: true },
              {
                accessor: 'active',
                title: t`Active`,
                render: (coupon) => (
                  <ToneBadge color={coupon.active ? 'cedar' : 'gray'}>
                    {coupon.active ? t`Active` : t`Disabled`}
                  </ToneBadge>
                ),
              },
              {
                accessor: 'actions',
                title: t`Actions`,
                render: (coupon) => (
                  <Group gap={6} wrap="nowrap">
                    <Button size="compact-sm" variant="light" onClick={() => setEditing(coupon)} disabled={action.busy} aria-label={t`Edit coupon ${coupon.code}`} data-testid={`coupon-edit-${coupon.code}`}>
                      <Trans>Edit</Trans>
                    </Button>
                    {coupon.active && (
                      <Button size="compact-sm" variant="light" color="red" onClick={() => setDisabling(coupon)} disabled={action.busy} aria-label={t`Disable coupon ${coupon.code}`} data-testid={`coupon-disable-${coupon.code}`}>
                        <Trans>Disable</Trans>
                      </Button>
                    )}
                  </Group>
                ),
              },
            ]}
          />
        )}
      </DataView>
      {editing && <CouponEditModal key={editing.code} coupon={editing} onClose={() => setEditing(null)} action={action} onDone={result.reload} />}
      <ConfirmModal
        opened={disabling !== null}
        title={t`Disable coupon`}
        question={disabling ? t`Disable coupon ${disabling.code}? Checkouts can no longer use it.` : ''}
        confirmLabel={t`Disable`}
        busy={action.busy}
        danger
        onConfirm={() => disabling && void disable(disabling)}
        onClose={() => setDisabling(null)}
      />
    </Stack>
  );
}
