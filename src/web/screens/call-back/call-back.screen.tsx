import { useLingui } from '@lingui/react/macro';
import { PageHeading } from '../page-heading';

/** /call-back: call-back request confirmed. */
export function CallBackScreen() {
  const { t } = useLingui();
  return <PageHeading testId="screen-call-back" title={t`Thank you for your call-back request`} intro={t`Our team will call you back shortly.`} />;
}
