import { useLingui } from '@lingui/react/macro';
import { PageHeading } from '../page-heading';

/** /checkout: summary, coupon, terms and payment. */
export function CheckoutScreen() {
  const { t } = useLingui();
  return <PageHeading testId="screen-checkout" title={t`Purchase insurance`} intro={t`Review your plan, apply a coupon and pay securely.`} />;
}
