import { useLingui } from '@lingui/react/macro';
import { PageHeading } from '../page-heading';

/** /compare-offers: the side-by-side table of up to 3 plans. */
export function CompareOffersScreen() {
  const { t } = useLingui();
  return <PageHeading testId="screen-compare-offers" title={t`Compare plans`} intro={t`Up to three plans side by side.`} />;
}
