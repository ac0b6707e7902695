import { useLingui } from '@lingui/react/macro';
import { PageHeading } from '../page-heading';

/** /request-call-back: step one of the short call-back wizard (RULINGS 13). */
export function RequestCallBackScreen() {
  const { t } = useLingui();
  return <PageHeading testId="screen-request-call-back" title={t`Request a call back`} intro={t`Leave your details and our team will call you.`} />;
}
