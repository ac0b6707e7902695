import { useLingui } from '@lingui/react/macro';
import { PageHeading } from '../page-heading';

/** /review-details: traveller-by-traveller review. */
export function ReviewDetailsScreen() {
  const { t } = useLingui();
  return <PageHeading testId="screen-review-details" title={t`Review details`} intro={t`Check each traveller's details exactly as they appear on the passport.`} />;
}
