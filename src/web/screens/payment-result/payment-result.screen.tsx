import { useLingui } from '@lingui/react/macro';
import { PageHeading } from '../page-heading';

/** /payment-result: where the payments page returns the browser (RULINGS 20). */
export function PaymentResultScreen() {
  const { t } = useLingui();
  return <PageHeading testId="screen-payment-result" title={t`Payment result`} intro={t`The result of your payment.`} />;
}
