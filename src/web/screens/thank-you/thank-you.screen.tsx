import { useLingui } from '@lingui/react/macro';
import { PageHeading } from '../page-heading';

/** /thank-you: no online quote; a call-back follows. */
export function ThankYouScreen() {
  const { t } = useLingui();
  return <PageHeading testId="screen-thank-you" title={t`We need a little more information`} intro={t`We cannot process your application online. Our team will contact you shortly.`} />;
}
