import { useLingui } from '@lingui/react/macro';
import { PageHeading } from '../page-heading';

/** /thank-you-p: thanks after a 100 percent discount order. */
export function ThankYouHundredScreen() {
  const { t } = useLingui();
  return <PageHeading testId="screen-thank-you-hundred" title={t`Thank you for your order`} intro={t`Your policy will be issued and sent to you.`} />;
}
