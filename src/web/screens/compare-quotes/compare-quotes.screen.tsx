import { useLingui } from '@lingui/react/macro';
import { PageHeading } from '../page-heading';

/** /compare-quotes: the quote list, drawer and compare tray. */
export function CompareQuotesScreen() {
  const { t } = useLingui();
  return <PageHeading testId="screen-compare-quotes" title={t`Compare quotes`} intro={t`Plans from our insurers for your trip, cheapest first.`} />;
}
