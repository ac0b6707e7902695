import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import type { CheckoutTotals } from '../../../contract/checkout.endpoints';
import type { Language } from '../../../contract/endpoint';
import { formatMoney } from '../../i18n/format';

/**
 * What the customer pays, line by line (spec §2 price summary): the server's totals, never the
 * page's arithmetic. The discount shows only with a coupon; the stamp fee only when the insurer
 * charges one (provider 3) and it is above 0. Every line shows its cents, so the lines add up to
 * the total to the cent and the total is what the gateway charges (RULINGS 26).
 */
export function PriceSummary({ totals, lang }: { totals: CheckoutTotals; lang: Language }) {
  const { t } = useLingui();
  const vatPercent = totals.vat_percent;
  const line = (label: string, value: string, testId: string, strong = false) => (
    <Group justify="space-between" wrap="nowrap" gap="md">
      <Text fz={strong ? 'md' : 'sm'} fw={strong ? 800 : 400}>
        {label}
      </Text>
      <Text fz={strong ? 'xl' : 'sm'} fw={strong ? 800 : 600} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="price-summary-title" data-testid="price-summary">
      <Stack gap="xs">
        <Title order={2} fz="lg" id="price-summary-title">
          {t`Price summary`}
        </Title>
        {line(t`Plan premium`, formatMoney(totals.plan_price, lang, { cents: true }), 'price-plan')}
        {totals.addons_price > 0 && line(t`Add-ons`, formatMoney(totals.addons_price, lang, { cents: true }), 'price-addons')}
        {totals.discount > 0 && line(t`Discount`, formatMoney(totals.discount, lang, { minus: true, cents: true }), 'price-discount')}
        {line(t`VAT (${vatPercent}%)`, formatMoney(totals.vat_amount, lang, { cents: true }), 'price-vat')}
        {totals.stamp_fee > 0 && line(t`Stamp fee`, formatMoney(totals.stamp_fee, lang, { cents: true }), 'price-stamp-fee')}
        <div style={{ borderTop: '1px solid var(--mantine-color-gray-3)', paddingTop: 8 }}>{line(t`Total`, formatMoney(totals.total, lang, { cents: true }), 'price-total', true)}</div>
      </Stack>
    </Paper>
  );
}
